package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.StatementKind;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.TransactionState;
import dev.timelake.TransactionStateException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client's transaction: writes to lake tables are held until COMMIT and discarded by ROLLBACK;
 * Timelake's own work (staging, inline compaction, rollup refresh) never runs inside it, so no
 * sequence of statements loses a committed row; statements that cannot be undone are refused.
 */
class ClientTransactionTest {
  /** 3,000 readings a minute apart from 2026-01-01 00:00, 1,440 of them on the first day. */
  private static final String LOAD =
      "INSERT INTO iot.r SELECT 'd' || (i % 5), TIMESTAMPTZ '2026-01-01 00:00:00+00' + i *"
          + " INTERVAL '1 minute', i FROM range(0, 3000) t(i)";

  private static final String ROLLUP =
      "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour', time)"
          + " AS bucket, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY device, bucket";

  @TempDir Path warehouse;
  private Lake lake;
  private Session session;

  /** iot.r with inline maintenance on (the default), as a new user creates it. */
  @BeforeEach
  void createTable() {
    lake = Lake.open(warehouse);
    session = lake.newSession();
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    run(LOAD);
  }

  @AfterEach
  void close() {
    session.close();
    lake.close();
  }

  @ParameterizedTest(name = "with a rollup: {0}")
  @ValueSource(booleans = {false, true})
  void insertInsideTransactionKeepsEveryCommittedRow(boolean withRollup) {
    if (withRollup) {
      run(ROLLUP);
    }

    assertThat(run("BEGIN").kind()).isEqualTo(StatementKind.BEGIN);
    assertThat(session.transactionState()).isEqualTo(TransactionState.OPEN);
    assertThat(run("INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1)").message())
        .isEqualTo("Inserted 1 row into iot.r, held until COMMIT");
    assertThat(run("COMMIT").message()).isEqualTo("COMMIT: 1 row into iot.r");

    assertThat(session.transactionState()).isEqualTo(TransactionState.IDLE);
    assertEveryRowIsThere(3001, 1441);
    if (withRollup) {
      assertRoutedEqualsRaw();
    }
  }

  @ParameterizedTest(name = "with a rollup: {0}")
  @ValueSource(booleans = {false, true})
  void rollbackDiscardsTheTransactionsWrites(boolean withRollup) {
    if (withRollup) {
      run(ROLLUP);
    }
    long snapshot = currentSnapshot();

    run("BEGIN");
    run("INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1)");
    run("INSERT INTO iot.r SELECT device, time + INTERVAL '1 day', value FROM iot.r");
    assertThat(run("ROLLBACK").kind()).isEqualTo(StatementKind.ROLLBACK);

    assertThat(currentSnapshot()).isEqualTo(snapshot);
    assertEveryRowIsThere(3000, 1440);
    if (withRollup) {
      assertRoutedEqualsRaw();
    }
  }

  @ParameterizedTest(name = "with a rollup: {0}")
  @ValueSource(booleans = {false, true})
  void readsInsideTransactionSeeItsOwnWritesAndOthersDoNot(boolean withRollup) {
    if (withRollup) {
      run(ROLLUP);
    }
    String hourly =
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS b, count(*), sum(value) FROM iot.r"
            + " GROUP BY ALL ORDER BY ALL";
    run("BEGIN");
    run("INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1)");
    // A copy of a committed key: the held write replaces it, as it will once committed.
    run("INSERT INTO iot.r VALUES ('d0', '2026-01-01 00:00:00+00', -5)");
    run("INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 2)");

    assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo(3001);
    assertThat(rows("SELECT value FROM iot.r WHERE device = 'zz'")).containsExactly(List.of(2.0));
    assertThat(rows("SELECT value FROM iot.r WHERE device = 'd0' AND time = '2026-01-01'"))
        .containsExactly(List.of(-5.0));
    List<List<Object>> inside = rows(hourly);
    try (Session other = lake.newSession();
        QueryResult committed = other.sql("SELECT count(*) FROM iot.r")) {
      assertThat(committed.rows()).containsExactly(List.of(3000L));
    }
    run("COMMIT");

    assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo(3001);
    assertThat(rows(hourly)).isEqualTo(inside);
    if (withRollup) {
      assertRoutedEqualsRaw();
    }
  }

  @Test
  void rolledBackWritesAreNoLongerRead() {
    run("BEGIN");
    run("INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1)");
    assertThat(count("SELECT count(*) FROM iot.r WHERE device = 'zz'")).isEqualTo(1);
    run("ROLLBACK");
    assertThat(count("SELECT count(*) FROM iot.r WHERE device = 'zz'")).isZero();
  }

  @Test
  void writesToOneTableCommitAsOneSnapshotAndTheLaterCopyWins() {
    int snapshots = snapshots().size();

    run("BEGIN");
    run("INSERT INTO iot.r VALUES ('zz', '2026-03-01 00:00:00+00', 1)");
    run("INSERT INTO iot.r VALUES ('zz', '2026-03-01 00:00:00+00', 2), ('zy', '2026-03-01', 3)");
    run("COMMIT");

    assertThat(rows("SELECT device, value FROM iot.r WHERE time >= '2026-03-01' ORDER BY device"))
        .containsExactly(List.of("zy", 3.0), List.of("zz", 2.0));
    assertThat(snapshots()).hasSize(snapshots + 1);
  }

  @Test
  void writesToTwoTablesCommitTableByTable() {
    run(
        "CREATE TABLE iot.s (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");

    run("BEGIN");
    run("INSERT INTO iot.s VALUES ('a', '2026-03-01 00:00:00+00', 1)");
    run("INSERT INTO iot.r VALUES ('b', '2026-03-01 00:00:00+00', 2)");
    assertThat(run("COMMIT").message()).isEqualTo("COMMIT: 1 row into iot.s, 1 row into iot.r");

    assertThat(count("SELECT count(*) FROM iot.s")).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo(3001);
  }

  @Test
  void failedStatementAbortsTheTransactionUntilRollback() {
    long snapshot = currentSnapshot();
    run("BEGIN");
    run("INSERT INTO iot.r VALUES ('zz', '2026-03-01 00:00:00+00', 1)");

    assertThatThrownBy(() -> run("INSERT INTO iot.r VALUES ('zz', 'not a time', 1)"))
        .isInstanceOf(TimelakeException.class)
        .hasMessageContaining("not a time");
    assertThat(session.transactionState()).isEqualTo(TransactionState.FAILED);
    assertThatThrownBy(() -> run("SELECT 1"))
        .isInstanceOf(TransactionStateException.class)
        .hasMessageStartingWith(
            "Cannot run the statement: an earlier statement of this transaction")
        .extracting(e -> ((TimelakeException) e).sqlState())
        .isEqualTo("25P02");
    QueryResult commit = run("COMMIT");

    assertThat(commit.kind()).isEqualTo(StatementKind.ROLLBACK);
    assertThat(commit.message())
        .isEqualTo("ROLLBACK: the transaction had failed, so nothing of it was committed");
    assertThat(session.transactionState()).isEqualTo(TransactionState.IDLE);
    assertThat(currentSnapshot()).isEqualTo(snapshot);
    assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo(3000);
  }

  @Test
  void refusesInsideTransactionWhatWouldChangeTheLakeAtOnce() {
    run(ROLLUP);
    List<dev.timelake.Column> columns = lake.table("iot.r").columns();
    List<String> refused =
        List.of(
            "CREATE TABLE iot.x (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                + " WITH (time_column = 'time', series_key = 'device')",
            "DROP TABLE iot.r",
            "ALTER TABLE iot.r ADD COLUMN quality INTEGER",
            ROLLUP.replace("iot.r_1h", "iot.r_1d").replace("'1 hour'", "'1 day'"),
            "REFRESH MATERIALIZED ROLLUP iot.r_1h",
            "DROP MATERIALIZED ROLLUP iot.r_1h",
            "OPTIMIZE iot.r");
    for (String statement : refused) {
      run("BEGIN");
      assertThatThrownBy(() -> run(statement))
          .as(statement)
          .isInstanceOf(TransactionStateException.class)
          .hasMessageContaining(
              "inside a transaction: Timelake applies it at once and could not"
                  + " undo it at ROLLBACK")
          .extracting(e -> ((TimelakeException) e).sqlState())
          .isEqualTo("25001");
      run("ROLLBACK");
    }

    assertThat(lake.tables())
        .containsExactly(TableName.parse("iot.r"), TableName.parse("iot.r_1h"));
    assertThat(lake.table("iot.r").columns()).isEqualTo(columns);
    assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo(3000);
  }

  @Test
  void refusalNamesTheStatementAndWhatToDo() {
    run("BEGIN");
    assertThatThrownBy(() -> run("DROP TABLE iot.r"))
        .hasMessage(
            "Cannot run DROP TABLE iot.r inside a transaction: Timelake applies it at once and"
                + " could not undo it at ROLLBACK. End the transaction first (COMMIT or ROLLBACK)"
                + " and run it on its own, in autocommit mode (psycopg: conn.autocommit = True;"
                + " JDBC: setAutoCommit(true)); inside a transaction only INSERT and COPY FROM"
                + " STDIN write to lake tables, at COMMIT");
  }

  @Test
  void insertSelectReadsTheClientsOwnTemporaryTableInsideTheTransaction() {
    run("BEGIN");
    run(
        "CREATE TEMPORARY TABLE batch AS SELECT 'tmp' AS device, TIMESTAMPTZ '2026-03-01' AS time,"
            + " 4.5 AS value");
    run("INSERT INTO iot.r SELECT * FROM batch");
    run("COMMIT");

    assertThat(rows("SELECT device, value FROM iot.r WHERE device = 'tmp'"))
        .containsExactly(List.of("tmp", 4.5));
  }

  @Test
  void valuesCallingTheClientsOwnMacroAreComputedOnTheClientsConnection() {
    run("CREATE TEMPORARY MACRO bump(x) AS x + 1");
    run("INSERT INTO iot.r VALUES ('m1', TIMESTAMPTZ '2026-03-01 00:00:00+00', bump(1))");
    run("BEGIN");
    run("INSERT INTO iot.r VALUES ('m2', TIMESTAMPTZ '2026-03-01 00:00:00+00', bump(2))");
    run("COMMIT");

    assertThat(rows("SELECT device, value FROM iot.r WHERE device LIKE 'm%' ORDER BY device"))
        .containsExactly(List.of("m1", 2.0), List.of("m2", 3.0));
  }

  @Test
  void copyFromCsvInsideTransactionIsHeldUntilCommit() throws Exception {
    Path csv = warehouse.resolveSibling(warehouse.getFileName() + "-copy.csv");
    Files.writeString(csv, "device,time,value\nc1,2026-01-01 00:00:00+00,7\n");
    try {
      run("BEGIN");
      assertThat(session.copyFrom(TableName.parse("iot.r"), csv).rowCount()).hasValue(1);
      run("ROLLBACK");
      assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo(3000);

      run("BEGIN");
      session.copyFrom(TableName.parse("iot.r"), csv).close();
      run("COMMIT");
      assertEveryRowIsThere(3001, 1441);
    } finally {
      Files.deleteIfExists(csv);
    }
  }

  /**
   * The per-table views a statement the parser cannot handle runs against are made on the client's
   * connection, inside its transaction: after ROLLBACK they are made again.
   */
  @Test
  void statementsOverFallbackViewsWorkAfterARollbackTookTheViews() {
    run("BEGIN");
    assertThat(count("FROM iot.r SELECT count(*)")).isEqualTo(3000);
    run("ROLLBACK");

    assertThat(count("FROM iot.r SELECT count(*)")).isEqualTo(3000);
    assertThat(count("SELECT 42")).isEqualTo(42);
    run("BEGIN");
    assertThat(count("FROM iot.r SELECT count(*)")).isEqualTo(3000);
    run("COMMIT");
    assertThat(count("FROM iot.r SELECT count(*)")).isEqualTo(3000);
  }

  @Test
  void settingsChangedInsideTransactionAreRestoredByRollback() {
    run("SET timelake.read_dedup = true");
    run("BEGIN");
    run("SET timelake.read_dedup = false");
    run("SET timelake.rollup_routing = false");
    run("ROLLBACK");

    assertThat(session.settings()).containsExactly(java.util.Map.entry("read-dedup", "true"));
  }

  @Test
  void secondRowInAnIndexIntervalIsRefusedAtTheInsert() {
    run(
        "CREATE TABLE market.bars (symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE) WITH"
            + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m')");
    run("BEGIN");
    run("INSERT INTO market.bars VALUES ('NVDA', '2026-01-02 14:30:00+00', 1)");

    assertThatThrownBy(
            () -> run("INSERT INTO market.bars VALUES ('NVDA', '2026-01-02 14:30:30+00', 2)"))
        .isInstanceOf(TimelakeException.class)
        .hasMessageContaining("NVDA");
    run("ROLLBACK");
    assertThat(count("SELECT count(*) FROM market.bars")).isZero();
  }

  @Test
  void literalTimesMeanTheClientsTimeZoneInsideAndOutsideTransactions() {
    run("SET TimeZone = 'America/New_York'");
    run("INSERT INTO iot.r VALUES ('ny', '2026-03-01 10:00:00', 1)");
    run("BEGIN");
    run("INSERT INTO iot.r VALUES ('ny', '2026-03-01 11:00:00', 2)");
    run("COMMIT");
    run("SET TimeZone = 'UTC'");

    assertThat(rows("SELECT CAST(time AS VARCHAR) FROM iot.r WHERE device = 'ny' ORDER BY time"))
        .containsExactly(List.of("2026-03-01 15:00:00+00"), List.of("2026-03-01 16:00:00+00"));
  }

  @Test
  void commitOrRollbackWithoutTransactionWarns() {
    QueryResult commit = run("COMMIT");
    QueryResult rollback = run("ROLLBACK");

    assertThat(commit.warnings()).containsExactly("there is no transaction in progress");
    assertThat(rollback.warnings()).containsExactly("there is no transaction in progress");
    run("BEGIN");
    assertThat(run("BEGIN").warnings())
        .containsExactly("there is already a transaction in progress");
    run("ROLLBACK");
  }

  @Test
  void savepointsAreRefused() {
    run("BEGIN");
    assertThatThrownBy(() -> run("SAVEPOINT before_load"))
        .hasMessageContaining("savepoints and two-phase commit are not supported");
    assertThat(session.transactionState()).isEqualTo(TransactionState.FAILED);
    run("ROLLBACK");
  }

  /**
   * A DuckDB transaction Timelake did not see (opened by a statement it passed to DuckDB whole)
   * holds only the client's own work: an INSERT commits at once and its inline compaction, which
   * runs on Timelake's connection, keeps every row.
   */
  @Test
  void transactionOpenedBehindTimelakesBackHoldsNoneOfItsWork() {
    run("BEGIN TRANSACTION; SELECT 1");
    run("INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1)");
    run("ROLLBACK");

    assertEveryRowIsThere(3001, 1441);
  }

  /**
   * Every row is read, with copies removed and with every copy shown (read_dedup = false, which
   * reads every live data file: none is missing), and the first day holds its rows.
   */
  private void assertEveryRowIsThere(long rows, long firstDay) {
    assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo(rows);
    assertThat(count("SELECT count(*) FROM iot.r WHERE time < '2026-01-02'")).isEqualTo(firstDay);
    try (Session raw = lake.newSession()) {
      raw.set("read_dedup", "false");
      try (QueryResult result = raw.sql("SELECT count(*) FROM iot.r")) {
        assertThat(((Number) result.rows().get(0).get(0)).longValue()).isEqualTo(rows);
      }
    }
  }

  /** Routed answers equal the answers from raw data. */
  private void assertRoutedEqualsRaw() {
    String query =
        "SELECT device, date_trunc('day', time) AS day, count(*) AS n, sum(value) AS total"
            + " FROM iot.r GROUP BY ALL ORDER BY ALL";
    List<List<Object>> routed = rows(query);
    try (Session raw = lake.newSession()) {
      raw.set("rollup_routing", "false");
      try (QueryResult result = raw.sql(query)) {
        assertThat(routed).isEqualTo(result.rows());
      }
    }
  }

  private List<dev.timelake.TableInfo.SnapshotInfo> snapshots() {
    return lake.table("iot.r").info().snapshots();
  }

  private long currentSnapshot() {
    return snapshots().get(snapshots().size() - 1).id();
  }

  private QueryResult run(String sql) {
    QueryResult result = session.sql(sql);
    result.close();
    return result;
  }

  private List<List<Object>> rows(String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private long count(String sql) {
    return ((Number) rows(sql).get(0).get(0)).longValue();
  }
}
