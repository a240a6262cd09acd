package dev.timelake.sql;

import dev.timelake.TimelakeException;
import dev.timelake.engine.Engine;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.script.SqlScript;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The PostgreSQL catalog as psql, pgjdbc and Grafana ask for it: {@code pg_catalog} relations and
 * functions, {@code information_schema} and {@code current_setting}, answered for the lake's tables
 * (which they see as ordinary tables, one schema per namespace).
 *
 * <p>DuckDB already has most of {@code pg_catalog}; this fills in what those clients send and
 * DuckDB lacks (psql's {@code OPERATOR(pg_catalog.~)} and {@code COLLATE pg_catalog.default},
 * {@code pg_get_userbyid}, {@code quote_ident}, the relations psql reads for {@code \d} and that
 * PostgreSQL has but DuckDB does not, server settings), and shows the session's per-table views
 * (what the lake's tables are to DuckDB) as tables. The rewrite works on tokens, so string
 * literals, quoted names and comments are never touched; the definitions live in their own schema
 * of the engine's catalog, reached only through rewritten names, so nothing else sees them.
 */
final class PostgresCatalog {
  /** The schema holding the definitions. */
  private static final String SCHEMA = Engine.CATALOG + ".tl_pg";

  /** The schema holding the {@code information_schema} views. */
  private static final String INFORMATION_SCHEMA = Engine.CATALOG + ".tl_information_schema";

  /** The server version this catalog claims, as PostgreSQL clients read it. */
  static final String SERVER_VERSION = "16.0";

  /** Functions defined here that are also called unqualified (the rest are pg_-prefixed). */
  private static final Set<String> UNQUALIFIED_FUNCTIONS =
      Set.of(
          "quote_ident",
          "parse_ident",
          "array_lower",
          "array_upper",
          "current_setting",
          "current_database",
          "version",
          "format_type");

  /** PostgreSQL's object-identifier types, BIGINT here. */
  private static final Set<String> OID_TYPES =
      Set.of("regclass", "regtype", "regnamespace", "regproc", "oid");

  /** Relations, functions and types of {@code pg_catalog} defined here. */
  private static final Set<String> DEFINED =
      union(
          Set.of(
              "pg_class",
              "pg_namespace",
              "pg_attribute",
              "pg_type",
              "pg_database",
              "pg_extension",
              "pg_roles",
              "pg_user",
              "pg_inherits",
              "pg_policy",
              "pg_statistic_ext",
              "pg_publication",
              "pg_publication_namespace",
              "pg_publication_rel",
              "pg_trigger",
              "pg_rewrite",
              "pg_partition_ancestors",
              "pg_get_userbyid",
              "pg_get_expr",
              "pg_encoding_to_char",
              "pg_relation_is_publishable",
              "pg_get_statisticsobjdef_columns"),
          UNQUALIFIED_FUNCTIONS,
          OID_TYPES);

  @SafeVarargs
  private static Set<String> union(Set<String>... sets) {
    Set<String> all = new java.util.HashSet<>();
    for (Set<String> set : sets) {
      all.addAll(set);
    }
    return Set.copyOf(all);
  }

  /** The {@code information_schema} views defined here. */
  private static final Set<String> INFORMATION_VIEWS = Set.of("tables", "columns", "schemata");

  /** Text any catalog query contains; most statements have none of it. */
  private static final Pattern MAYBE =
      Pattern.compile(
          "(?i)pg_|information_schema|quote_ident|parse_ident|array_lower|array_upper"
              + "|current_setting|current_database|version|format_type");

  /** The words a catalog query starts with: it reads, never writes. */
  private static final Set<String> QUERIES = Set.of("select", "with", "values", "table");

  /** What a rewritten statement names: the definitions, made on the first such statement. */
  private static final Pattern REWRITTEN = Pattern.compile("\\btl_(pg|information_schema)\\.");

  private PostgresCatalog() {}

  /** Defines the catalog on the lake's engine the first time a rewritten statement needs it. */
  static void installOn(dev.timelake.catalog.LakeCatalog catalog) {
    catalog.engine().installWhenMentioned("postgres-catalog", REWRITTEN, PostgresCatalog::define);
  }

  /** The server settings PostgreSQL clients read that DuckDB does not have. */
  private static final Set<String> SERVER_SETTINGS =
      Set.of(
          "server_version",
          "server_version_num",
          "server_encoding",
          "client_encoding",
          "search_path",
          "datestyle",
          "integer_datetimes",
          "standard_conforming_strings",
          "max_identifier_length",
          "default_transaction_read_only",
          "transaction_isolation",
          "lc_collate",
          "lc_ctype",
          "max_index_keys");

  private static final Pattern SHOW = Pattern.compile("(?is)SHOW\\s++([a-z_]++)\\s*+;?+");

  private static final Pattern MAYBE_INTERNAL =
      Pattern.compile("(?i)tl_(pg|information_schema)\\b");

  /**
   * Refuses a statement that names the definitions' schemas itself: they are shared by every
   * session of the lake's engine, so one client must not drop or redefine them for the others.
   * Rewritten statements name them; what a client writes may not.
   *
   * @throws TimelakeException naming the schema
   */
  static void refuseInternalNames(String sql) {
    if (!MAYBE_INTERNAL.matcher(sql).find()) {
      return;
    }
    for (String token : tokens(sql)) {
      String name = token.startsWith("\"") ? token.replace("\"", "") : token;
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.equals("tl_pg") || lower.equals("tl_information_schema")) {
        throw TimelakeException.validation(
            "The statement names Timelake's own schema %s, which holds the PostgreSQL catalog"
                + " definitions every session shares; query pg_catalog and information_schema"
                + " instead",
            lower);
      }
    }
  }

  /** True when {@code sql} reads the PostgreSQL catalog (and needs {@link #rewrite}). */
  static boolean mentions(String sql) {
    if (show(sql).isPresent()) {
      return true;
    }
    // Every statement passes here: tokenize only those that could name the catalog at all.
    if (!MAYBE.matcher(sql).find()) {
      return false;
    }
    // On tokens, so literals, quoted names and comments do not count, and only for queries: a
    // CREATE TABLE pg_metrics or an INSERT naming a catalog function is the lake's to run.
    List<String> tokens = tokens(sql);
    int first = skipBlank(tokens, 0);
    if (first >= tokens.size() || !QUERIES.contains(tokens.get(first).toLowerCase(Locale.ROOT))) {
      return false;
    }
    for (int i = first; i < tokens.size(); i++) {
      String word = tokens.get(i).toLowerCase(Locale.ROOT);
      String next = next(tokens, i, 1);
      boolean qualified = previous(tokens, i).equals(".");
      if ((word.equals("pg_catalog") || word.equals("information_schema")) && next.equals(".")) {
        return true;
      }
      if (!qualified
          && DEFINED.contains(word)
          && (word.startsWith("pg_")
              || (next.equals("(") && UNQUALIFIED_FUNCTIONS.contains(word)))) {
        return true;
      }
    }
    return false;
  }

  /** {@code SHOW server_version} and the like: the setting PostgreSQL would show. */
  private static java.util.Optional<String> show(String sql) {
    java.util.regex.Matcher show = SHOW.matcher(sql.strip());
    if (!show.matches()) {
      return java.util.Optional.empty();
    }
    String name = show.group(1).toLowerCase(Locale.ROOT);
    return SERVER_SETTINGS.contains(name)
        ? java.util.Optional.of(
            "SELECT "
                + SCHEMA
                + ".current_setting("
                + SqlText.literal(name)
                + ") AS "
                + SqlText.identifier(name))
        : java.util.Optional.empty();
  }

  /** {@code sql} with its catalog names pointing at the definitions of {@link #define}. */
  static String rewrite(String sql) {
    java.util.Optional<String> show = show(sql);
    if (show.isPresent()) {
      return show.get();
    }
    List<String> tokens = tokens(sql);
    StringBuilder out = new StringBuilder(sql.length() + 64);
    // The clause each open parenthesis is in: a function in FROM is a PostgreSQL table of one row.
    java.util.ArrayDeque<String> clauses = new java.util.ArrayDeque<>();
    clauses.push("");
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      String word = token.toLowerCase(Locale.ROOT);
      if (token.equals("(")) {
        clauses.push("");
      } else if (token.equals(")") && clauses.size() > 1) {
        clauses.pop();
      } else if (CLAUSES.contains(word)) {
        clauses.pop();
        clauses.push(word.equals("join") ? "from" : word);
      }
      if (word.equals("string_to_array")
          && clauses.peek().equals("from")
          && Set.of(",", "from", "join").contains(previous(tokens, i).toLowerCase(Locale.ROOT))) {
        int close = closing(tokens, skipBlank(tokens, i + 1));
        int aliasAt = skipBlank(tokens, close + 1);
        if (aliasAt < tokens.size() && tokens.get(aliasAt).equalsIgnoreCase("as")) {
          aliasAt = skipBlank(tokens, aliasAt + 1);
        }
        String alias = aliasAt < tokens.size() ? tokens.get(aliasAt) : "";
        if (close < tokens.size() && alias.matches("[A-Za-z_][A-Za-z0-9_]*")) {
          String arguments = String.join("", tokens.subList(skipBlank(tokens, i + 1), close + 1));
          out.append("(SELECT string_split")
              .append(rewrite(arguments))
              .append(") AS __tl_")
              .append(alias)
              .append('(')
              .append(alias)
              .append(')');
          i = aliasAt;
          continue;
        }
      }
      if (token.startsWith("'")) {
        // 'pg_class'::regclass: the oid of the relation of that name (PostgreSQL's lookup).
        int typeAt = castType(tokens, i);
        if (typeAt > 0
            && OID_TYPES.contains(tokens.get(typeAt).toLowerCase(Locale.ROOT))
            && !token.matches("'-?[0-9]+'")) {
          out.append("(SELECT min(oid) FROM ")
              .append(SCHEMA)
              .append(".pg_class WHERE relname = ")
              .append(token)
              .append(')');
          i = typeAt;
          continue;
        }
      }
      if (previous(tokens, i).equals(":")
          && OID_TYPES.contains(word)
          && !next(tokens, i, 1).equals(".")) {
        out.append(SCHEMA).append('.').append(word);
        continue;
      }
      if (word.equals("operator") && next(tokens, i, 1).equals("(")) {
        // OPERATOR(pg_catalog.~): the operator itself.
        int close = i;
        StringBuilder operator = new StringBuilder();
        while (++close < tokens.size() && !tokens.get(close).equals(")")) {
          String part = tokens.get(close);
          if (!part.isBlank()
              && !part.equals("(")
              && !part.equals(".")
              && !part.equalsIgnoreCase("pg_catalog")) {
            operator.append(part);
          }
        }
        out.append(' ').append(operator).append(' ');
        i = close;
        continue;
      }
      if (word.equals("collate")) {
        // COLLATE pg_catalog.default / "default" / "C": DuckDB's collations are spelled otherwise.
        int j = skipBlank(tokens, i + 1);
        if (j < tokens.size() && tokens.get(j).equalsIgnoreCase("pg_catalog")) {
          j = skipBlank(tokens, skipBlank(tokens, j + 1) + 1);
        }
        i = j;
        continue;
      }
      boolean qualifiedHere = previous(tokens, i).equals(".");
      if (word.equals("pg_catalog") && next(tokens, i, 1).equals(".")) {
        int nameAt = skipBlank(tokens, skipBlank(tokens, i + 1) + 1);
        String name = nameAt < tokens.size() ? tokens.get(nameAt).toLowerCase(Locale.ROOT) : "";
        if (DEFINED.contains(name)) {
          out.append(SCHEMA).append('.').append(definedName(name));
          i = nameAt;
        } else if (next(tokens, nameAt, 1).equals("(") || previous(tokens, i).equals(":")) {
          // DuckDB's own function or type (::pg_catalog.text), found without the schema.
          out.append(tokens.get(nameAt));
          i = nameAt;
        } else {
          out.append(token);
        }
        continue;
      }
      if (word.equals("information_schema") && next(tokens, i, 1).equals(".")) {
        int nameAt = skipBlank(tokens, skipBlank(tokens, i + 1) + 1);
        String name = nameAt < tokens.size() ? tokens.get(nameAt).toLowerCase(Locale.ROOT) : "";
        if (INFORMATION_VIEWS.contains(name)) {
          out.append(INFORMATION_SCHEMA).append('.').append(name);
          i = nameAt;
          continue;
        }
      }
      if (word.equals("current_setting") && !namesServerSetting(tokens, i)) {
        out.append(token); // one of DuckDB's own settings: DuckDB answers
        continue;
      }
      if (!qualifiedHere && !next(tokens, i, 1).equals(".") && DEFINED.contains(word)) {
        boolean call = next(tokens, i, 1).equals("(");
        if (word.startsWith("pg_") || (call && UNQUALIFIED_FUNCTIONS.contains(word))) {
          out.append(SCHEMA).append('.').append(definedName(word));
          continue;
        }
      }
      out.append(token);
    }
    return out.toString();
  }

  /**
   * The name of a definition: current_database is client_database, since the definitions' own views
   * call DuckDB's current_database (the session's catalog) and must not find this one.
   */
  private static String definedName(String name) {
    return name.equals("current_database") ? "client_database" : name;
  }

  /**
   * The index of the type name when {@code ::type} or {@code ::pg_catalog.type} follows the token
   * at {@code i}; -1 otherwise.
   */
  private static int castType(List<String> tokens, int i) {
    int first = skipBlank(tokens, i + 1);
    if (first + 1 >= tokens.size()
        || !tokens.get(first).equals(":")
        || !tokens.get(first + 1).equals(":")) {
      return -1;
    }
    int name = skipBlank(tokens, first + 2);
    if (name < tokens.size() && tokens.get(name).equalsIgnoreCase("pg_catalog")) {
      name = skipBlank(tokens, skipBlank(tokens, name + 1) + 1);
    }
    return name < tokens.size() ? name : -1;
  }

  /**
   * True when the call at {@code i} is {@code current_setting('<a PostgreSQL server setting>')}.
   */
  private static boolean namesServerSetting(List<String> tokens, int i) {
    String argument = next(tokens, i, 2);
    return argument.length() > 2
        && argument.startsWith("'")
        && SERVER_SETTINGS.contains(
            argument.substring(1, argument.length() - 1).toLowerCase(Locale.ROOT));
  }

  /** The words that start a clause of a query (JOIN: of the FROM clause). */
  private static final Set<String> CLAUSES =
      Set.of("select", "from", "join", "where", "group", "having", "order", "limit", "union");

  /** The index of the parenthesis closing the one at {@code open}; the end when unbalanced. */
  private static int closing(List<String> tokens, int open) {
    int depth = 0;
    for (int j = open; j < tokens.size(); j++) {
      if (tokens.get(j).equals("(")) {
        depth++;
      } else if (tokens.get(j).equals(")") && --depth == 0) {
        return j;
      }
    }
    return tokens.size();
  }

  /** The next non-blank token {@code n} steps after {@code i}, or "". */
  private static String next(List<String> tokens, int i, int n) {
    int j = i;
    for (int k = 0; k < n; k++) {
      j = skipBlank(tokens, j + 1);
    }
    return j < tokens.size() ? tokens.get(j) : "";
  }

  private static String previous(List<String> tokens, int i) {
    int j = i - 1;
    while (j >= 0 && tokens.get(j).isBlank()) {
      j--;
    }
    return j >= 0 ? tokens.get(j) : "";
  }

  private static int skipBlank(List<String> tokens, int from) {
    int j = from;
    while (j < tokens.size() && (tokens.get(j).isBlank() || isComment(tokens.get(j)))) {
      j++;
    }
    return j;
  }

  private static boolean isComment(String token) {
    return token.startsWith("--") || token.startsWith("/*");
  }

  /**
   * Words, quoted names and literals (whole, with any E prefix), comments, runs of blanks, and
   * single other characters.
   */
  static List<String> tokens(String sql) {
    return dev.timelake.engine.SqlLexer.tokensWithSpace(sql).tokens().stream()
        .map(dev.timelake.engine.SqlLexer.Token::text)
        .toList();
  }

  /**
   * Defines the catalog on the engine's shared database. The views read {@code current_database()}
   * when queried, so each session sees its own tables.
   */
  static void define(EngineConnection connection) {
    String duckdb = String.valueOf(connection.scalar("SELECT version()"));
    for (String statement : DEFINITIONS.statements()) {
      connection.execute(
          statement
              .replace("$S", SCHEMA)
              .replace("$I", INFORMATION_SCHEMA)
              .replace("$P", SERVER_VERSION)
              .replace("$V", duckdb.replace("'", "")));
    }
  }

  /** The definitions, with placeholders: {@code $S}, {@code $I}, {@code $P}, {@code $V}. */
  private static final SqlScript DEFINITIONS =
      SqlScript.load(PostgresCatalog.class, "pg_catalog.sql");
}
