package dev.timelake.sql;

import dev.timelake.AccessDeniedException;
import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import dev.timelake.engine.SqlText;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a server's client may hand to DuckDB as it is, decided before it runs. All sessions share
 * one DuckDB instance that may read and write the warehouse, so a client runs only what stays
 * inside its own session and changes nothing on disk: one statement at a time; queries (DuckDB's
 * own parser must see exactly one SELECT); {@code DESCRIBE}, {@code SHOW}, {@code SUMMARIZE}; an
 * allow-list of session-local settings; its own temporary tables, views, macros, sequences and
 * types (create, fill, drop). Everything else — files (COPY, EXPORT/IMPORT DATABASE), ATTACH,
 * DETACH, USE, extensions, instance-wide settings and variables, objects in shared catalogs, PRAGMA
 * that is not a read — is refused with a message naming the statement. Timelake's own statements
 * (INSERT into lake tables, DDL, rollups) never come here: they are checked against the user's role
 * where they run.
 */
final class ClientStatementPolicy {
  /** DuckDB settings a client may change: they hold for its own connection only. */
  private static final Set<String> SESSION_SETTINGS =
      Set.of(
          "timezone",
          "calendar",
          "search_path",
          "default_order",
          "default_null_order",
          "errors_as_json");

  /** PRAGMAs that only read. */
  private static final Set<String> READING_PRAGMAS =
      Set.of(
          "table_info",
          "show",
          "show_tables",
          "show_tables_expanded",
          "show_databases",
          "version",
          "platform",
          "functions",
          "database_list",
          "collations");

  /** Objects a client may create as TEMPORARY and drop again. */
  private static final Set<String> TEMPORARY_OBJECTS =
      Set.of("TABLE", "VIEW", "MACRO", "FUNCTION", "SEQUENCE", "TYPE");

  private final EngineConnection client;
  private final LakeCatalog catalog;

  ClientStatementPolicy(EngineConnection client, LakeCatalog catalog) {
    this.client = client;
    this.catalog = catalog;
  }

  /**
   * Refuses text that holds more than one statement, before anything of it runs: a server's client
   * sends one statement at a time (its server splits query strings), so nothing of the text is left
   * unseen by the checks, nor silently dropped.
   */
  static void requireOneStatement(String sql) {
    SqlLexer.Tokens lexed = SqlLexer.tokens(sql);
    if (lexed.unterminated()) {
      throw refused("the statement", "it ends inside a string, quoted name or comment");
    }
    if (withoutTrailingSemicolons(lexed.tokens()).stream()
        .anyMatch(token -> token.kind() == Kind.SEMICOLON)) {
      throw refused("several statements", "send one statement at a time");
    }
  }

  /**
   * Refuses {@code sql} unless a server's client may run it on DuckDB as it is.
   *
   * @throws AccessDeniedException naming the statement and why it is refused
   */
  void check(String sql) {
    requireOneStatement(sql);
    List<Token> tokens = withoutTrailingSemicolons(SqlLexer.tokens(sql).tokens());
    if (tokens.isEmpty()) {
      return;
    }
    Token first = tokens.get(0);
    String keyword = first.kind() == Kind.WORD ? first.value() : first.text();
    switch (keyword) {
      case "SELECT",
          "WITH",
          "FROM",
          "VALUES",
          "TABLE",
          "(",
          "DESCRIBE",
          "DESC",
          "SHOW",
          "SUMMARIZE" ->
          requireOneQuery(sql, keyword);
      case "EXPLAIN" -> requireOneQuery(textAfter(sql, tokens, explained(tokens)), "EXPLAIN");
      case "SET", "RESET" -> checkSetting(tokens, keyword);
      case "CREATE" -> checkCreate(tokens);
      case "DROP" -> checkDrop(tokens);
      case "INSERT", "UPDATE", "DELETE", "TRUNCATE" -> checkWrite(tokens, keyword);
      case "PRAGMA" -> checkPragma(tokens);
      case "COPY" ->
          throw refused(
              "COPY",
              "the server's files are not the client's: send data with COPY … FROM STDIN (psql:"
                  + " \\copy) and read it with COPY … TO STDOUT (psql: \\copy … to)");
      case "ATTACH", "DETACH", "USE" ->
          throw refused(keyword, "the databases of the engine are shared by every session");
      case "INSTALL", "LOAD", "FORCE", "UPDATE_EXTENSIONS" ->
          throw refused(keyword, "extensions are shared by every session");
      case "EXPORT", "IMPORT" -> throw refused(keyword + " DATABASE", "it writes or reads files");
      case "CHECKPOINT",
          "VACUUM",
          "ANALYZE",
          "CALL",
          "PREPARE",
          "EXECUTE",
          "DEALLOCATE",
          "ALTER",
          "COMMENT",
          "PIVOT",
          "UNPIVOT",
          "MERGE" ->
          throw refused(keyword, "a server's client may not run it");
      default -> throw refused(keyword, "a server's client may not run it");
    }
  }

  private static List<Token> withoutTrailingSemicolons(List<Token> tokens) {
    int end = tokens.size();
    while (end > 0 && tokens.get(end - 1).kind() == Kind.SEMICOLON) {
      end--;
    }
    return tokens.subList(0, end);
  }

  /** The index of the explained statement's first token: after EXPLAIN [ANALYZE]. */
  private static int explained(List<Token> tokens) {
    int index = 1;
    if (index < tokens.size() && tokens.get(index).is("ANALYZE")) {
      index++;
    }
    if (index >= tokens.size()) {
      throw refused("EXPLAIN", "it explains nothing");
    }
    return index;
  }

  private static String textAfter(String sql, List<Token> tokens, int index) {
    return sql.substring(tokens.get(index).start());
  }

  /**
   * Asks DuckDB's own parser: {@code sql} must be exactly one SELECT (DESCRIBE, SHOW and SUMMARIZE
   * are SELECTs to it), so that no other statement hides in it where Timelake reads the text
   * differently.
   */
  private void requireOneQuery(String sql, String keyword) {
    List<Object> parsed =
        client
            .rows(
                "SELECT CAST(j->>'error' AS BOOLEAN), json_array_length(j->'statements'),"
                    + " j->>'error_message' FROM (SELECT CAST(json_serialize_sql("
                    + SqlText.literal(sql)
                    + ") AS JSON) AS j)")
            .get(0);
    if (Boolean.TRUE.equals(parsed.get(0))) {
      String reason = String.valueOf(parsed.get(2));
      if (reason.startsWith("Only SELECT statements")) {
        throw refused(keyword + " …", "only a query may run here, and this is not one");
      }
      return; // a syntax error: DuckDB reports it when the statement runs
    }
    if (((Number) parsed.get(1)).longValue() != 1) {
      throw refused("several statements", "send one statement at a time");
    }
  }

  /**
   * Refuses a query of a client limited to some namespaces when it reads files by name ({@code
   * read_parquet('…')}, {@code glob}, {@code FROM 'x.parquet'}): the warehouse's files hold every
   * namespace's data, which such a client reaches only through the tables of its namespaces.
   * DuckDB's own parser finds the table functions and file names, wherever they are nested.
   */
  void refuseFileReads(String query, String user, boolean strict) {
    String json =
        String.valueOf(
            client.scalar(
                "SELECT CAST(json_serialize_sql(" + SqlText.literal(query) + ") AS VARCHAR)"));
    com.fasterxml.jackson.databind.JsonNode tree;
    try {
      tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw refused("the query", "its text cannot be checked");
    }
    if (tree.path("error").asBoolean(false)) {
      if (!strict) {
        return; // not a query: the statement's own checks apply
      }
      // DuckDB runs what it parses: what it cannot parse here it would not run either.
      throw refused("the query", "DuckDB cannot read it: " + tree.path("error_message").asText(""));
    }
    List<String> files = new java.util.ArrayList<>();
    collectFileReads(tree, files);
    if (!files.isEmpty()) {
      throw new AccessDeniedException(
          "Cannot run "
              + files.get(0)
              + " for user "
              + user
              + ": a user limited to some namespaces reads their tables, not files by name");
    }
  }

  private static void collectFileReads(
      com.fasterxml.jackson.databind.JsonNode node, List<String> files) {
    if (node.isObject()) {
      String type = node.path("type").asText("");
      if (type.equals("TABLE_FUNCTION")) {
        String name = node.path("function").path("function_name").asText("");
        if (!name.startsWith("timelake_")
            && !name.startsWith("duckdb_")
            && !name.equals("range")
            && !name.equals("generate_series")
            && !name.equals("unnest")) {
          files.add(name + "(…)");
        }
      } else if (type.equals("BASE_TABLE")) {
        String table = node.path("table_name").asText("");
        if (table.contains("/")
            || table.contains("\\")
            || table.matches("(?i).*\\.(parquet|csv|tsv|json|jsonl|ndjson|txt|gz|zst)")) {
          files.add("a read of '" + table + "'");
        }
      }
      node.fields().forEachRemaining(field -> collectFileReads(field.getValue(), files));
    } else if (node.isArray()) {
      node.forEach(element -> collectFileReads(element, files));
    }
  }

  /** SET/RESET [SESSION | LOCAL] name: allow-listed settings of the client's own connection. */
  private static void checkSetting(List<Token> tokens, String keyword) {
    int index = 1;
    if (index < tokens.size()
        && (tokens.get(index).is("SESSION") || tokens.get(index).is("LOCAL"))) {
      index++;
    }
    if (index < tokens.size() && tokens.get(index).is("GLOBAL")) {
      throw refused(keyword + " GLOBAL", "settings of the whole engine apply to every session");
    }
    if (index < tokens.size() && tokens.get(index).is("VARIABLE")) {
      throw refused(keyword + " VARIABLE", "DuckDB's variables are shared by every session");
    }
    if (index >= tokens.size()) {
      throw refused(keyword, "it names no setting");
    }
    String name = tokens.get(index).value().toLowerCase(Locale.ROOT);
    if (name.equals("time") && index + 1 < tokens.size() && tokens.get(index + 1).is("ZONE")) {
      return; // SET TIME ZONE …
    }
    if (!SESSION_SETTINGS.contains(name)) {
      throw refused(
          keyword + " " + name,
          "a client may change only settings of its own session ("
              + String.join(", ", new java.util.TreeSet<>(SESSION_SETTINGS))
              + ", and timelake.*); others apply to every session");
    }
  }

  /** CREATE [OR REPLACE] TEMP|TEMPORARY TABLE|VIEW|MACRO|FUNCTION|SEQUENCE|TYPE. */
  private static void checkCreate(List<Token> tokens) {
    int index = 1;
    if (index + 1 < tokens.size()
        && tokens.get(index).is("OR")
        && tokens.get(index + 1).is("REPLACE")) {
      index += 2;
    }
    boolean temporary =
        index < tokens.size()
            && (tokens.get(index).is("TEMP") || tokens.get(index).is("TEMPORARY"));
    String object =
        index + (temporary ? 1 : 0) < tokens.size()
            ? tokens.get(index + (temporary ? 1 : 0)).value()
            : "";
    if (!temporary || !TEMPORARY_OBJECTS.contains(object)) {
      throw refused(
          "CREATE " + (temporary ? "TEMPORARY " : "") + object,
          "a client may create only TEMPORARY tables, views, macros, sequences and types (its"
              + " session's own); lake tables are made with CREATE TABLE ns.t (…) WITH (…)");
    }
  }

  /** DROP of the session's own temporary objects only. */
  private void checkDrop(List<Token> tokens) {
    String object = tokens.size() > 1 ? tokens.get(1).value() : "";
    int index = 2;
    if (index + 1 < tokens.size()
        && tokens.get(index).is("IF")
        && tokens.get(index + 1).is("EXISTS")) {
      index += 2;
    }
    if (!TEMPORARY_OBJECTS.contains(object) || index >= tokens.size()) {
      throw refused("DROP " + object, "a client may drop only its session's temporary objects");
    }
    String name = objectName(tokens, index);
    if (!isTemporary(object, name)) {
      throw refused(
          "DROP " + object + " " + name,
          "it is not a temporary object of this session (lake tables: DROP TABLE ns.t, with the"
              + " admin role)");
    }
  }

  /** INSERT, UPDATE, DELETE, TRUNCATE of the session's own temporary tables only. */
  private void checkWrite(List<Token> tokens, String keyword) {
    int index = 1;
    if (keyword.equals("INSERT")) {
      while (index < tokens.size() && !tokens.get(index).is("INTO")) {
        index++; // INSERT OR REPLACE|IGNORE INTO
      }
      index++;
    } else if (keyword.equals("DELETE") || keyword.equals("TRUNCATE")) {
      if (index < tokens.size()
          && (tokens.get(index).is("FROM") || tokens.get(index).is("TABLE"))) {
        index++;
      }
    }
    if (index >= tokens.size()) {
      throw refused(keyword, "it names no table");
    }
    String name = objectName(tokens, index);
    if (isTemporary("TABLE", name)) {
      return;
    }
    boolean lakeTable = isLakeTable(name);
    throw refused(
        keyword + " " + name,
        lakeTable
            ? (keyword.equals("INSERT")
                ? "write it as INSERT INTO " + name + " VALUES … or … SELECT …"
                : keyword + " of lake tables is not supported yet")
            : "a client may write only its session's temporary tables");
  }

  private static void checkPragma(List<Token> tokens) {
    String name = tokens.size() > 1 ? tokens.get(1).value().toLowerCase(Locale.ROOT) : "";
    boolean assigns = tokens.stream().anyMatch(token -> token.text().equals("="));
    if (!READING_PRAGMAS.contains(name) || assigns) {
      throw refused("PRAGMA " + name, "a client may run only PRAGMAs that read");
    }
  }

  /** The (possibly qualified) name starting at {@code index}, as written, quotes removed. */
  private static String objectName(List<Token> tokens, int index) {
    StringBuilder name = new StringBuilder();
    int i = index;
    while (i < tokens.size()) {
      Token token = tokens.get(i);
      if (token.kind() != Kind.WORD && token.kind() != Kind.QUOTED_IDENTIFIER) {
        break;
      }
      name.append(
          token.kind() == Kind.WORD ? token.text().toLowerCase(Locale.ROOT) : token.value());
      if (i + 1 < tokens.size() && tokens.get(i + 1).text().equals(".")) {
        name.append('.');
        i += 2;
      } else {
        break;
      }
    }
    return name.toString();
  }

  /** True when {@code name} is a temporary object of this connection (DuckDB's temp catalog). */
  boolean isTemporary(String object, String name) {
    String[] parts = name.split("\\.");
    String bare = parts[parts.length - 1];
    if (parts.length > 1 && !parts[0].equals("temp")) {
      return false;
    }
    String table =
        switch (object) {
          case "TABLE" -> "duckdb_tables() WHERE table_name = ";
          case "VIEW" -> "duckdb_views() WHERE view_name = ";
          case "MACRO", "FUNCTION" -> "duckdb_functions() WHERE function_name = ";
          case "SEQUENCE" -> "duckdb_sequences() WHERE sequence_name = ";
          default -> "duckdb_types() WHERE type_name = ";
        };
    Object found =
        client.scalar(
            "SELECT count(*) FROM "
                + table
                + SqlText.literal(bare)
                + " AND database_name = 'temp'");
    return ((Number) found).longValue() > 0;
  }

  private boolean isLakeTable(String name) {
    try {
      return catalog.exists(TableName.parse(name));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static AccessDeniedException refused(String statement, String why) {
    return new AccessDeniedException("Cannot run " + statement + " on this server: " + why);
  }
}
