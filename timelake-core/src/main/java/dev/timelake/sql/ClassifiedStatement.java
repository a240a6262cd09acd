package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import dev.timelake.rollup.RollupStatement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A statement as Timelake's front door sorts it, before anything of it runs: its text lexed once by
 * {@link SqlLexer}, and what kind of statement it is decided from those tokens, with the parts its
 * handler needs already read. Timelake's own statements (transactions, rollups, OPTIMIZE, settings,
 * …) are recognised here; everything else is {@link Sql}, for JSqlParser and DuckDB. Kinds that
 * depend on the catalog (a CREATE VIEW of lake tables, an ALTER TABLE of a lake table) are
 * candidates: their handler runs the statement as {@link Sql} when the catalog says no.
 */
sealed interface ClassifiedStatement {
  /** The statement's text, a trailing semicolon removed. */
  String text();

  /** BEGIN, COMMIT, ROLLBACK and the transaction statements Timelake refuses. */
  record Transaction(String text, TransactionControl control) implements ClassifiedStatement {}

  /** {@code SET}/{@code RESET} of a PostgreSQL client setting DuckDB does not have. */
  record PostgresSetting(String text, List<Token> tokens) implements ClassifiedStatement {}

  /** PREPARE, EXECUTE or DEALLOCATE. */
  record Prepared(String text, PreparedStatements.Command command) implements ClassifiedStatement {}

  /** CREATE, REFRESH or DROP MATERIALIZED ROLLUP. */
  record Rollup(String text, RollupStatement statement) implements ClassifiedStatement {}

  /** EXPLAIN REFRESH MATERIALIZED ROLLUP: the refresh's plan, not run. */
  record ExplainRefresh(String text, RollupStatement statement) implements ClassifiedStatement {}

  /** {@code SHOW timelake.<setting>} or {@code RESET timelake.<setting>}. */
  record TimelakeSetting(String text, boolean reset, String name) implements ClassifiedStatement {}

  /** {@code OPTIMIZE [TABLE] name}. */
  record Optimize(String text, TableName table) implements ClassifiedStatement {}

  /** CREATE VIEW: Timelake's when it reads lake tables. */
  record ViewCreation(String text, CreateView view) implements ClassifiedStatement {}

  /** CREATE TABLE … AS a query. */
  record TableCreationAs(String text, CreateTableAs creation) implements ClassifiedStatement {}

  /** {@code CALL timelake.rollback(…)}. */
  record Rollback(String text, RollbackCall call) implements ClassifiedStatement {}

  /** ALTER TABLE … ADD/DROP/RENAME: Timelake's when the table is a lake table. */
  record SchemaAlteration(String text, SchemaChange change) implements ClassifiedStatement {}

  /** A query of the PostgreSQL catalog (psql's, pgjdbc's, Grafana's): about tables, not through. */
  record CatalogQuery(String text) implements ClassifiedStatement {}

  /**
   * Any other statement, for JSqlParser and DuckDB.
   *
   * @param integerDivision it holds DuckDB's {@code //}, which JSqlParser reads as a comment
   * @param asksTimelakeSetting it calls {@code current_setting('timelake.…')}, answered by Timelake
   */
  record Sql(String text, boolean integerDivision, boolean asksTimelakeSetting)
      implements ClassifiedStatement {}

  /**
   * Sorts one statement. QuestDB's {@code LATEST ON} is read as the QUALIFY it means first, and its
   * {@code SAMPLE BY} as a GROUP BY marker (see {@link dev.timelake.fill.SampleBy}), so every path
   * (execution, describe) sees text that parses.
   *
   * @throws dev.timelake.ValidationException for a statement of Timelake's own kinds that cannot be
   *     read (a malformed rollup statement, PREPARE or rollback call), naming what was expected
   */
  static ClassifiedStatement of(String sql) {
    List<Token> tokens = statementTokens(SqlLexer.tokens(sql).tokens());
    String text = endingBeforeSemicolon(sql, tokens);
    Optional<String> latestOn = LatestRows.latestOn(text, tokens);
    if (latestOn.isPresent()) {
      text = latestOn.get();
      tokens = statementTokens(SqlLexer.tokens(text).tokens());
    }
    Optional<String> sampleBy = dev.timelake.fill.SampleBy.spelled(text, tokens);
    if (sampleBy.isPresent()) {
      text = sampleBy.get();
      tokens = statementTokens(SqlLexer.tokens(text).tokens());
    }
    return classify(text, tokens);
  }

  private static ClassifiedStatement classify(String text, List<Token> tokens) {
    String first = tokens.isEmpty() ? "" : tokens.get(0).value();
    switch (first) {
      case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE" -> {
        Optional<TransactionControl> control = TransactionControl.of(tokens);
        if (control.isPresent()) {
          return new Transaction(text, control.get());
        }
      }
      case "PREPARE", "EXECUTE", "DEALLOCATE" -> {
        Optional<TransactionControl> control = TransactionControl.of(tokens);
        if (control.isPresent()) {
          return new Transaction(text, control.get());
        }
        Optional<PreparedStatements.Command> command = PreparedStatements.parse(text, tokens);
        if (command.isPresent()) {
          return new Prepared(text, command.get());
        }
      }
      case "SET", "RESET", "SHOW" -> {
        Optional<ClassifiedStatement> setting = setting(text, tokens);
        if (setting.isPresent()) {
          return setting.get();
        }
      }
      case "CREATE", "REFRESH", "DROP", "ALTER" -> {
        Optional<ClassifiedStatement> definition = definition(text, tokens);
        if (definition.isPresent()) {
          return definition.get();
        }
      }
      case "EXPLAIN" -> {
        if (namesRollup(tokens, 2) && tokens.get(1).is("REFRESH")) {
          return new ExplainRefresh(
              text,
              RollupStatement.parseExplained(text)
                  .orElseThrow(() -> RollupStatement.unreadable(text)));
        }
      }
      case "OPTIMIZE" -> {
        Optional<TableName> table = optimized(tokens);
        if (table.isPresent()) {
          return new Optimize(text, table.get());
        }
      }
      case "CALL" -> {
        Optional<RollbackCall> call = RollbackCall.parse(tokens);
        if (call.isPresent()) {
          return new Rollback(text, call.get());
        }
      }
      default -> {}
    }
    boolean asksTimelakeSetting = asksTimelakeSetting(tokens);
    if (!asksTimelakeSetting && PostgresCatalog.mentions(text)) {
      return new CatalogQuery(text);
    }
    return new Sql(text, hasIntegerDivision(tokens), asksTimelakeSetting);
  }

  /** PostgreSQL clients' settings and Timelake's own ({@code timelake.<name>}). */
  private static Optional<ClassifiedStatement> setting(String text, List<Token> tokens) {
    if (PostgresSettings.isOne(tokens)) {
      return Optional.of(new PostgresSetting(text, tokens));
    }
    boolean timelake =
        tokens.size() == 4
            && !tokens.get(0).is("SET")
            && tokens.get(1).is("timelake")
            && tokens.get(2).text().equals(".")
            && tokens.get(3).kind() == Kind.WORD;
    return timelake
        ? Optional.of(
            new TimelakeSetting(
                text, tokens.get(0).is("RESET"), tokens.get(3).text().toLowerCase(Locale.ROOT)))
        : Optional.empty();
  }

  /** Rollup statements, lake views, CREATE TABLE AS and schema changes. */
  private static Optional<ClassifiedStatement> definition(String text, List<Token> tokens) {
    if (namesRollupNearStart(tokens)) {
      return Optional.of(
          new Rollup(
              text,
              RollupStatement.parse(text).orElseThrow(() -> RollupStatement.unreadable(text))));
    }
    if (tokens.get(0).is("ALTER")) {
      return SchemaChange.parse(tokens).map(change -> new SchemaAlteration(text, change));
    }
    if (!tokens.get(0).is("CREATE")) {
      return Optional.empty();
    }
    Optional<CreateView> view = CreateView.parse(text, tokens);
    if (view.isPresent()) {
      return Optional.of(new ViewCreation(text, view.get()));
    }
    return CreateTableAs.parse(text, tokens).map(creation -> new TableCreationAs(text, creation));
  }

  /**
   * True when {@code MATERIALIZED ROLLUP} comes among the first words ({@code CREATE OR REPLACE
   * MATERIALIZED ROLLUP} included, which is refused with the forms Timelake reads).
   */
  private static boolean namesRollupNearStart(List<Token> tokens) {
    for (int at = 1; at < Math.min(tokens.size(), 4); at++) {
      if (namesRollup(tokens, at)) {
        return true;
      }
    }
    return false;
  }

  /** True when {@code MATERIALIZED ROLLUP} follows the first {@code at} words. */
  private static boolean namesRollup(List<Token> tokens, int at) {
    return tokens.size() > at + 1
        && tokens.get(at).is("MATERIALIZED")
        && tokens.get(at + 1).is("ROLLUP");
  }

  /** The table of {@code OPTIMIZE [TABLE] name}. */
  private static Optional<TableName> optimized(List<Token> tokens) {
    int at = tokens.size() > 1 && tokens.get(1).is("TABLE") ? 2 : 1;
    int end = TokenNames.tableNameEnd(tokens, at);
    return end == tokens.size() && end > at
        ? Optional.of(TokenNames.tableName(tokens, at, end))
        : Optional.empty();
  }

  /** True when {@code sql} has {@code //} outside string literals, quoted names and comments. */
  static boolean hasIntegerDivision(String sql) {
    return hasIntegerDivision(SqlLexer.tokens(sql).tokens());
  }

  private static boolean hasIntegerDivision(List<Token> tokens) {
    for (int i = 0; i + 1 < tokens.size(); i++) {
      if (tokens.get(i).text().equals("/")
          && tokens.get(i + 1).text().equals("/")
          && tokens.get(i).end() == tokens.get(i + 1).start()) {
        return true;
      }
    }
    return false;
  }

  /** True when the statement calls {@code current_setting('timelake.…')}. */
  private static boolean asksTimelakeSetting(List<Token> tokens) {
    for (int i = 0; i + 2 < tokens.size(); i++) {
      if (tokens.get(i).is("current_setting")
          && tokens.get(i + 1).text().equals("(")
          && tokens.get(i + 2).kind() == Kind.STRING
          && tokens.get(i + 2).text().toLowerCase(Locale.ROOT).startsWith("'timelake.")) {
        return true;
      }
    }
    return false;
  }

  /** The tokens without the semicolons that end the statement. */
  private static List<Token> statementTokens(List<Token> tokens) {
    int end = tokens.size();
    while (end > 0 && tokens.get(end - 1).kind() == Kind.SEMICOLON) {
      end--;
    }
    return tokens.subList(0, end);
  }

  /**
   * The text up to the end of its last token: the semicolons that end it, and the whitespace and
   * comments around them, dropped. The text is not trimmed at its start, so that the tokens' places
   * stay valid.
   */
  private static String endingBeforeSemicolon(String sql, List<Token> tokens) {
    return tokens.isEmpty() ? "" : sql.substring(0, tokens.get(tokens.size() - 1).end());
  }
}
