package dev.timelake.sql;

import dev.timelake.AppendResult;
import dev.timelake.Column;
import dev.timelake.NotFoundException;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.engine.StatementParser;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.maintain.InlineMaintenance;
import dev.timelake.read.QueryRewriter;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupDefinition;
import dev.timelake.rollup.RollupDefinitions;
import dev.timelake.rollup.RollupRefresher;
import dev.timelake.rollup.RollupStatement;
import dev.timelake.rollup.RollupStore;
import dev.timelake.table.SessionSettings;
import dev.timelake.table.TableOptions;
import dev.timelake.write.AppendOperation;
import dev.timelake.write.AppendSource;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.DescribeStatement;
import net.sf.jsqlparser.statement.ExplainStatement;
import net.sf.jsqlparser.statement.SetStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.show.ShowTablesStatement;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * Runs SQL statements for one session: DuckDB SQL over Timelake tables, plus Timelake's DDL, SET
 * and INSERT. Each statement is parsed; table references are planned and rewritten (see {@link
 * QueryRewriter}); a statement the parser cannot handle runs against per-table views that apply the
 * same dedup. Not thread-safe.
 */
public final class SqlSession implements AutoCloseable {
  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final SessionSettings settings = new SessionSettings();
  private final FallbackViews fallback;
  private Clock clock = Clock.systemUTC();

  public SqlSession(LakeCatalog catalog) {
    this.catalog = catalog;
    this.connection = catalog.engine().connect();
    this.fallback = new FallbackViews(catalog, connection, settings);
    connection.execute(
        "CREATE OR REPLACE TEMPORARY MACRO date_bin(stride, source, origin := TIMESTAMPTZ"
            + " '1970-01-01 00:00:00+00') AS time_bucket(stride, source, origin)");
  }

  /** The session's settings. */
  public SessionSettings settings() {
    return settings;
  }

  /** Uses {@code clock} for the insertion time of INSERT statements. */
  public void clock(Clock clock) {
    this.clock = clock;
  }

  /** Runs one statement. */
  public StatementOutcome execute(String sql) {
    String text = stripTrailingSemicolon(sql);
    Optional<RollupStatement> rollupStatement = RollupStatement.parse(text);
    if (rollupStatement.isPresent()) {
      return rollup(rollupStatement.get());
    }
    if (hasIntegerDivision(text)) {
      // JSqlParser reads DuckDB's // (integer division) as the start of a line comment and would
      // silently drop the rest of the line from the statement it prints.
      return runWithFallbackViews(text);
    }
    Statement statement;
    try {
      statement = StatementParser.parse(text);
    } catch (JSQLParserException | RuntimeException e) {
      return runWithFallbackViews(text);
    }
    if (statement instanceof Select select) {
      return query(select, text);
    } else if (statement instanceof Insert insert) {
      return insert(insert.getTable(), insert.getColumns(), insert.getSelect(), "insert");
    } else if (statement instanceof Upsert upsert) {
      return insert(upsert.getTable(), upsert.getColumns(), upsert.getSelect(), "upsert");
    } else if (statement instanceof CreateTable create) {
      return createTable(create, text);
    } else if (statement instanceof Drop drop) {
      return drop(drop, text);
    } else if (statement instanceof SetStatement set) {
      return set(set, text);
    } else if (statement instanceof ShowTablesStatement) {
      return showTables();
    } else if (statement instanceof DescribeStatement describe) {
      return describe(describe.getTable());
    } else if (statement instanceof ExplainStatement explain) {
      return explain(explain, text);
    }
    return passThrough(text);
  }

  private StatementOutcome query(Statement statement, String text) {
    List<String> explanation = new ArrayList<>();
    String rewritten;
    try {
      rewritten = rewrite(statement, explanation);
    } catch (UnsupportedOperationException e) {
      return runWithFallbackViews(text);
    }
    ResultSet result = connection.query(rewritten);
    explanation.add("DuckDB SQL: " + rewritten);
    return StatementOutcome.rows(result, explanation);
  }

  /** Routes to a rollup where one answers, then plans and rewrites every table reference. */
  private String rewrite(Statement statement, List<String> explanation) {
    Statement target = statement;
    if (statement instanceof PlainSelect select) {
      Optional<RollupRouter.Routed> routed =
          new RollupRouter(catalog, settings, new ConstantEvaluator(connection))
              .route(select, explanation);
      if (routed.isPresent()) {
        explanation.addAll(routed.get().explanation());
        try {
          target = StatementParser.parse(routed.get().sql());
        } catch (JSQLParserException e) {
          throw new IllegalStateException("Routed SQL does not parse: " + routed.get().sql(), e);
        }
      }
    }
    QueryRewriter rewriter =
        new QueryRewriter(catalog, new PinnedTables(catalog), connection, settings);
    String rewritten = rewriter.rewrite(target);
    explanation.addAll(rewriter.explanation());
    return rewritten;
  }

  private StatementOutcome rollup(RollupStatement statement) {
    RollupRefresher refresher = new RollupRefresher(catalog, connection, message -> {});
    return switch (statement.kind()) {
      case CREATE -> {
        if (statement.conditional() && catalog.exists(statement.name())) {
          yield StatementOutcome.message("Rollup " + statement.name() + " already exists");
        }
        RollupDefinition definition =
            RollupDefinitions.define(statement, catalog, new ConstantEvaluator(connection));
        Rollup rollup = RollupStore.create(catalog, definition);
        RollupRefresher.Result result = refresher.refresh(rollup, clock.instant());
        yield StatementOutcome.message(
            "Created rollup " + statement.name() + " (" + result.rowsWritten() + " rows)");
      }
      case REFRESH -> {
        RollupRefresher.Result result =
            refresher.refresh(RollupStore.require(catalog, statement.name()), clock.instant());
        yield StatementOutcome.message(
            "Refreshed rollup "
                + statement.name()
                + ": "
                + result.rowsWritten()
                + " rows in "
                + result.windows()
                + " windows"
                + (result.rebuilt() ? " (rebuilt)" : ""));
      }
      case DROP -> {
        if (RollupStore.drop(catalog, statement.name())) {
          yield StatementOutcome.message("Dropped rollup " + statement.name());
        }
        if (statement.conditional()) {
          yield StatementOutcome.message("Rollup " + statement.name() + " does not exist");
        }
        throw new NotFoundException(
            "Cannot drop rollup " + statement.name() + ": it does not exist");
      }
    };
  }

  private StatementOutcome insert(
      Table target,
      List<net.sf.jsqlparser.schema.Column> columns,
      Select select,
      String operation) {
    LoadedTable table = catalog.require(SyntaxNames.tableName(target));
    QueryRewriter rewriter =
        new QueryRewriter(catalog, new PinnedTables(catalog), connection, settings);
    String source = rewriter.rewrite(select);
    List<String> names = insertColumns(table, columns, source);
    String aliased =
        "SELECT * FROM (" + source + ") AS __tl_insert(" + SqlText.identifiers(names) + ")";
    AppendOperation append =
        new AppendOperation(
            table,
            connection,
            List.of(
                new AppendSource.Query(
                    aliased,
                    select instanceof net.sf.jsqlparser.statement.select.Values
                        ? AppendSource.Casting.LITERALS
                        : AppendSource.Casting.LOSSLESS)),
            Optional.empty(),
            clock.instant(),
            operation,
            message -> {});
    AppendResult result = maintainAfter(append.run(), append);
    return StatementOutcome.appended(
        "Inserted " + result.rows() + " rows into " + table.name(), result, rewriter.explanation());
  }

  /** Inline maintenance after a committed INSERT; its failure is reported, the insert stands. */
  private AppendResult maintainAfter(AppendResult result, AppendOperation append) {
    if (result.outcome() != AppendResult.Outcome.COMMITTED) {
      return result;
    }
    try {
      return result.withMaintenance(
          InlineMaintenance.afterAppend(
              catalog,
              append.table(),
              connection,
              append.touchedPartitions(),
              java.util.Map.of(),
              clock.instant(),
              message -> {}),
          Optional.empty());
    } catch (RuntimeException e) {
      return result.withMaintenance(Optional.empty(), Optional.of(String.valueOf(e.getMessage())));
    }
  }

  private List<String> insertColumns(
      LoadedTable table, List<net.sf.jsqlparser.schema.Column> columns, String source) {
    if (columns != null && !columns.isEmpty()) {
      return columns.stream().map(c -> SyntaxNames.unquote(c.getColumnName())).toList();
    }
    int count = connection.rows("DESCRIBE " + source).size();
    List<String> tableColumns = table.contract().columnNames();
    if (count > tableColumns.size()) {
      throw TimelakeException.validation(
          "Cannot insert into %s: %d values per row but the table has %d columns (%s)",
          table.name(), count, tableColumns.size(), String.join(", ", tableColumns));
    }
    return tableColumns.subList(0, count);
  }

  private StatementOutcome createTable(CreateTable create, String text) {
    if (create.isUnlogged() || isTemporary(create) || create.getSelect() != null) {
      if (create.getSelect() != null && !isTemporary(create)) {
        throw TimelakeException.validation(
            "CREATE TABLE … AS SELECT is not supported for Timelake tables yet: create the table,"
                + " then INSERT INTO it … SELECT");
      }
      return passThrough(text);
    }
    TableName name = SyntaxNames.tableName(create.getTable());
    if (create.isIfNotExists() && catalog.exists(name)) {
      return StatementOutcome.message("Table " + name + " already exists");
    }
    catalog.create(DdlParser.definition(create));
    return StatementOutcome.message("Created table " + name);
  }

  private static boolean isTemporary(CreateTable create) {
    List<String> options = create.getCreateOptionsStrings();
    return options != null
        && options.stream()
            .anyMatch(o -> o.equalsIgnoreCase("TEMP") || o.equalsIgnoreCase("TEMPORARY"));
  }

  private StatementOutcome drop(Drop drop, String text) {
    if (!drop.getType().equalsIgnoreCase("TABLE")) {
      return passThrough(text);
    }
    TableName name = SyntaxNames.tableName(drop.getName());
    if (catalog.drop(name)) {
      return StatementOutcome.message("Dropped table " + name);
    }
    if (drop.isIfExists()) {
      return StatementOutcome.message("Table " + name + " does not exist");
    }
    throw new NotFoundException("Cannot drop " + name + ": it does not exist");
  }

  private StatementOutcome set(SetStatement set, String text) {
    String name = set.getName(0).toString();
    if (!name.toLowerCase(Locale.ROOT).startsWith("timelake.")) {
      return passThrough(text);
    }
    String value = TableOptions.unquote(set.getExpressions(0).get(0).toString());
    String canonical = settings.set(name, value);
    return StatementOutcome.message("SET " + name + " = " + canonical);
  }

  private StatementOutcome showTables() {
    List<List<String>> rows = new ArrayList<>();
    for (TableName name : catalog.tables()) {
      Optional<LoadedTable> table = catalog.load(name);
      String kind =
          table.map(t -> t.contract().isTimeSeries() ? "time-series" : "plain").orElse("?");
      rows.add(List.of(name.namespace(), name.name(), kind));
    }
    return values(List.of("namespace", "name", "kind"), rows);
  }

  private StatementOutcome describe(Table node) {
    LoadedTable table = catalog.require(SyntaxNames.tableName(node));
    List<List<String>> rows = new ArrayList<>();
    for (Column column : table.contract().columns()) {
      String role =
          table.contract().timeColumn().map(column.name()::equals).orElse(false)
              ? "time"
              : table.contract().seriesKey().contains(column.name())
                  ? "series key"
                  : table.contract().ingestTimeColumn().map(column.name()::equals).orElse(false)
                      ? "insertion time"
                      : "";
      rows.add(
          List.of(column.name(), column.type().sql(), column.isNullable() ? "YES" : "NO", role));
    }
    return values(List.of("column_name", "column_type", "null", "key"), rows);
  }

  private StatementOutcome explain(ExplainStatement explain, String text) {
    Statement inner = explain.getStatement();
    if (!(inner instanceof Select select)) {
      // Also DuckDB's SUMMARIZE, which the parser reads as an EXPLAIN of a table.
      return runWithFallbackViews(text);
    }
    List<String> explanation = new ArrayList<>();
    String rewritten = rewrite(select, explanation);
    List<List<String>> rows = new ArrayList<>();
    explanation.forEach(line -> rows.add(List.of("timelake", line)));
    rows.add(List.of("duckdb sql", rewritten));
    for (List<Object> row : connection.rows("EXPLAIN " + rewritten)) {
      rows.add(List.of("duckdb plan", String.valueOf(row.get(row.size() - 1))));
    }
    return values(List.of("part", "explain"), rows);
  }

  /** A small result built from literal values, through the quoting helper. */
  private StatementOutcome values(List<String> columns, List<List<String>> rows) {
    StringBuilder sql = new StringBuilder("SELECT * FROM (");
    if (rows.isEmpty()) {
      List<String> nulls = columns.stream().map(c -> "CAST(NULL AS VARCHAR)").toList();
      sql.append("SELECT ").append(String.join(", ", nulls)).append(" WHERE false");
    } else {
      List<String> tuples = new ArrayList<>();
      for (List<String> row : rows) {
        tuples.add("(" + String.join(", ", row.stream().map(SqlText::literal).toList()) + ")");
      }
      sql.append("VALUES ").append(String.join(", ", tuples));
    }
    sql.append(") AS t(").append(SqlText.identifiers(columns)).append(")");
    return StatementOutcome.rows(connection.query(sql.toString()), List.of());
  }

  private StatementOutcome runWithFallbackViews(String text) {
    fallback.refresh();
    return passThrough(text, List.of("statement not parsed; ran against per-table views"));
  }

  private StatementOutcome passThrough(String text) {
    return passThrough(text, List.of());
  }

  private StatementOutcome passThrough(String text, List<String> explanation) {
    java.sql.Statement statement = null;
    try {
      statement = connection.jdbc().createStatement();
      if (statement.execute(text)) {
        statement.closeOnCompletion();
        return StatementOutcome.rows(statement.getResultSet(), explanation);
      }
      statement.close();
      return StatementOutcome.message("OK");
    } catch (java.sql.SQLException e) {
      closeQuietly(statement, e);
      throw EngineConnection.failed(text, e);
    }
  }

  private static void closeQuietly(java.sql.Statement statement, Exception failure) {
    if (statement != null) {
      try {
        statement.close();
      } catch (java.sql.SQLException e) {
        failure.addSuppressed(e);
      }
    }
  }

  /** True when {@code sql} has {@code //} outside string literals, quoted names and comments. */
  static boolean hasIntegerDivision(String sql) {
    int i = 0;
    while (i < sql.length() - 1) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int end = sql.indexOf(c, i + 1);
        i = end < 0 ? sql.length() : end + 1;
      } else if (c == '-' && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end + 1;
      } else if (c == '/' && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 2;
      } else if (c == '/' && sql.charAt(i + 1) == '/') {
        return true;
      } else {
        i++;
      }
    }
    return false;
  }

  private static String stripTrailingSemicolon(String sql) {
    String trimmed = sql.strip();
    while (trimmed.endsWith(";")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1).strip();
    }
    return trimmed;
  }

  @Override
  public void close() {
    connection.close();
  }
}
