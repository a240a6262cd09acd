package dev.timelake.sql;

import dev.timelake.AppendResult;
import dev.timelake.Column;
import dev.timelake.NotFoundException;
import dev.timelake.QueryPlan;
import dev.timelake.Role;
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
import dev.timelake.fill.GapFill;
import dev.timelake.maintain.InlineMaintenance;
import dev.timelake.read.QueryRewriter;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.RollupStatement;
import dev.timelake.rollup.TableDrops;
import dev.timelake.route.RollupRouter;
import dev.timelake.route.RoutePlan;
import dev.timelake.route.SelectRoute;
import dev.timelake.table.SessionSettings;
import dev.timelake.table.TableOptions;
import dev.timelake.write.AppendSource;
import dev.timelake.write.PendingAppend;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

  /**
   * The client's connection: it runs the client's statements (and whatever transaction the client
   * opened on it), nothing of Timelake's own work.
   */
  private final EngineConnection client;

  /**
   * The connection Timelake's own work runs on: staging, file writes, commits, inline maintenance,
   * refresh, optimization, last-value indexes. Never inside a transaction, so that work commits
   * what it read; started at its first use.
   */
  private EngineConnection work;

  private final ClientTransaction transaction = new ClientTransaction();

  /** {@code SET statement_timeout}: statements running longer are cancelled; zero: no limit. */
  private java.time.Duration statementTimeout = java.time.Duration.ZERO;

  /** A server client's user and role; empty for the local user, who has DuckDB's full power. */
  private final Optional<dev.timelake.ClientAccess> access;

  private final ClientStatementPolicy policy;
  private final SessionSettings settings = new SessionSettings();
  private final PreparedStatements prepared = new PreparedStatements();
  private final Views views;
  private final FallbackViews fallback;
  private final RollupStatements rollups;
  private Clock clock = Clock.systemUTC();

  /** Where INSERTs of constants outside a transaction go, when the session has a tier. */
  private Optional<dev.timelake.HeldWrites> heldWrites = Optional.empty();

  /** The files this session made of what its tier holds, while it holds the same rows. */
  private final TierReads.Cache tierFileCache = new TierReads.Cache();

  /** What the tier holds of the tables the running query reads; empty between queries. */
  private Optional<TierReads> tierReads = Optional.empty();

  private long newestFirstRuns;

  /** A session of the local user, with the full power of DuckDB. */
  public SqlSession(LakeCatalog catalog) {
    this(catalog, Optional.empty());
  }

  /**
   * A session for {@code access}, a server client's user (see {@link ClientStatementPolicy}), or
   * for the local user when empty.
   */
  public SqlSession(LakeCatalog catalog, Optional<dev.timelake.ClientAccess> access) {
    this.catalog = catalog;
    this.access = access;
    this.views = new Views(catalog);
    CoverageFunctions.installOn(catalog);
    PostgresCatalog.installOn(catalog);
    this.client = catalog.engine().connect();
    this.policy = new ClientStatementPolicy(client, catalog);
    this.fallback =
        new FallbackViews(
            catalog,
            client,
            settings,
            name -> access.map(a -> a.reaches(name.namespace())).orElse(true));
    this.rollups = new RollupStatements(catalog, this::work, this);
    client.execute(
        "CREATE OR REPLACE TEMPORARY MACRO date_bin(stride, source, origin := TIMESTAMPTZ"
            + " '1970-01-01 00:00:00+00') AS time_bucket(stride, source, origin)");
  }

  /** The session's settings. */
  public SessionSettings settings() {
    return settings;
  }

  /** Sends INSERTs of constants outside a transaction to {@code tier} (see {@link #insert}). */
  public void holdWritesIn(dev.timelake.HeldWrites tier) {
    this.heldWrites = Optional.of(tier);
  }

  /**
   * Whether a statement of this kind may read the lake's tables, so that the tier must commit what
   * it holds first: not a client setting, a Timelake setting, PREPARE or DEALLOCATE (an EXECUTE is
   * decided by the statement it runs) or a catalog query (about tables, not through them; what
   * drivers and Grafana send on every connection). SQL is decided once parsed: an INSERT may be
   * held rather than read anything.
   */
  private static boolean readsTables(ClassifiedStatement classified) {
    return !(classified instanceof ClassifiedStatement.Sql
        || classified instanceof ClassifiedStatement.PostgresSetting
        || classified instanceof ClassifiedStatement.TimelakeSetting
        || classified instanceof ClassifiedStatement.Prepared
        || classified instanceof ClassifiedStatement.CatalogQuery);
  }

  /**
   * Has the session's tier commit what it holds of every table {@code text} may name (each name or
   * pair of names joined by a dot among its tokens; a tier holds few tables, and a name it does not
   * hold costs a lookup): a catalog query reads the catalog, but one that also reads a lake table
   * reads what was answered.
   */
  private void commitHeldNamedIn(String text) {
    if (heldWrites.isEmpty()) {
      return;
    }
    List<dev.timelake.engine.SqlLexer.Token> tokens =
        dev.timelake.engine.SqlLexer.tokens(text).tokens();
    for (int i = 0; i < tokens.size(); i++) {
      if (!isName(tokens.get(i))) {
        continue;
      }
      String first = SyntaxNames.unquote(tokens.get(i).text());
      boolean dotted =
          i + 2 < tokens.size()
              && tokens.get(i + 1).text().equals(".")
              && isName(tokens.get(i + 2));
      try {
        heldWrites
            .get()
            .commitHeld(
                dotted
                    ? new TableName(first, SyntaxNames.unquote(tokens.get(i + 2).text()))
                    : new TableName(TableName.DEFAULT_NAMESPACE, first));
      } catch (dev.timelake.ValidationException | IllegalArgumentException e) {
        // not a name a table can have
      }
    }
  }

  private static boolean isName(dev.timelake.engine.SqlLexer.Token token) {
    return token.kind() == dev.timelake.engine.SqlLexer.Kind.WORD
        || token.kind() == dev.timelake.engine.SqlLexer.Kind.QUOTED_IDENTIFIER;
  }

  /** Has the session's tier commit what it holds, so that the statement about to run reads it. */
  private void commitHeld() {
    heldWrites.ifPresent(dev.timelake.HeldWrites::commitHeld);
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
    Statement statement;
    try {
      if (!(ClassifiedStatement.of(sql) instanceof ClassifiedStatement.Sql classified)) {
        return Optional.empty();
      }
      statement = parsed(classified);
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
    try {
      expandViews(statement);
    } catch (TimelakeException e) {
      return Optional.empty(); // running it says what is wrong
    }
    try (java.sql.PreparedStatement prepared = client.prepare(plan(statement).sql())) {
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

  /**
   * Interrupts the statement running in this session, from another thread: the client's query and
   * Timelake's work for it (an INSERT's staging and file writes), so a cancelled write commits
   * nothing unless its commit had begun.
   */
  public void cancel() {
    client.cancel();
    EngineConnection running = work;
    if (running != null) {
      running.cancel();
    }
  }

  /** Where the session stands with respect to a transaction the client opened. */
  public dev.timelake.TransactionState transactionState() {
    return transaction.state();
  }

  /**
   * Runs one statement. Inside a transaction a failed statement fails the transaction: every later
   * statement but ROLLBACK is refused and nothing of it commits.
   */
  public StatementOutcome execute(String sql) {
    if (access.isPresent()) {
      ClientStatementPolicy.requireOneStatement(sql);
    }
    ClassifiedStatement statement;
    try {
      statement = ClassifiedStatement.of(sql);
    } catch (RuntimeException e) {
      transaction.fail();
      throw e;
    }
    if (statement instanceof ClassifiedStatement.Transaction control) {
      return transactionControl(control.control());
    }
    transaction.requireNotFailed();
    try {
      return statementTimeout.isZero() ? run(statement) : runWithTimeout(statement);
    } catch (RuntimeException e) {
      transaction.fail();
      throw e;
    }
  }

  private void statementTimeout(java.time.Duration timeout) {
    this.statementTimeout = timeout;
  }

  /** Runs {@code sql}, cancelled (and failed, committing nothing) past the statement timeout. */
  private StatementOutcome runWithTimeout(ClassifiedStatement statement) {
    java.util.concurrent.atomic.AtomicBoolean expired =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.ScheduledFuture<?> alarm =
        PostgresSettings.TIMER.schedule(
            () -> {
              expired.set(true);
              cancel();
            },
            statementTimeout.toMillis(),
            java.util.concurrent.TimeUnit.MILLISECONDS);
    try {
      return run(statement);
    } catch (TimelakeException e) {
      if (expired.get()) {
        throw new dev.timelake.QueryFailedException(
            "INTERRUPT Error: the statement ran longer than the session's statement_timeout of "
                + statementTimeout.toMillis()
                + " ms and was cancelled; nothing of it was committed",
            e);
      }
      throw e;
    } finally {
      alarm.cancel(false);
    }
  }

  private StatementOutcome transactionControl(TransactionControl control) {
    return switch (control) {
      case BEGIN -> begin();
      case COMMIT -> commit();
      case ROLLBACK -> rollback(StatementKind.ROLLBACK, "ROLLBACK");
      case UNSUPPORTED -> {
        transaction.fail();
        throw TimelakeException.validation(
            "Cannot run the statement: savepoints and two-phase commit are not supported; a"
                + " transaction ends with COMMIT or ROLLBACK as a whole");
      }
    };
  }

  private StatementOutcome begin() {
    transaction.requireNotFailed();
    if (transaction.isOpen()) {
      return StatementOutcome.message(StatementKind.BEGIN, "BEGIN")
          .withWarning("there is already a transaction in progress");
    }
    client.execute("BEGIN TRANSACTION");
    transaction.begin(settings.values());
    return StatementOutcome.message(StatementKind.BEGIN, "BEGIN");
  }

  /**
   * COMMIT: the client's own DuckDB transaction first (if it cannot commit, nothing of the lake's
   * does), then every table's held writes, table by table, then their inline maintenance on
   * Timelake's connection. A failed transaction rolls back instead, as in PostgreSQL.
   */
  private StatementOutcome commit() {
    switch (transaction.state()) {
      case IDLE -> {
        try {
          // A statement the client sent may have opened one on its connection.
          client.execute("COMMIT");
        } catch (dev.timelake.QueryFailedException e) {
          // None was open, as Timelake knew.
        }
        return StatementOutcome.message(StatementKind.COMMIT, "COMMIT")
            .withWarning("there is no transaction in progress");
      }
      case FAILED -> {
        return rollback(
            StatementKind.ROLLBACK,
            "ROLLBACK: the transaction had failed, so nothing of it was committed");
      }
      case OPEN -> {
        // handled below
      }
    }
    try {
      client.execute("COMMIT");
    } catch (RuntimeException e) {
      rollback(StatementKind.ROLLBACK, "ROLLBACK");
      throw e;
    }
    java.time.Instant now = clock.instant();
    List<ClientTransaction.Committed> committed = transaction.commit(writer(), message -> {});
    List<String> parts = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    for (ClientTransaction.Committed table : committed) {
      parts.add(rows(table.result().rows()) + " into " + table.table());
      StatementOutcome maintained =
          maintainAfter(
              StatementOutcome.appended(StatementKind.COMMIT, "", table.result(), List.of()),
              table.table(),
              table.touchedPartitions(),
              now);
      warnings.addAll(maintained.warnings());
    }
    StatementOutcome outcome =
        StatementOutcome.message(
            StatementKind.COMMIT,
            parts.isEmpty() ? "COMMIT" : "COMMIT: " + String.join(", ", parts));
    for (String warning : warnings) {
      outcome = outcome.withWarning(warning);
    }
    return outcome;
  }

  /**
   * Ends the transaction discarding its held writes, the client's DuckDB transaction and the
   * settings it changed. The views this session keeps on the client's connection may have been
   * created inside it and are gone with it: they are made again when next needed.
   */
  private StatementOutcome rollback(StatementKind kind, String message) {
    boolean open = transaction.state() != dev.timelake.TransactionState.IDLE;
    Map<String, String> before = transaction.settingsAtBegin();
    try {
      transaction.end();
    } finally {
      try {
        // Also when Timelake saw no BEGIN: a statement the client sent may have opened one.
        client.execute("ROLLBACK");
      } catch (dev.timelake.QueryFailedException e) {
        if (open) {
          throw e;
        }
      } finally {
        fallback.forget();
      }
    }
    if (!open) {
      return StatementOutcome.message(kind, message)
          .withWarning("there is no transaction in progress");
    }
    for (String name : settings.values().keySet()) {
      if (!before.containsKey(name)) {
        settings.reset(name);
      }
    }
    before.forEach(settings::set);
    return StatementOutcome.message(kind, message);
  }

  /**
   * Appends a CSV file to {@code name} as part of this session: committed now, held until COMMIT
   * inside a transaction, or held in the session's tier once checked (what a server's COPY … FROM
   * STDIN does).
   */
  public StatementOutcome copyFrom(TableName name, dev.timelake.CsvInput csv) {
    transaction.requireNotFailed();
    try {
      LoadedTable table = catalog.require(name);
      TableDrops.refuseAppendTo(table, "COPY into");
      require(Role.WRITE, name, "COPY " + name + " FROM STDIN");
      java.time.Instant now = clock.instant();
      if (transaction.isOpen()) {
        PendingAppend pending = transaction.pendingFor(table, "append", this::work);
        long added = pending.add(new AppendSource.CsvFile(csv), now);
        pending.checkIndexIntervals();
        return StatementOutcome.wrote(
            StatementKind.INSERT,
            "Copied " + rows(added) + " into " + name + ", held until COMMIT",
            added,
            List.of());
      }
      AppendResult result;
      java.util.Set<Integer> touched;
      try (PendingAppend pending = new PendingAppend(table, work())) {
        pending.add(new AppendSource.CsvFile(csv), now);
        Optional<StatementOutcome> held = holdCopied(table, pending);
        if (held.isPresent()) {
          return held.get();
        }
        result = pending.commit("append", Optional.empty(), writer(), message -> {});
        touched = pending.touchedPartitions();
      }
      return maintainAfter(
          StatementOutcome.appended(
              StatementKind.INSERT,
              "Copied " + rows(result.rows()) + " into " + name + copies(result),
              result,
              List.of()),
          name,
          touched,
          now);
    } catch (RuntimeException e) {
      transaction.fail();
      throw e;
    }
  }

  /** True when {@code table} names a temporary table of the client's connection, not a lake's. */
  private boolean isClientTable(Table table) {
    String name =
        table.getSchemaName() == null
            ? table.getName()
            : table.getSchemaName() + "." + table.getName();
    return policy.isTemporary("TABLE", SyntaxNames.unquote(name).toLowerCase(Locale.ROOT))
        && !catalog.exists(SyntaxNames.tableName(table));
  }

  /**
   * Refuses what needs {@code role} on {@code table} when the session's user lacks it; the local
   * user may do everything.
   */
  private void require(Role role, TableName table, String what) {
    access.ifPresent(a -> a.require(role, table.namespace(), what));
  }

  /** "1 row", "3 rows". */
  private static String rows(long count) {
    return count + (count == 1 ? " row" : " rows");
  }

  /** How many copies of a key the append kept once, when it kept any so. */
  private static String copies(AppendResult result) {
    return copies(result.copiesDropped());
  }

  /** " (2 copies of a key kept once)", or nothing for none. */
  private static String copies(long dropped) {
    return dropped == 0
        ? ""
        : " (" + dropped + (dropped == 1 ? " copy" : " copies") + " of a key kept once)";
  }

  /** Timelake's own connection, started at its first use. */
  private EngineConnection work() {
    if (work == null) {
      work = catalog.engine().connect();
    }
    return work;
  }

  /**
   * Runs a statement by its kind, as the front door ({@link ClassifiedStatement}) sorted it: one
   * handler per kind, and JSqlParser's tree for the rest.
   */
  private StatementOutcome run(ClassifiedStatement classified) {
    String text = classified.text();
    PostgresCatalog.refuseInternalNames(text);
    if (readsTables(classified)) {
      commitHeld();
    } else if (classified instanceof ClassifiedStatement.CatalogQuery) {
      commitHeldNamedIn(text);
    }
    if (classified instanceof ClassifiedStatement.Transaction control) {
      // A prepared BEGIN or COMMIT, run by EXECUTE: the session's, never DuckDB's.
      return transactionControl(control.control());
    } else if (classified instanceof ClassifiedStatement.PostgresSetting setting) {
      return PostgresSettings.apply(setting.tokens(), this::statementTimeout);
    } else if (classified instanceof ClassifiedStatement.Prepared command) {
      return prepared(command.command());
    } else if (classified instanceof ClassifiedStatement.Rollup rollup) {
      return rollup(rollup.statement());
    } else if (classified instanceof ClassifiedStatement.ExplainRefresh refresh) {
      return rollups.explain(refresh.statement());
    } else if (classified instanceof ClassifiedStatement.CatalogQuery) {
      // psql's, pgjdbc's and Grafana's catalog queries: about the tables, never through them.
      return runWithFallbackViews(PostgresCatalog.rewrite(text));
    } else if (classified instanceof ClassifiedStatement.TimelakeSetting setting) {
      return timelakeSetting(setting);
    } else if (classified instanceof ClassifiedStatement.Optimize optimize) {
      require(Role.ADMIN, optimize.table(), "OPTIMIZE " + optimize.table());
      transaction.refuseInside("OPTIMIZE " + optimize.table());
      return optimize(optimize.table());
    } else if (classified instanceof ClassifiedStatement.ViewCreation view
        && isLakeView(view.view())) {
      return createView(view.view());
    } else if (classified instanceof ClassifiedStatement.TableCreationAs creation) {
      return createTableAs(creation.creation());
    } else if (classified instanceof ClassifiedStatement.Rollback rollback) {
      return rollback(rollback.call());
    } else if (classified instanceof ClassifiedStatement.SchemaAlteration alteration
        && catalog.exists(alteration.change().table())) {
      return alter(alteration.change());
    } else if (classified instanceof ClassifiedStatement.Sql sql && sql.asksTimelakeSetting()) {
      return run(ClassifiedStatement.of(withTimelakeSettingsAnswered(sql)));
    } else if (classified instanceof ClassifiedStatement.Sql sql && sql.integerDivision()) {
      // JSqlParser reads DuckDB's // (integer division) as the start of a line comment. An INSERT,
      // DELETE or UPDATE of a lake table is parsed with it spelled DIV (printed with // again);
      // anything else runs as written against the per-table views.
      commitHeld();
      Optional<StatementOutcome> inserted = insertWithIntegerDivision(text);
      return inserted.isPresent() ? inserted.get() : runWithFallbackViews(text);
    }
    if (heldWrites.isPresent() && !transaction.isOpen()) {
      // A driver's one-row INSERT: read from its tokens, as JSqlParser's parse costs more.
      Optional<ConstantInsert> constant = ConstantInsert.read(text);
      if (constant.isPresent() && !isClientTable(constant.get().table())) {
        return insert(
            constant.get().table(),
            constant.get().columns(),
            constant.get().values(),
            StatementKind.INSERT);
      }
    }
    Statement statement;
    try {
      statement = StatementParser.parse(text);
    } catch (JSQLParserException | RuntimeException e) {
      refuseUnreadableCreateTable(text, e);
      commitHeld();
      return runWithFallbackViews(text);
    }
    if (!(statement instanceof Insert
        || statement instanceof SetStatement
        || statement instanceof Select
        || (statement instanceof ExplainStatement explain
            && explain.getStatement() instanceof Select))) {
      // An INSERT may be held rather than read anything; a SET reads nothing; a query (and its
      // EXPLAIN) reads what is held of each table it reads as it pins it (see TierReads).
      commitHeld();
    }
    return run(statement, text);
  }

  /** PREPARE and DEALLOCATE change the session's statements; EXECUTE runs one. */
  private StatementOutcome prepared(PreparedStatements.Command command) {
    Optional<String> bound = prepared.apply(command);
    if (bound.isPresent()) {
      return run(ClassifiedStatement.of(bound.get()));
    }
    return StatementOutcome.message(
        StatementKind.OTHER,
        command instanceof PreparedStatements.Prepare ? "PREPARE" : "DEALLOCATE");
  }

  private StatementOutcome rollup(RollupStatement statement) {
    String what = statement.kind() + " MATERIALIZED ROLLUP " + statement.name();
    require(Role.ADMIN, statement.name(), what);
    transaction.refuseInside(what);
    return rollups.run(statement, clock.instant());
  }

  /** The statements JSqlParser reads, by the type of their tree. */
  private StatementOutcome run(Statement statement, String text) {
    if (statement instanceof Select) {
      return query(statement, text);
    } else if (statement instanceof Insert insert && isClientTable(insert.getTable())) {
      return passThrough(text);
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
    } else if (statement instanceof net.sf.jsqlparser.statement.update.Update update
        && catalog.exists(SyntaxNames.tableName(update.getTable()))) {
      return update(update);
    } else if (statement instanceof net.sf.jsqlparser.statement.delete.Delete delete
        && catalog.exists(SyntaxNames.tableName(delete.getTable()))) {
      return delete(delete);
    } else if (statement instanceof net.sf.jsqlparser.statement.truncate.Truncate truncate
        && catalog.exists(SyntaxNames.tableName(truncate.getTable()))) {
      return truncate(SyntaxNames.tableName(truncate.getTable()));
    } else if (statement instanceof net.sf.jsqlparser.statement.create.index.CreateIndex index) {
      throw TimelakeException.validation(
          "Cannot CREATE INDEX on %s: a Timelake table is kept ordered by its series key and time,"
              + " which is its index, and pruned by both; it takes no other index",
          SyntaxNames.tableName(index.getTable()));
    }
    return passThrough(text);
  }

  private StatementOutcome query(Statement statement, String text) {
    refuseFileReads(text);
    // One pinned snapshot per table for the whole statement: the view expansion, the fast paths'
    // checks and the plan read the same one, and each table is looked up in the catalog once.
    return readingTier(tables -> query(statement, text, tables));
  }

  /**
   * Runs {@code statement} with the tables it pins, each read with what the session's tier holds of
   * it (see {@link TierReads}).
   */
  private <T> T readingTier(java.util.function.Function<PinnedTables, T> statement) {
    try (TierReads reads =
        new TierReads(
            heldWrites,
            tierFileCache,
            catalog,
            contract -> settings.isEnabled(dev.timelake.table.Settings.READ_DEDUP, contract),
            work(),
            catalog.tempDirectory())) {
      tierReads = Optional.of(reads);
      return statement.apply(new PinnedTables(catalog, reads::beforePinning, reads::afterPinning));
    } finally {
      tierReads = Optional.empty();
    }
  }

  /** The rows of {@code table} the session's tier holds that the statement reads, as files. */
  private List<dev.timelake.read.PlannedFile> tierFiles(TableName table) {
    return tierReads.map(reads -> reads.files(table)).orElse(List.of());
  }

  /** True when the statement reads rows of {@code table} the tier holds (no fast path does). */
  private boolean readsTier(TableName table) {
    return tierReads.map(reads -> reads.reads(table)).orElse(false);
  }

  private StatementOutcome query(Statement statement, String text, PinnedTables tables) {
    expandViews(statement, tables);
    if (transaction.holdsRows() || readsEarlierSnapshot(statement)) {
      // The fast paths read the current committed data only (indexes, bounds, rollups): the
      // transaction's reads take the plain path, which adds the rows it holds, and so do reads of
      // an earlier snapshot.
      PlannedStatement planned = plan(statement, tables);
      return StatementOutcome.query(client.query(planned.sql()), planned.plan());
    }
    Optional<PlannedStatement> latest = planLatest(statement, tables);
    if (latest.isPresent()) {
      return StatementOutcome.query(client.query(latest.get().sql()), latest.get().plan());
    }
    Optional<NewestFirst> newest =
        NewestFirst.of(statement, lookup(tables), client.aggregateFunctions());
    if (newest.isPresent()) {
      Optional<StatementOutcome> outcome =
          newestFirst(newest.get(), (PlainSelect) statement, tables);
      if (outcome.isPresent()) {
        return outcome.get();
      }
    }
    PlannedStatement planned;
    try {
      planned = plan(statement, tables);
    } catch (UnsupportedOperationException e) {
      commitHeld(); // the per-table views read every table's current snapshot
      return runWithFallbackViews(text);
    }
    return StatementOutcome.query(client.query(planned.sql()), planned.plan());
  }

  /**
   * Runs a newest-first query bounded to ever older files until a run returns all its rows, each
   * run's rows kept in a temporary table so that they are counted without running it twice; empty
   * when no bound gives them all (the query then runs as written).
   */
  private Optional<StatementOutcome> newestFirst(
      NewestFirst newest, PlainSelect select, PinnedTables tables) {
    PinnedTable pinned = tables.require(newest.table());
    if (readsTier(pinned.name())) {
      return Optional.empty(); // the bounds are the committed files'
    }
    // Each bound is planned on the statement's own tree, its WHERE put back after: planning a
    // newest-first shape changes nothing else a later plan reads (it is never routed; a table
    // reference keeps the alias it was given, a time bucket its integer arithmetic).
    net.sf.jsqlparser.expression.Expression where = select.getWhere();
    for (long bound : newest.bounds(ScanPlanner.liveFiles(pinned))) {
      PlannedStatement planned;
      try {
        newest.bound(select, bound);
        planned = plan(select, tables);
      } finally {
        select.setWhere(where);
      }
      String rows = SqlText.identifier("__tl_newest_first_" + newestFirstRuns++);
      try {
        client.execute("CREATE TEMPORARY TABLE " + rows + " AS " + planned.sql());
      } catch (TimelakeException e) {
        // E.g. two output columns of one name, which a table cannot hold: run it as written.
        return Optional.empty();
      }
      try {
        long found = ((Number) client.scalar("SELECT count(*) FROM " + rows)).longValue();
        if (found == newest.limit()) {
          // DuckDB's JDBC results are materialized, so the table may go before they are read.
          return Optional.of(
              StatementOutcome.query(
                  client.query("SELECT * FROM " + rows),
                  planned.plan().withNewestFirst(newest.bound(bound))));
        }
      } finally {
        client.execute("DROP TABLE IF EXISTS " + rows);
      }
    }
    return Optional.empty();
  }

  /** The statement's tables as the fast paths look them up: as pinned for the statement. */
  private static java.util.function.Function<TableName, Optional<LoadedTable>> lookup(
      PinnedTables tables) {
    return name -> tables.find(name).map(PinnedTable::table);
  }

  /**
   * The newest row per series read from the table's last-value index, when the statement asks for
   * exactly that (see {@link LatestRows}); the index is built first if the table's current snapshot
   * has none.
   */
  private Optional<PlannedStatement> planLatest(Statement statement, PinnedTables tables) {
    Optional<LatestRows> latest =
        LatestRows.of(statement, lookup(tables), settings, client.aggregateFunctions());
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    PinnedTable pinned = tables.require(latest.get().table());
    if (readsTier(pinned.name())) {
      return Optional.empty(); // the index holds committed rows only
    }
    Optional<java.nio.file.Path> index = dev.timelake.read.LatestIndex.of(pinned, work());
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
                        index.get(), pinned.table().contract().columnNames(), work()))
            : Optional.empty();
    if (nullCheck.isPresent() && ((Number) work().scalar(nullCheck.get())).longValue() > 0) {
      // arg_max skips NULLs: some series' answer lies in older rows.
      return Optional.empty();
    }
    latest.get().readFrom(index.get());
    PlannedStatement planned = plan(statement, tables);
    return Optional.of(
        planned.with(
            planned
                .plan()
                .withLatestIndex(
                    new QueryPlan.IndexRead(
                        latest.get().table(),
                        pinned.snapshot().orElseThrow().snapshotId(),
                        index.get().getFileName().toString()))));
  }

  /** A statement ready for DuckDB: its SQL, how its SELECTs were routed, and what was done. */
  private record PlannedStatement(QueryPlan plan, PinnedTables tables) {
    String sql() {
      return plan.sql();
    }

    List<RollupRoute> routes() {
      return plan.routes();
    }

    List<String> explanation() {
      return plan.explanation();
    }

    PlannedStatement with(QueryPlan changed) {
      return new PlannedStatement(changed, tables);
    }
  }

  /**
   * Routes the statement's SELECTs to rollups where they answer, then plans every table reference
   * against the snapshot pinned for the statement, the same ones routing decided on.
   */
  private PlannedStatement plan(Statement statement) {
    return plan(statement, new PinnedTables(catalog));
  }

  /** Like {@link #plan(Statement)}, reading the snapshots {@code tables} pinned so far. */
  private PlannedStatement plan(Statement statement, PinnedTables tables) {
    // Views are expanded by the caller, once, before any fast path looks at the statement.
    ConstantEvaluator constants = new ConstantEvaluator(client);
    List<String> explanation = new ArrayList<>();
    List<RollupRoute> routes = new ArrayList<>();
    List<SelectRoute> selectRoutes =
        transaction.holdsRows() || readsEarlierSnapshot(statement)
            ? List.of() // rollups reflect the current committed rows only
            : new RollupRouter(tables, settings, constants, client)
                .withHeldRows(this::tierFiles)
                .route(statement);
    for (SelectRoute route : selectRoutes) {
      explanation.addAll(route.decision().explanation());
      routes.add(
          new RollupRoute(
              route.table(),
              route.decision().plan().map(RoutePlan::rollups).orElse(List.of()),
              route.decision().reason(),
              route.decision().plan().map(RoutePlan::spans).orElse(List.of())));
    }
    QueryRewriter rewriter =
        new QueryRewriter(catalog, tables, client, settings, constants)
            .withHeldRows(
                name -> {
                  List<dev.timelake.read.PlannedFile> held =
                      new ArrayList<>(transaction.heldRows(name, catalog.tempDirectory()));
                  held.addAll(tierFiles(name));
                  return held;
                });
    String sql = rewriter.rewrite(statement);
    for (TableName read : tables.names()) {
      require(Role.READ, read, "read " + read);
    }
    return new PlannedStatement(
        new QueryPlan(
            rewriter.reads(), routes, explanation, Optional.empty(), Optional.empty(), sql),
        tables);
  }

  private StatementOutcome insert(
      Table target,
      List<net.sf.jsqlparser.schema.Column> columns,
      Select select,
      StatementKind kind) {
    LoadedTable table = catalog.require(SyntaxNames.tableName(target));
    TableDrops.refuseAppendTo(table, "INSERT INTO");
    boolean upsertByPolicy =
        kind == StatementKind.INSERT
            && "upsert"
                .equals(
                    table
                        .contract()
                        .setting(dev.timelake.table.Settings.WRITE_POLICY)
                        .orElse("append"));
    if (upsertByPolicy) {
      kind = StatementKind.UPSERT; // the table's writes are corrections
    }
    String asUpserts = upsertByPolicy ? " as upserts (the table's write-policy)" : "";
    if (access.isPresent() && !access.get().namespaces().isEmpty()) {
      refuseFileReads(dev.timelake.read.FunctionCalls.rewrite(select, call -> {}));
    }
    require(
        Role.WRITE,
        table.name(),
        (kind == StatementKind.UPSERT ? "INSERT OR REPLACE INTO " : "INSERT INTO ") + table.name());
    if (kind == StatementKind.INSERT && !transaction.isOpen()) {
      Optional<StatementOutcome> held = held(table, columns, select);
      if (held.isPresent()) {
        return held.get();
      }
    }
    commitHeld(); // the rows may read the lake, and are committed after what is held
    expandViews(select);
    PlannedStatement planned = plan(select);
    String source = planned.sql();
    List<String> names = insertColumns(table, columns, source);
    ClientRows rows =
        ClientRows.of(
            "SELECT * FROM (" + source + ") AS __tl_insert(" + SqlText.identifiers(names) + ")",
            select);
    String operation = kind == StatementKind.UPSERT ? "upsert" : "insert";
    java.time.Instant now = clock.instant();
    if (transaction.isOpen()) {
      PendingAppend pending = transaction.pendingFor(table, operation, this::work);
      long added = stage(rows, pending, now);
      pending.checkIndexIntervals();
      return StatementOutcome.wrote(
          kind,
          "Inserted " + rows(added) + " into " + table.name() + asUpserts + ", held until COMMIT",
          added,
          planned.explanation());
    }
    AppendResult result;
    java.util.Set<Integer> touched;
    try (PendingAppend pending = new PendingAppend(table, work())) {
      stage(rows, pending, now);
      result = pending.commit(operation, Optional.empty(), writer(), message -> {});
      touched = pending.touchedPartitions();
    }
    StatementOutcome outcome =
        StatementOutcome.appended(
            kind,
            "Inserted "
                + rows(result.rows())
                + " into "
                + table.name()
                + asUpserts
                + copies(result),
            result,
            planned.explanation());
    return maintainAfter(outcome, table.name(), touched, now);
  }

  /** The session's tier, when writes to {@code table} may be held in it. */
  private Optional<dev.timelake.HeldWrites> tierFor(LoadedTable table) {
    return heldWrites.filter(
        tier ->
            table.contract().isTimeSeries()
                && settings.isEnabled(dev.timelake.table.Settings.HOT_TIER, table.contract()));
  }

  /** Hands {@code rows} for {@code table} to {@code tier}, written by the session's user. */
  private void hold(
      dev.timelake.HeldWrites tier,
      LoadedTable table,
      org.apache.arrow.vector.VectorSchemaRoot rows) {
    tier.hold(table.name(), rows, table.contract().ingestTimeColumn(), user());
  }

  /** The session's user, as a tier records who wrote: empty for the local user. */
  private String user() {
    return access.map(dev.timelake.ClientAccess::user).orElse("");
  }

  /**
   * A COPY outside a transaction handed to the session's tier once staged and checked as any
   * append's rows are (the same verdict and errors), read back as a batch like a held INSERT's; at
   * most {@link dev.timelake.write.HeldColumns#MAX_ROWS} rows (a larger COPY is a bulk load,
   * committed at once). Empty when there is no tier or it cannot take them: the COPY commits as
   * usual.
   */
  private Optional<StatementOutcome> holdCopied(LoadedTable table, PendingAppend pending) {
    Optional<dev.timelake.HeldWrites> tier = tierFor(table);
    long rows = pending.rows();
    java.util.OptionalLong kept =
        tier.isPresent() ? pending.holdIn(tier.get(), user()) : java.util.OptionalLong.empty();
    if (kept.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        StatementOutcome.wrote(
            StatementKind.INSERT,
            "Copied "
                + rows(kept.getAsLong())
                + " into "
                + table.name()
                + copies(rows - kept.getAsLong())
                + ", held in the hot tier",
            kept.getAsLong(),
            List.of()));
  }

  /**
   * An INSERT handed to the session's tier: constant rows outside a transaction, converted in Java
   * with certainty (see {@link ConstantRows}), into a time-series table without an index
   * granularity. Empty when there is no tier or it cannot take them: the INSERT commits as usual.
   */
  private Optional<StatementOutcome> held(
      LoadedTable table, List<net.sf.jsqlparser.schema.Column> columns, Select select) {
    Optional<dev.timelake.HeldWrites> tier = tierFor(table);
    if (tier.isEmpty() || !(select instanceof net.sf.jsqlparser.statement.select.Values values)) {
      return Optional.empty();
    }
    java.time.ZoneId zone;
    try {
      zone = java.time.ZoneId.of(client.timeZone());
    } catch (java.time.DateTimeException e) {
      return Optional.empty(); // a zone only DuckDB knows
    }
    List<String> names =
        columns == null
            ? List.of()
            : columns.stream().map(c -> SyntaxNames.unquote(c.getColumnName())).toList();
    Optional<org.apache.arrow.vector.VectorSchemaRoot> rows =
        ConstantRows.of(table.contract(), names, values, zone, tier.get().allocator());
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    long count = rows.get().getRowCount();
    hold(tier.get(), table, rows.get());
    return Optional.of(
        StatementOutcome.wrote(
            StatementKind.INSERT,
            "Inserted " + rows(count) + " into " + table.name() + " (held in the hot tier)",
            count,
            List.of()));
  }

  /**
   * The rows an INSERT writes: a query run on the client's connection (where the client's temporary
   * tables, macros and transaction are), handed to Timelake's connection as Arrow batches; or
   * VALUES of literals, which mean the same on any connection and are read there directly (most
   * small INSERTs, and every one a driver sends with its parameters inlined). Either is staged in
   * the client's time zone, so that {@code '2026-01-01 10:00'} means what it meant to the client.
   */
  private record ClientRows(
      String sql, AppendSource.Casting casting, String description, boolean literals) {
    private static final long BATCH_ROWS = 65_536;

    static ClientRows of(String sql, Select select) {
      if (select instanceof net.sf.jsqlparser.statement.select.Values values) {
        return new ClientRows(
            sql, AppendSource.Casting.LITERALS, "VALUES", LiteralValues.holdsOnlyLiterals(values));
      }
      return new ClientRows(sql, AppendSource.Casting.ASSIGNMENT, "query", false);
    }
  }

  /** The summary entry naming who writes: a server client's login; nothing for embedded use. */
  private Map<String, String> writer() {
    return access
        .map(a -> Map.of(dev.timelake.table.SnapshotSummaries.USER, a.user()))
        .orElse(Map.of());
  }

  private long stage(ClientRows rows, PendingAppend into, java.time.Instant now) {
    if (rows.literals()) {
      return inClientTimeZone(
          () -> into.add(new AppendSource.Query(rows.sql(), rows.casting()), now));
    }
    try (ResultSet result = client.query(rows.sql());
        org.apache.arrow.memory.BufferAllocator allocator =
            new org.apache.arrow.memory.RootAllocator()) {
      // The staging side releases the stream, and with it the reader, once it has read it.
      org.apache.arrow.vector.ipc.ArrowReader reader =
          (org.apache.arrow.vector.ipc.ArrowReader)
              result
                  .unwrap(org.duckdb.DuckDBResultSet.class)
                  .arrowExportStream(allocator, ClientRows.BATCH_ROWS);
      return inClientTimeZone(
          () ->
              into.add(
                  new AppendSource.ArrowStream(reader, rows.casting(), rows.description()), now));
    } catch (java.sql.SQLException e) {
      throw new dev.timelake.QueryFailedException(
          "Cannot read the rows to insert: " + e.getMessage(), e);
    }
  }

  /** The client's TimeZone setting (DuckDB's name), in which its instants are shown. */
  public String timeZone() {
    return client.timeZone();
  }

  /** Runs {@code staging} with Timelake's connection in the client's time zone, then in UTC. */
  private long inClientTimeZone(java.util.function.LongSupplier staging) {
    EngineConnection connection = work();
    boolean otherZone = !client.timeZone().equals(connection.timeZone());
    if (otherZone) {
      connection.execute("SET TimeZone = " + SqlText.literal(client.timeZone()));
      connection.readTimeZone();
    }
    try {
      return staging.getAsLong();
    } finally {
      if (otherZone) {
        connection.execute("SET TimeZone = 'UTC'");
        connection.readTimeZone();
      }
    }
  }

  /**
   * Inline maintenance after a committed write, on Timelake's connection; its failure is reported
   * as a warning and in the append's result, the write stands.
   */
  private StatementOutcome maintainAfter(
      StatementOutcome outcome,
      TableName table,
      java.util.Set<Integer> touched,
      java.time.Instant now) {
    AppendResult result = outcome.append().orElseThrow();
    if (result.outcome() != AppendResult.Outcome.COMMITTED) {
      return outcome;
    }
    AppendResult maintained =
        InlineMaintenance.afterCommit(
            result, catalog, table, work(), touched, java.util.Map.of(), now, message -> {});
    Optional<String> failure = maintained.maintenanceError();
    StatementOutcome done =
        new StatementOutcome(
            outcome.kind(),
            outcome.resultSet(),
            outcome.message(),
            outcome.rowCount(),
            Optional.of(maintained),
            outcome.routes(),
            outcome.explanation(),
            outcome.warnings());
    return failure
        .map(
            reason ->
                done.withWarning(
                    "inline maintenance of " + table + " failed (the write stands): " + reason))
        .orElse(done);
  }

  private List<String> insertColumns(
      LoadedTable table, List<net.sf.jsqlparser.schema.Column> columns, String source) {
    if (columns != null && !columns.isEmpty()) {
      return columns.stream().map(c -> SyntaxNames.unquote(c.getColumnName())).toList();
    }
    int count = client.rows("DESCRIBE " + source).size();
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
    require(Role.ADMIN, name, "CREATE TABLE " + name);
    transaction.refuseInside("CREATE TABLE " + name);
    if (create.isIfNotExists() && catalog.exists(name)) {
      return StatementOutcome.message(
          StatementKind.CREATE_TABLE, "Table " + name + " already exists");
    }
    catalog.create(DdlParser.definition(create));
    return StatementOutcome.message(StatementKind.CREATE_TABLE, "Created table " + name);
  }

  /**
   * {@code CREATE TABLE t [WITH (…)] AS <query>}: a table with the query's columns (a time-series
   * table when WITH names its time column, else a plain one), filled with the query's rows in one
   * append. When the rows cannot be appended the new table is dropped again: nothing is left.
   */
  private StatementOutcome createTableAs(CreateTableAs create) {
    TableName name = create.name();
    require(Role.ADMIN, name, "CREATE TABLE " + name);
    transaction.refuseInside("CREATE TABLE " + name);
    if (catalog.exists(name)) {
      if (create.ifNotExists()) {
        return StatementOutcome.message(
            StatementKind.CREATE_TABLE, "Table " + name + " already exists");
      }
      throw new dev.timelake.AlreadyExistsException(
          "Cannot create " + name + ": it already exists");
    }
    Select query = parsedQuery(name, create.query());
    List<Column> columns = new ArrayList<>();
    List<net.sf.jsqlparser.schema.Column> named = new ArrayList<>();
    boolean timeSeries = !create.options().isBlank();
    for (dev.timelake.ResultColumn column : resultColumns(name, create.query())) {
      named.add(new net.sf.jsqlparser.schema.Column(SqlText.identifier(column.name())));
      // A copy of a time-series table brings its insertion times: they fill the new table's own
      // insertion-time column (named in the INSERT below), not a second column of that name.
      if (!(timeSeries
          && column.name().equals(dev.timelake.table.TableCreator.INGEST_TIME_COLUMN))) {
        columns.add(DdlParser.resultColumn(name, column.name(), column.type()));
      }
    }
    catalog.create(DdlParser.definition(name, columns, create.options()));
    try {
      StatementOutcome inserted =
          insert(new Table(name.namespace(), name.name()), named, query, StatementKind.INSERT);
      long rows = inserted.rowCount().orElse(0);
      return StatementOutcome.wrote(
          StatementKind.CREATE_TABLE,
          "Created table " + name + " with " + rows(rows),
          rows,
          List.of());
    } catch (RuntimeException e) {
      try {
        catalog.drop(name);
      } catch (RuntimeException dropFailure) {
        e.addSuppressed(dropFailure);
      }
      throw e;
    }
  }

  /** The query of a CREATE TABLE … AS, parsed ({@code //} included). */
  private static Select parsedQuery(TableName table, String query) {
    try {
      if (StatementParser.parse(StatementParser.withDivKeyword(query)) instanceof Select select) {
        return select;
      }
    } catch (JSQLParserException | RuntimeException e) {
      throw TimelakeException.validation(
          "Cannot create %s: cannot read the query after AS: %s",
          table, e.getMessage().lines().findFirst().orElse(""));
    }
    throw TimelakeException.validation(
        "Cannot create %s: CREATE TABLE … AS takes a query (SELECT, VALUES or WITH …)", table);
  }

  private List<dev.timelake.ResultColumn> resultColumns(TableName table, String query) {
    Optional<List<dev.timelake.ResultColumn>> columns = describe(query);
    if (columns.isEmpty()) {
      // The query cannot be planned: running it without rows gives its own error.
      StatementOutcome none =
          query(parsedQuery(table, "SELECT * FROM (" + query + ") AS q LIMIT 0"), query);
      none.resultSet().ifPresent(SqlSession::closeQuietly);
      throw TimelakeException.validation(
          "Cannot create %s: the columns of the query after AS are unknown", table);
    }
    return columns.get();
  }

  private static void closeQuietly(ResultSet rows) {
    try {
      rows.close();
    } catch (java.sql.SQLException e) {
      // Nothing was read from it.
    }
  }

  /** For a client limited to some namespaces: no files read by name (see the policy). */
  private void refuseFileReads(String query) {
    if (access.isPresent() && !access.get().namespaces().isEmpty()) {
      policy.refuseFileReads(query, access.get().user(), true);
    }
  }

  /** True when a table reference of {@code statement} reads an earlier snapshot. */
  private static boolean readsEarlierSnapshot(Statement statement) {
    return dev.timelake.read.TableReferences.of(statement).stream()
        .anyMatch(reference -> dev.timelake.read.TimeTravel.asks(reference.table()));
  }

  /** Replaces the views {@code statement} names (a query's, an INSERT's) by their queries. */
  private void expandViews(Statement statement) {
    expandViews(statement, new PinnedTables(catalog));
  }

  /**
   * Replaces the views the statement names by their queries; {@code tables} are the statement's,
   * whose names are tables, not views (looked up once for the expansion and the plan).
   */
  private void expandViews(Statement statement, PinnedTables tables) {
    Select select =
        statement instanceof Select query
            ? query
            : statement instanceof Insert insert ? insert.getSelect() : null;
    java.util.function.Predicate<TableName> isTable = name -> tables.find(name).isPresent();
    if (select != null && views.namesView(select, isTable)) {
      views.expand(select, this::refuseFileReads, isTable);
    }
    if (select != null) {
      // Gap filling becomes a plain aggregate under a fill before routing and planning see it.
      GapFill.rewrite(select, new GapFillTables(tables, client.aggregateFunctions()));
    }
  }

  /**
   * True for a view Timelake keeps: one named {@code ns.v} (the lake's), or a temporary one whose
   * query reads lake tables or views (a DuckDB view could not: it is bound once, to no table).
   */
  private boolean isLakeView(CreateView view) {
    if (view.qualified() && !view.temporary()) {
      return !view.name().namespace().equalsIgnoreCase("main")
          && !view.name().namespace().equalsIgnoreCase("temp");
    }
    if (!view.temporary()) {
      return false;
    }
    try {
      Select query = Views.parse(view.simpleName(), view.query());
      return views.namesView(query, catalog::exists)
          || dev.timelake.read.TableReferences.of(query).stream()
              .anyMatch(
                  r ->
                      r.table().getSchemaName() != null
                          && catalog.exists(SyntaxNames.tableName(r.table())));
    } catch (TimelakeException | IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * {@code CREATE [OR REPLACE] [TEMP] VIEW v AS <query>}: the query is checked by planning it and
   * kept, the lake's views in their namespace, temporary ones in this session.
   */
  private StatementOutcome createView(CreateView view) {
    String shown = view.temporary() ? view.simpleName() : view.name().toString();
    if (!view.temporary()) {
      require(Role.ADMIN, view.name(), "CREATE VIEW " + view.name());
      transaction.refuseInside("CREATE VIEW " + view.name());
      if (catalog.exists(view.name())) {
        throw new dev.timelake.AlreadyExistsException(
            "Cannot create view " + shown + ": a table of that name exists");
      }
    }
    boolean exists =
        view.temporary()
            ? views.hasTemporary(view.simpleName())
            : catalog.view(view.name()).isPresent();
    if (exists && view.ifNotExists()) {
      return StatementOutcome.message(StatementKind.OTHER, "View " + shown + " already exists");
    }
    if (exists && !view.orReplace()) {
      throw new dev.timelake.AlreadyExistsException(
          "Cannot create view " + shown + ": it exists; CREATE OR REPLACE VIEW replaces it");
    }
    refuseFileReads(view.query());
    resultColumns(
        view.temporary() ? new TableName("temp", view.simpleName()) : view.name(), view.query());
    if (view.temporary()) {
      views.putTemporary(view.simpleName(), view.query());
    } else {
      catalog.putView(view.name(), view.query());
    }
    return StatementOutcome.message(StatementKind.OTHER, "Created view " + shown);
  }

  /** {@code DROP VIEW [IF EXISTS] v}: a lake view, this session's temporary one, or DuckDB's. */
  private StatementOutcome dropView(Drop drop, String text) {
    Table node = drop.getName();
    if (node.getSchemaName() == null && views.dropTemporary(SyntaxNames.unquote(node.getName()))) {
      return StatementOutcome.message(StatementKind.OTHER, "Dropped view " + node.getName());
    }
    if (!namesLakeNamespace(node)) {
      return passThrough(text);
    }
    TableName name = SyntaxNames.tableName(node);
    require(Role.ADMIN, name, "DROP VIEW " + name);
    transaction.refuseInside("DROP VIEW " + name);
    if (catalog.dropView(name)) {
      return StatementOutcome.message(StatementKind.OTHER, "Dropped view " + name);
    }
    if (drop.isIfExists()) {
      return StatementOutcome.message(StatementKind.OTHER, "View " + name + " does not exist");
    }
    throw new NotFoundException("Cannot drop view " + name + ": it does not exist");
  }

  private static boolean isTemporary(CreateTable create) {
    List<String> options = create.getCreateOptionsStrings();
    return options != null
        && options.stream()
            .anyMatch(o -> o.equalsIgnoreCase("TEMP") || o.equalsIgnoreCase("TEMPORARY"));
  }

  private StatementOutcome drop(Drop drop, String text) {
    if (drop.getType().equalsIgnoreCase("VIEW")) {
      return dropView(drop, text);
    }
    if (!drop.getType().equalsIgnoreCase("TABLE")) {
      return passThrough(text);
    }
    TableName name = SyntaxNames.tableName(drop.getName());
    if (catalog.exists(name)) {
      require(Role.ADMIN, name, "DROP TABLE " + name);
      transaction.refuseInside("DROP TABLE " + name);
    } else if (access.isPresent() && !namesLakeNamespace(drop.getName())) {
      return passThrough(text); // the session's own temporary table, which the policy checks
    }
    boolean cascade =
        drop.getParameters() != null
            && drop.getParameters().stream().anyMatch(p -> p.equalsIgnoreCase("CASCADE"));
    if (TableDrops.drop(
        catalog, name, cascade ? TableDrops.Rollups.CASCADE : TableDrops.Rollups.REFUSE)) {
      return StatementOutcome.message(StatementKind.DROP_TABLE, "Dropped table " + name);
    }
    if (drop.isIfExists()) {
      return StatementOutcome.message(
          StatementKind.DROP_TABLE, "Table " + name + " does not exist");
    }
    throw new NotFoundException("Cannot drop " + name + ": it does not exist");
  }

  /**
   * {@code UPDATE t SET c = expr, … [WHERE …]}: a correction, written as an upsert of the selected
   * rows with their new values (the newest write of a key wins on read), so rollups see the changed
   * buckets as they see late rows. The key, time and insertion-time columns are not updated.
   */
  private StatementOutcome update(net.sf.jsqlparser.statement.update.Update update) {
    TableName name = SyntaxNames.tableName(update.getTable());
    LoadedTable table = catalog.require(name);
    TableDrops.refuseAppendTo(table, "UPDATE");
    dev.timelake.table.TableContract contract = requireDeduplicated(table, "UPDATE");
    if (update.getFromItem() != null
        || holds(update.getJoins())
        || holds(update.getStartJoins())
        || update.getLimit() != null
        || update.getReturningClause() != null
        || update.getWithItemsList() != null) {
      throw TimelakeException.validation(
          "Cannot UPDATE %s: only UPDATE %s SET column = expression, … [WHERE …] is supported"
              + " (no FROM, joins, WITH, LIMIT or RETURNING); for other corrections write the rows"
              + " with INSERT OR REPLACE INTO %s SELECT …",
          name, name, name);
    }
    Map<String, net.sf.jsqlparser.expression.Expression> values = new java.util.LinkedHashMap<>();
    for (net.sf.jsqlparser.statement.update.UpdateSet set : update.getUpdateSets()) {
      for (int i = 0; i < set.getColumns().size(); i++) {
        String column = updatedColumn(table, SyntaxNames.unquote(set.getColumn(i).getColumnName()));
        values.put(column, set.getValue(i));
      }
    }
    PlainSelect corrected = new PlainSelect();
    List<net.sf.jsqlparser.schema.Column> columns = new ArrayList<>();
    for (String column : contract.columnNames()) {
      if (contract.ingestTimeColumn().map(column::equals).orElse(false)) {
        continue; // the correction's own insertion time makes it the newest write
      }
      net.sf.jsqlparser.schema.Column node =
          new net.sf.jsqlparser.schema.Column(SqlText.identifier(column));
      columns.add(node);
      net.sf.jsqlparser.expression.Expression value = values.get(column);
      if (value != null) {
        // An assignment cast, as PostgreSQL's UPDATE makes: SET value = '5' sets 5.
        net.sf.jsqlparser.expression.CastExpression cast =
            new net.sf.jsqlparser.expression.CastExpression();
        cast.setLeftExpression(value);
        cast.setColDataType(
            new net.sf.jsqlparser.statement.create.table.ColDataType(
                contract.column(column).type().sql()));
        value = cast;
      }
      corrected.addSelectItem(
          value == null ? node : value,
          new net.sf.jsqlparser.expression.Alias(SqlText.identifier(column), false));
    }
    corrected.setFromItem(update.getTable());
    corrected.setWhere(update.getWhere());
    StatementOutcome upserted = insert(update.getTable(), columns, corrected, StatementKind.UPSERT);
    long rows = upserted.rowCount().orElse(0);
    return new StatementOutcome(
        StatementKind.UPDATE,
        Optional.empty(),
        "Updated "
            + rows(rows)
            + " in "
            + name
            + (transaction.isOpen() ? ", held until COMMIT" : ""),
        upserted.rowCount(),
        upserted.append(),
        List.of(),
        upserted.explanation(),
        upserted.warnings());
  }

  /** The table's name of an updated column; refused for the columns that make a row's key. */
  private static String updatedColumn(LoadedTable table, String column) {
    dev.timelake.table.TableContract contract = table.contract();
    String found =
        contract.columnNames().stream()
            .filter(column::equalsIgnoreCase)
            .findFirst()
            .orElseThrow(
                () ->
                    TimelakeException.validation(
                        "Cannot UPDATE %s: it has no column '%s' (columns: %s)",
                        table.name(), column, String.join(", ", contract.columnNames())));
    if (contract.keyColumns().contains(found)
        || contract.ingestTimeColumn().map(found::equals).orElse(false)) {
      throw TimelakeException.validation(
          "Cannot UPDATE column '%s' of %s: it is part of a row's key (%s) or its insertion time;"
              + " a row with another key is another row: INSERT it and DELETE the old one",
          found, table.name(), String.join(", ", contract.keyColumns()));
    }
    return found;
  }

  /**
   * {@code DELETE FROM t [WHERE …]}: every copy of the keys of the rows the reader sees where the
   * condition holds goes (of a table that keeps every row: the rows where it holds), in one commit
   * (see {@link dev.timelake.write.RowDeletion}); the table's rollups are emptied just before it
   * and rebuilt by their next refresh.
   */
  private StatementOutcome delete(net.sf.jsqlparser.statement.delete.Delete delete) {
    TableName name = SyntaxNames.tableName(delete.getTable());
    LoadedTable table = catalog.require(name);
    TableDrops.refuseAppendTo(table, "DELETE FROM");
    require(Role.WRITE, name, "DELETE FROM " + name);
    transaction.refuseInside("DELETE FROM " + name);
    if (holds(delete.getUsingList())
        || holds(delete.getJoins())
        || delete.getLimit() != null
        || holds(delete.getOrderByElements())
        || delete.getReturningClause() != null
        || holds(delete.getWithItemsList())
        || holds(delete.getTables())) {
      throw TimelakeException.validation(
          "Cannot DELETE FROM %s: only DELETE FROM %s [WHERE …] is supported (no USING, joins,"
              + " WITH, ORDER BY, LIMIT or RETURNING); name other tables in the WHERE, e.g. device"
              + " IN (SELECT …)",
          name, name);
    }
    PlainSelect rows = new PlainSelect();
    rows.addSelectItems(new net.sf.jsqlparser.statement.select.AllColumns());
    rows.setFromItem(delete.getTable());
    rows.setWhere(delete.getWhere());
    if (access.isPresent() && !access.get().namespaces().isEmpty()) {
      refuseFileReads(dev.timelake.read.FunctionCalls.rewrite(rows, call -> {}));
    }
    expandViews(rows);
    PlannedStatement planned = plan(rows);
    PinnedTable pinned = planned.tables().require(name);
    long deleted =
        inClientTimeZone(
            () ->
                new dev.timelake.write.RowDeletion(table, work())
                    .delete(
                        planned.sql(),
                        pinned,
                        dev.timelake.rollup.TableAlterations.deletedRowColumns(catalog, table))
                    .rows());
    return StatementOutcome.wrote(
        StatementKind.DELETE,
        "Deleted " + rows(deleted) + " from " + name,
        deleted,
        planned.explanation());
  }

  /**
   * The contract of a table whose rows a key identifies (a deduplicated time-series table), which
   * an UPDATE needs: a plain table or one without dedup keeps every row it is given.
   */
  private static dev.timelake.table.TableContract requireDeduplicated(
      LoadedTable table, String statement) {
    dev.timelake.table.TableContract contract = table.contract();
    if (!contract.isTimeSeries() || !contract.deduplicates()) {
      throw TimelakeException.validation(
          "Cannot %s %s: it keeps every row it is given (%s), so no key names the rows to change;"
              + " write the rows to keep into a new table with CREATE TABLE … AS SELECT …",
          statement, table.name(), contract.isTimeSeries() ? "dedup is off" : "a plain table");
    }
    return contract;
  }

  private static boolean holds(List<?> clause) {
    return clause != null && !clause.isEmpty();
  }

  /** One name per namespace of the lake that the session reaches (for its views). */
  private List<TableName> namespacesWithTables() {
    java.util.Map<String, TableName> namespaces = new java.util.TreeMap<>();
    for (TableName name : catalog.tables()) {
      if (access.isEmpty() || access.get().reaches(name.namespace())) {
        namespaces.putIfAbsent(name.namespace(), name);
      }
    }
    return List.copyOf(namespaces.values());
  }

  /** True for {@code ns.t} where {@code ns} is not DuckDB's {@code temp}: a lake table's name. */
  private static boolean namesLakeNamespace(Table name) {
    return name.getSchemaName() != null && !name.getSchemaName().equalsIgnoreCase("temp");
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
      if (access.isPresent() && !access.get().reaches(name.namespace())) {
        continue;
      }
      Optional<LoadedTable> table = catalog.load(name);
      String kind =
          table
              .map(
                  t ->
                      dev.timelake.rollup.Rollup.of(t).isPresent()
                          ? "rollup"
                          : t.contract().isTimeSeries() ? "time-series" : "plain")
              .orElse("?");
      rows.add(List.of(name.namespace(), name.name(), kind));
    }
    for (TableName namespace : namespacesWithTables()) {
      catalog
          .views(namespace.namespace())
          .keySet()
          .forEach(view -> rows.add(List.of(namespace.namespace(), view, "view")));
    }
    return values(StatementKind.SHOW, List.of("namespace", "name", "kind"), rows);
  }

  private StatementOutcome describe(Table node) {
    LoadedTable table = catalog.require(SyntaxNames.tableName(node));
    require(Role.READ, table.name(), "DESCRIBE " + table.name());
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
    expandViews(select);
    return readingTier(tables -> explain(select, tables));
  }

  /** EXPLAIN of {@code select}, planned as its query would be on {@code tables}. */
  private StatementOutcome explain(Select select, PinnedTables tables) {
    // Before planning, which may change the tree (routing, time buckets).
    Optional<NewestFirst> newest =
        NewestFirst.of(select, lookup(tables), client.aggregateFunctions())
            .filter(shape -> !readsTier(shape.table()));
    PlannedStatement planned = planLatest(select, tables).orElseGet(() -> plan(select, tables));
    List<List<String>> rows = new ArrayList<>();
    planned.explanation().forEach(line -> rows.add(List.of("timelake", line)));
    newest.ifPresent(
        shape ->
            rows.add(
                List.of(
                    "timelake",
                    shape.explain(ScanPlanner.liveFiles(tables.require(shape.table()))))));
    rows.add(List.of("duckdb sql", planned.sql()));
    for (List<Object> row : client.rows("EXPLAIN " + planned.sql())) {
      // DuckDB draws its plan as one text; a table shows it best a line to a row.
      String.valueOf(row.get(row.size() - 1))
          .lines()
          .filter(line -> !line.isBlank())
          .forEach(line -> rows.add(List.of("duckdb plan", line)));
    }
    StatementOutcome outcome = values(StatementKind.EXPLAIN, List.of("part", "explain"), rows);
    return new StatementOutcome(
        outcome.kind(),
        outcome.resultSet(),
        outcome.message(),
        outcome.rowCount(),
        outcome.append(),
        planned.routes(),
        outcome.explanation(),
        outcome.warnings());
  }

  /** {@code ALTER TABLE t ADD [COLUMN] name TYPE [, ADD …]}: nullable columns added at the end. */
  private StatementOutcome alter(net.sf.jsqlparser.statement.alter.Alter alter) {
    TableName name = SyntaxNames.tableName(alter.getTable());
    catalog.require(name);
    require(Role.ADMIN, name, "ALTER TABLE " + name);
    transaction.refuseInside("ALTER TABLE " + name);
    List<Column> added = DdlParser.addedColumns(name, alter);
    catalog.addColumns(name, added);
    return altered(
        name,
        "added " + String.join(", ", added.stream().map(c -> c.name() + " " + c.type()).toList()));
  }

  /** {@code RENAME [COLUMN] a TO b}, {@code DROP [COLUMN] c}, {@code RENAME TO t2}: one commit. */
  private StatementOutcome alter(SchemaChange change) {
    TableName name = change.table();
    require(Role.ADMIN, name, "ALTER TABLE " + name);
    transaction.refuseInside("ALTER TABLE " + name);
    return switch (change.operation()) {
      case RENAME_COLUMN -> {
        dev.timelake.rollup.TableAlterations.renameColumn(
            catalog, name, change.name(), change.newName());
        yield altered(name, "renamed column " + change.name() + " to " + change.newName());
      }
      case DROP_COLUMN -> {
        dev.timelake.rollup.TableAlterations.dropColumn(catalog, name, change.name());
        yield altered(name, "dropped column " + change.name());
      }
      case RENAME_TABLE -> {
        TableName newName = new TableName(name.namespace(), change.newName());
        dev.timelake.rollup.TableAlterations.renameTable(catalog, name, newName);
        yield StatementOutcome.message(
            StatementKind.ALTER_TABLE, "Renamed table " + name + " to " + newName);
      }
    };
  }

  private static StatementOutcome altered(TableName name, String change) {
    return StatementOutcome.message(
        StatementKind.ALTER_TABLE, "Altered table " + name + ": " + change);
  }

  /**
   * {@code CALL timelake.rollback('t', snapshot | 'time')}: the table reads as it did then; its
   * rollups are rebuilt by their next refresh.
   */
  private StatementOutcome rollback(RollbackCall call) {
    TableName name = call.table();
    catalog.require(name);
    require(Role.ADMIN, name, "roll back " + name);
    transaction.refuseInside("CALL timelake.rollback on " + name);
    long snapshot =
        call.snapshot().isPresent()
            ? call.snapshot().getAsLong()
            : dev.timelake.rollup.TableAlterations.snapshotBefore(catalog, name, instant(call));
    LoadedTable before = catalog.require(name);
    long from =
        before.iceberg().currentSnapshot() == null
            ? -1
            : before.iceberg().currentSnapshot().snapshotId();
    dev.timelake.rollup.TableAlterations.rollback(catalog, name, snapshot);
    return StatementOutcome.message(
        StatementKind.OTHER,
        "Rolled back " + name + " from snapshot " + from + " to snapshot " + snapshot);
  }

  /** The time a rollback names, read as DuckDB reads a TIMESTAMPTZ in the client's time zone. */
  private java.time.Instant instant(RollbackCall call) {
    String time = call.before().orElseThrow();
    Object micros;
    try {
      micros = client.scalar("SELECT epoch_us(CAST(" + SqlText.literal(time) + " AS TIMESTAMPTZ))");
    } catch (TimelakeException e) {
      throw TimelakeException.validation(
          "Cannot roll back %s: '%s' is not a time (e.g. '2026-12-03 07:00:00+00')",
          call.table(), time);
    }
    long value = ((Number) micros).longValue();
    return java.time.Instant.EPOCH.plus(value, java.time.temporal.ChronoUnit.MICROS);
  }

  /** {@code TRUNCATE [TABLE] t}: every row removed in one commit, the table's rollups emptied. */
  private StatementOutcome truncate(TableName name) {
    require(Role.WRITE, name, "TRUNCATE " + name);
    transaction.refuseInside("TRUNCATE " + name);
    long removed = dev.timelake.rollup.TableAlterations.truncate(catalog, name);
    return StatementOutcome.message(
        StatementKind.TRUNCATE, "Truncated " + name + ": removed " + rows(removed));
  }

  /**
   * {@code SHOW timelake.<setting>}: the value the session reads with and where it comes from (the
   * session, else the default; a table's own value applies to that table). {@code RESET
   * timelake.<setting>}: back to the default.
   */
  private StatementOutcome timelakeSetting(ClassifiedStatement.TimelakeSetting shown) {
    dev.timelake.table.Setting setting = dev.timelake.table.Settings.require(shown.name());
    if (shown.reset()) {
      settings.reset(setting.name());
      return StatementOutcome.message(StatementKind.SET, "RESET timelake." + shown.name());
    }
    String value = settings.values().get(setting.name());
    List<List<String>> rows =
        List.of(
            List.of(
                setting.name(),
                value != null ? value : setting.defaultValue().orElse("(none)"),
                value != null ? "session" : "default"));
    return values(StatementKind.SHOW, List.of("setting", "value", "level"), rows);
  }

  /** The statement's text with its {@code current_setting('timelake.…')} calls answered. */
  private String withTimelakeSettingsAnswered(ClassifiedStatement.Sql sql) {
    try {
      return dev.timelake.read.FunctionCalls.rewrite(parsed(sql), this::answerTimelakeSetting);
    } catch (JSQLParserException e) {
      return sql.text(); // DuckDB says what it cannot read
    }
  }

  /** JSqlParser's tree of a statement, with DuckDB's {@code //} spelled so that it reads it. */
  private static Statement parsed(ClassifiedStatement.Sql sql) throws JSQLParserException {
    return StatementParser.parse(
        sql.integerDivision() ? StatementParser.withDivKeyword(sql.text()) : sql.text());
  }

  /**
   * {@code current_setting('timelake.<setting>')} (DuckDB knows no such setting) becomes the value
   * the session reads with, as a string literal; NULL for a setting without a value.
   */
  private void answerTimelakeSetting(net.sf.jsqlparser.expression.Function call) {
    if (call.getName() == null
        || !call.getName().equalsIgnoreCase("current_setting")
        || call.getParameters() == null
        || call.getParameters().isEmpty()
        || !(call.getParameters().get(0) instanceof net.sf.jsqlparser.expression.StringValue name)
        || !name.getValue().toLowerCase(Locale.ROOT).startsWith("timelake.")) {
      return;
    }
    dev.timelake.table.Setting setting =
        dev.timelake.table.Settings.require(name.getValue().substring("timelake.".length()));
    Optional<String> value =
        Optional.ofNullable(settings.values().get(setting.name())).or(setting::defaultValue);
    // The call is changed in place: concat('v') is 'v', nullif('', '') a NULL string.
    call.setName(value.isPresent() ? "concat" : "nullif");
    call.setParameters(
        value.isPresent()
            ? new net.sf.jsqlparser.expression.operators.relational.ExpressionList<>(
                new net.sf.jsqlparser.expression.StringValue(value.get()))
            : new net.sf.jsqlparser.expression.operators.relational.ExpressionList<>(
                new net.sf.jsqlparser.expression.StringValue(""),
                new net.sf.jsqlparser.expression.StringValue("")));
  }

  /** A small result built from literal values, through the quoting helper. */
  /** {@code OPTIMIZE [TABLE] name}: Timelake's entity-layout optimization. */
  private StatementOutcome optimize(TableName name) {
    dev.timelake.OptimizeReport report =
        new dev.timelake.maintain.EntityLayoutOptimizer(catalog.require(name), work(), m -> {})
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
    return StatementOutcome.rows(kind, client.query(sql.toString()), List.of(), List.of());
  }

  private StatementOutcome runWithFallbackViews(String text) {
    fallback.refresh();
    return passThrough(text, List.of(FallbackViews.EXPLANATION));
  }

  private StatementOutcome passThrough(String text) {
    return passThrough(text, List.of());
  }

  private StatementOutcome passThrough(String text, List<String> explanation) {
    if (access.isPresent()) {
      policy.check(text);
      if (!access.get().namespaces().isEmpty()) {
        policy.refuseFileReads(text, access.get().user(), false);
      }
    }
    java.sql.Statement statement = null;
    client.defineFunctionsFor(text);
    try {
      statement = client.jdbc().createStatement();
      boolean rows = statement.execute(text);
      if (!rows && text.toLowerCase(Locale.ROOT).contains("timezone")) {
        client.readTimeZone();
      }
      if (rows) {
        statement.closeOnCompletion();
        return StatementOutcome.rows(
            StatementKind.OTHER, statement.getResultSet(), List.of(), explanation);
      }
      statement.close();
      // SET TimeZone and DuckDB's other settings answer as PostgreSQL's SET does.
      List<dev.timelake.engine.SqlLexer.Token> tokens =
          dev.timelake.engine.SqlLexer.tokens(text).tokens();
      if (!tokens.isEmpty() && (tokens.get(0).is("SET") || tokens.get(0).is("RESET"))) {
        return StatementOutcome.message(StatementKind.SET, "SET");
      }
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

  /**
   * An INSERT, DELETE or UPDATE of a lake table whose text uses {@code //}, parsed with it spelled
   * DIV (printed as {@code //} again); empty for anything else, which runs as written.
   */
  private Optional<StatementOutcome> insertWithIntegerDivision(String text) {
    Statement statement;
    try {
      statement = StatementParser.parse(StatementParser.withDivKeyword(text));
    } catch (JSQLParserException | RuntimeException e) {
      return Optional.empty();
    }
    if (statement instanceof Insert insert && !isClientTable(insert.getTable())) {
      return Optional.of(
          insert(insert.getTable(), insert.getColumns(), insert.getSelect(), StatementKind.INSERT));
    }
    if (statement instanceof net.sf.jsqlparser.statement.delete.Delete delete
        && catalog.exists(SyntaxNames.tableName(delete.getTable()))) {
      return Optional.of(delete(delete));
    }
    if (statement instanceof net.sf.jsqlparser.statement.update.Update update
        && catalog.exists(SyntaxNames.tableName(update.getTable()))) {
      return Optional.of(update(update));
    }
    return Optional.empty();
  }

  /**
   * A CREATE TABLE Timelake cannot read must not reach DuckDB, where it would make a table of the
   * session's own instead of a lake table: it is refused naming what was not understood.
   */
  private static void refuseUnreadableCreateTable(String text, Exception parseFailure) {
    List<dev.timelake.engine.SqlLexer.Token> tokens =
        dev.timelake.engine.SqlLexer.tokens(text).tokens();
    int index = 1;
    if (tokens.size() > 2 && tokens.get(1).is("OR") && tokens.get(2).is("REPLACE")) {
      index = 3;
    }
    boolean createTable =
        !tokens.isEmpty()
            && tokens.get(0).is("CREATE")
            && index < tokens.size()
            && tokens.get(index).is("TABLE");
    if (createTable) {
      String reason = String.valueOf(parseFailure.getMessage()).lines().findFirst().orElse("");
      throw TimelakeException.validation(
          "Cannot read this CREATE TABLE (%s); Timelake's column types are BOOLEAN, INTEGER,"
              + " BIGINT, UBIGINT, FLOAT, DOUBLE, DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP,"
              + " TIMESTAMPTZ, BLOB, STRUCT(name TYPE, …) and TYPE[] (MAP and UNION are not"
              + " supported)",
          reason);
    }
  }

  @Override
  public void close() {
    try {
      transaction.end();
    } catch (RuntimeException e) {
      // The connections close anyway, and their temporary tables with them.
    }
    try {
      tierFileCache.close();
      if (work != null) {
        work.close();
      }
      fallback.close();
    } catch (RuntimeException e) {
      // The client closes anyway; its database then goes with the engine.
    } finally {
      client.close();
    }
  }
}
