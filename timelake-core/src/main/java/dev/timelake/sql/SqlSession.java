package dev.timelake.sql;

import dev.timelake.AppendResult;
import dev.timelake.Column;
import dev.timelake.NotFoundException;
import dev.timelake.RollupRoute;
import dev.timelake.StatementKind;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.engine.StatementParser;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.maintain.InlineMaintenance;
import dev.timelake.read.QueryRewriter;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.RollupStatement;
import dev.timelake.route.RollupRouter;
import dev.timelake.route.RoutePlan;
import dev.timelake.route.SelectRoute;
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
  private final RollupStatements rollups;
  private Clock clock = Clock.systemUTC();
  private long newestFirstRuns;

  public SqlSession(LakeCatalog catalog) {
    this.catalog = catalog;
    CoverageFunctions.installOn(catalog);
    PostgresCatalog.installOn(catalog);
    this.connection = catalog.engine().connect();
    this.fallback = new FallbackViews(catalog, connection, settings);
    this.rollups = new RollupStatements(catalog, connection, this);
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

  /**
   * The columns {@code sql} would return, from DuckDB's prepared statement of its planned SQL (not
   * run); EXPLAIN's two columns; empty for anything else or what cannot be planned.
   */
  public Optional<List<dev.timelake.ResultColumn>> describe(String sql) {
    String text = stripTrailingSemicolon(sql);
    Statement statement;
    try {
      statement = StatementParser.parse(text);
    } catch (JSQLParserException | RuntimeException e) {
      return Optional.empty();
    }
    if (statement instanceof ExplainStatement explain && explain.getStatement() instanceof Select) {
      return Optional.of(
          List.of(
              new dev.timelake.ResultColumn("part", "VARCHAR"),
              new dev.timelake.ResultColumn("explain", "VARCHAR")));
    }
    if (!(statement instanceof Select)) {
      return Optional.empty();
    }
    try (java.sql.PreparedStatement prepared = connection.prepare(plan(statement).sql())) {
      java.sql.ResultSetMetaData metadata = prepared.getMetaData();
      List<dev.timelake.ResultColumn> columns = new ArrayList<>();
      for (int i = 1; i <= metadata.getColumnCount(); i++) {
        columns.add(
            new dev.timelake.ResultColumn(
                metadata.getColumnLabel(i), metadata.getColumnTypeName(i)));
      }
      return Optional.of(columns);
    } catch (java.sql.SQLException | TimelakeException | UnsupportedOperationException e) {
      return Optional.empty();
    }
  }

  /** Interrupts the statement running in this session, from another thread. */
  public void cancel() {
    connection.cancel();
  }

  /** Runs one statement. */
  public StatementOutcome execute(String sql) {
    String text = LatestRows.latestOn(stripTrailingSemicolon(sql));
    PostgresCatalog.refuseInternalNames(text);
    Optional<RollupStatement> rollupStatement = RollupStatement.parse(text);
    if (rollupStatement.isPresent()) {
      return rollups.run(rollupStatement.get(), clock.instant());
    }
    Optional<RollupStatement> explainedRefresh = RollupStatement.parseExplained(text);
    if (explainedRefresh.isPresent()) {
      return rollups.explain(explainedRefresh.get());
    }
    if (PostgresCatalog.mentions(text)) {
      // psql's, pgjdbc's and Grafana's catalog queries: about the tables, never through them.
      return runWithFallbackViews(PostgresCatalog.rewrite(text));
    }
    java.util.regex.Matcher optimize = OPTIMIZE.matcher(text);
    if (optimize.matches()) {
      return optimize(TableName.parse(optimize.group(1)));
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
    if (statement instanceof Select) {
      return query(statement, text);
    } else if (statement instanceof Insert insert) {
      return insert(
          insert.getTable(), insert.getColumns(), insert.getSelect(), StatementKind.INSERT);
    } else if (statement instanceof Upsert upsert) {
      return insert(
          upsert.getTable(), upsert.getColumns(), upsert.getSelect(), StatementKind.UPSERT);
    } else if (statement instanceof CreateTable create) {
      return createTable(create, text);
    } else if (statement instanceof net.sf.jsqlparser.statement.alter.Alter alter) {
      return alter(alter);
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
    // Both fast paths look up the statement's table: once is enough.
    java.util.function.Function<TableName, Optional<LoadedTable>> tables = loadedOnce();
    Optional<PlannedStatement> latest = planLatest(statement, tables);
    if (latest.isPresent()) {
      ResultSet result = connection.query(latest.get().sql());
      List<String> explanation = new ArrayList<>(latest.get().explanation());
      explanation.add("DuckDB SQL: " + latest.get().sql());
      return StatementOutcome.rows(StatementKind.QUERY, result, List.of(), explanation);
    }
    Optional<NewestFirst> newest =
        NewestFirst.of(statement, tables, connection.aggregateFunctions());
    if (newest.isPresent()) {
      Optional<StatementOutcome> outcome = newestFirst(newest.get(), text);
      if (outcome.isPresent()) {
        return outcome.get();
      }
    }
    PlannedStatement planned;
    try {
      planned = plan(statement);
    } catch (UnsupportedOperationException e) {
      return runWithFallbackViews(text);
    }
    ResultSet result = connection.query(planned.sql());
    List<String> explanation = new ArrayList<>(planned.explanation());
    explanation.add("DuckDB SQL: " + planned.sql());
    return StatementOutcome.rows(StatementKind.QUERY, result, planned.routes(), explanation);
  }

  /**
   * Runs a newest-first query bounded to ever older files until a run returns all its rows, each
   * run's rows kept in a temporary table so that they are counted without running it twice; empty
   * when no bound gives them all (the query then runs as written).
   */
  private Optional<StatementOutcome> newestFirst(NewestFirst newest, String text) {
    PinnedTable pinned = new PinnedTables(catalog).require(newest.table());
    for (long bound : newest.bounds(ScanPlanner.liveFiles(pinned))) {
      PlainSelect bounded;
      try {
        bounded = (PlainSelect) StatementParser.parse(text);
      } catch (JSQLParserException e) {
        return Optional.empty();
      }
      newest.bound(bounded, bound);
      PlannedStatement planned = plan(bounded);
      String rows = SqlText.identifier("__tl_newest_first_" + newestFirstRuns++);
      try {
        connection.execute("CREATE TEMPORARY TABLE " + rows + " AS " + planned.sql());
      } catch (TimelakeException e) {
        // E.g. two output columns of one name, which a table cannot hold: run it as written.
        return Optional.empty();
      }
      try {
        long found = ((Number) connection.scalar("SELECT count(*) FROM " + rows)).longValue();
        if (found == newest.limit()) {
          List<String> explanation = new ArrayList<>(planned.explanation());
          explanation.add(newest.describe(bound, found));
          explanation.add("DuckDB SQL: " + planned.sql());
          // DuckDB's JDBC results are materialized, so the table may go before they are read.
          return Optional.of(
              StatementOutcome.rows(
                  StatementKind.QUERY,
                  connection.query("SELECT * FROM " + rows),
                  planned.routes(),
                  explanation));
        }
      } finally {
        connection.execute("DROP TABLE IF EXISTS " + rows);
      }
    }
    return Optional.empty();
  }

  /** The catalog's table lookup, each table looked up at most once. */
  private java.util.function.Function<TableName, Optional<LoadedTable>> loadedOnce() {
    java.util.Map<TableName, Optional<LoadedTable>> loaded = new java.util.HashMap<>();
    return name -> loaded.computeIfAbsent(name, catalog::load);
  }

  /**
   * The newest row per series read from the table's last-value index, when the statement asks for
   * exactly that (see {@link LatestRows}); the index is built first if the table's current snapshot
   * has none.
   */
  private Optional<PlannedStatement> planLatest(
      Statement statement, java.util.function.Function<TableName, Optional<LoadedTable>> tables) {
    Optional<LatestRows> latest =
        LatestRows.of(statement, tables, settings, connection.aggregateFunctions());
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    PinnedTable pinned = new PinnedTables(catalog).require(latest.get().table());
    Optional<java.nio.file.Path> index = dev.timelake.read.LatestIndex.of(pinned, connection);
    if (index.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> nullCheck =
        latest.get().hasNullableArguments()
            ? latest
                .get()
                .nullCheck(
                    index.get(),
                    dev.timelake.read.LatestIndex.columnsWithNulls(
                        index.get(), pinned.table().contract().columnNames(), connection))
            : Optional.empty();
    if (nullCheck.isPresent() && ((Number) connection.scalar(nullCheck.get())).longValue() > 0) {
      // arg_max skips NULLs: some series' answer lies in older rows.
      return Optional.empty();
    }
    latest.get().readFrom(index.get());
    PlannedStatement planned = plan(statement);
    List<String> explanation = new ArrayList<>();
    explanation.add(
        "latest rows of "
            + latest.get().table()
            + ": read from its last-value index at snapshot "
            + pinned.snapshot().orElseThrow().snapshotId()
            + " ("
            + index.get().getFileName()
            + "), not from its data files");
    explanation.addAll(planned.explanation());
    return Optional.of(new PlannedStatement(planned.sql(), planned.routes(), explanation));
  }

  /** A statement ready for DuckDB: its SQL, how its SELECTs were routed, and what was done. */
  private record PlannedStatement(String sql, List<RollupRoute> routes, List<String> explanation) {}

  /**
   * Routes the statement's SELECTs to rollups where they answer, then plans every table reference
   * against the snapshot pinned for the statement, the same ones routing decided on.
   */
  private PlannedStatement plan(Statement statement) {
    PinnedTables tables = new PinnedTables(catalog);
    ConstantEvaluator constants = new ConstantEvaluator(connection);
    List<String> explanation = new ArrayList<>();
    List<RollupRoute> routes = new ArrayList<>();
    for (SelectRoute route :
        new RollupRouter(tables, settings, constants, connection).route(statement)) {
      explanation.addAll(route.decision().explanation());
      routes.add(
          new RollupRoute(
              route.table(),
              route.decision().plan().map(RoutePlan::rollups).orElse(List.of()),
              route.decision().reason()));
    }
    QueryRewriter rewriter = new QueryRewriter(catalog, tables, connection, settings, constants);
    String sql = rewriter.rewrite(statement);
    explanation.addAll(rewriter.explanation());
    return new PlannedStatement(sql, routes, explanation);
  }

  private StatementOutcome insert(
      Table target,
      List<net.sf.jsqlparser.schema.Column> columns,
      Select select,
      StatementKind kind) {
    LoadedTable table = catalog.require(SyntaxNames.tableName(target));
    PlannedStatement planned = plan(select);
    String source = planned.sql();
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
                        : AppendSource.Casting.ASSIGNMENT)),
            Optional.empty(),
            clock.instant(),
            kind == StatementKind.UPSERT ? "upsert" : "insert",
            message -> {});
    AppendResult result = maintainAfter(append.run(), append);
    return StatementOutcome.appended(
        kind,
        "Inserted " + result.rows() + " rows into " + table.name(),
        result,
        planned.explanation());
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
    // The insertion time is Timelake's, set by the append; a column list may name it.
    List<String> tableColumns =
        table.contract().columnNames().stream()
            .filter(c -> !table.contract().ingestTimeColumn().map(c::equals).orElse(false))
            .toList();
    if (count > tableColumns.size()) {
      throw TimelakeException.validation(
          "Cannot insert into %s: %d values per row but the table has %d columns (%s)%s",
          table.name(),
          count,
          tableColumns.size(),
          String.join(", ", tableColumns),
          table
              .contract()
              .ingestTimeColumn()
              .map(c -> "; to set " + c + " too, name the columns: INSERT INTO … (…, " + c + ")")
              .orElse(""));
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
      return StatementOutcome.message(
          StatementKind.CREATE_TABLE, "Table " + name + " already exists");
    }
    catalog.create(DdlParser.definition(create));
    return StatementOutcome.message(StatementKind.CREATE_TABLE, "Created table " + name);
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
      return StatementOutcome.message(StatementKind.DROP_TABLE, "Dropped table " + name);
    }
    if (drop.isIfExists()) {
      return StatementOutcome.message(
          StatementKind.DROP_TABLE, "Table " + name + " does not exist");
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
    return StatementOutcome.message(StatementKind.SET, "SET " + name + " = " + canonical);
  }

  private StatementOutcome showTables() {
    List<List<String>> rows = new ArrayList<>();
    for (TableName name : catalog.tables()) {
      Optional<LoadedTable> table = catalog.load(name);
      String kind =
          table.map(t -> t.contract().isTimeSeries() ? "time-series" : "plain").orElse("?");
      rows.add(List.of(name.namespace(), name.name(), kind));
    }
    return values(StatementKind.SHOW, List.of("namespace", "name", "kind"), rows);
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
    return values(
        StatementKind.DESCRIBE, List.of("column_name", "column_type", "null", "key"), rows);
  }

  private StatementOutcome explain(ExplainStatement explain, String text) {
    Statement inner = explain.getStatement();
    if (!(inner instanceof Select select)) {
      // Also DuckDB's SUMMARIZE, which the parser reads as an EXPLAIN of a table.
      return runWithFallbackViews(text);
    }
    // Before planning, which replaces the table nodes by their reads.
    java.util.function.Function<TableName, Optional<LoadedTable>> tables = loadedOnce();
    Optional<NewestFirst> newest = NewestFirst.of(select, tables, connection.aggregateFunctions());
    PlannedStatement planned = planLatest(select, tables).orElseGet(() -> plan(select));
    List<List<String>> rows = new ArrayList<>();
    planned.explanation().forEach(line -> rows.add(List.of("timelake", line)));
    newest.ifPresent(
        shape ->
            rows.add(
                List.of(
                    "timelake",
                    shape.explain(
                        ScanPlanner.liveFiles(new PinnedTables(catalog).require(shape.table()))))));
    rows.add(List.of("duckdb sql", planned.sql()));
    for (List<Object> row : connection.rows("EXPLAIN " + planned.sql())) {
      rows.add(List.of("duckdb plan", String.valueOf(row.get(row.size() - 1))));
    }
    StatementOutcome outcome = values(StatementKind.EXPLAIN, List.of("part", "explain"), rows);
    return new StatementOutcome(
        outcome.kind(),
        outcome.resultSet(),
        outcome.message(),
        outcome.rowCount(),
        outcome.append(),
        planned.routes(),
        outcome.explanation());
  }

  /**
   * {@code ALTER TABLE t ADD [COLUMN] name TYPE [, ADD …]}: the only change of a table's schema.
   */
  private StatementOutcome alter(net.sf.jsqlparser.statement.alter.Alter alter) {
    TableName name = SyntaxNames.tableName(alter.getTable());
    catalog.require(name);
    List<Column> added = DdlParser.addedColumns(name, alter);
    catalog.addColumns(name, added);
    return StatementOutcome.message(
        StatementKind.ALTER_TABLE,
        "Altered table "
            + name
            + ": added "
            + String.join(", ", added.stream().map(c -> c.name() + " " + c.type()).toList()));
  }

  /** A small result built from literal values, through the quoting helper. */
  /** {@code OPTIMIZE [TABLE] name}: Timelake's entity-layout optimization. */
  private static final java.util.regex.Pattern OPTIMIZE =
      java.util.regex.Pattern.compile(
          "(?is)\\s*OPTIMIZE\\s+(?:TABLE\\s+)?([A-Za-z_][\\w]*(?:\\.[A-Za-z_][\\w]*)?)\\s*");

  private StatementOutcome optimize(TableName name) {
    dev.timelake.OptimizeReport report =
        new dev.timelake.maintain.EntityLayoutOptimizer(catalog.require(name), connection, m -> {})
            .run();
    List<String> columns = new ArrayList<>();
    List<String> row = new ArrayList<>();
    for (String line : report.render().split("\n")) {
      int colon = line.indexOf(": ");
      columns.add(line.substring(0, colon));
      row.add(line.substring(colon + 2));
    }
    return values(StatementKind.OPTIMIZE, columns, List.of(row));
  }

  StatementOutcome values(StatementKind kind, List<String> columns, List<List<String>> rows) {
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
    return StatementOutcome.rows(kind, connection.query(sql.toString()), List.of(), List.of());
  }

  private StatementOutcome runWithFallbackViews(String text) {
    fallback.refresh();
    return passThrough(text, List.of(FallbackViews.EXPLANATION));
  }

  private StatementOutcome passThrough(String text) {
    return passThrough(text, List.of());
  }

  private StatementOutcome passThrough(String text, List<String> explanation) {
    java.sql.Statement statement = null;
    connection.defineFunctionsFor(text);
    try {
      statement = connection.jdbc().createStatement();
      boolean rows = statement.execute(text);
      if (!rows && text.toLowerCase(Locale.ROOT).contains("timezone")) {
        connection.readTimeZone();
      }
      if (rows) {
        statement.closeOnCompletion();
        return StatementOutcome.rows(
            StatementKind.OTHER, statement.getResultSet(), List.of(), explanation);
      }
      statement.close();
      return StatementOutcome.message(StatementKind.OTHER, "OK");
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
    try {
      fallback.close();
    } catch (RuntimeException e) {
      // The connection closes anyway; its database then goes with the engine.
    } finally {
      connection.close();
    }
  }
}
