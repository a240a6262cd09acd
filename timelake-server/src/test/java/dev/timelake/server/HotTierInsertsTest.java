package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL clients' INSERTs and COPYs on the hot tier: a one-row insert of constants (pgjdbc's
 * bound parameters), or a COPY once checked, is answered once in the tier's log and committed
 * later; the connection's next read sees it; inside a transaction, or when the tier cannot convert
 * a value, the INSERT commits as before; after a crash every answered insert is committed once, and
 * the newest write of a key wins.
 */
class HotTierInsertsTest extends WithLineProtocolServer {
  private static final HotTierSettings HELD =
      new HotTierSettings(1_000_000, Duration.ofHours(1), 64L << 20);

  private TieredServers served;
  private Connection connection;

  @BeforeEach
  void startTier() throws Exception {
    sql(
        "CREATE TABLE iot.readings (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'tag')");
    start();
  }

  private void start() throws Exception {
    served = TieredServers.start(lake, HELD);
    connection = served.connection;
  }

  @AfterEach
  void stop() throws Exception {
    if (served != null) {
      served.close();
      served = null;
    }
  }

  private void insert(int count, double value) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO iot.readings VALUES (?, ?, ?)")) {
      for (int i = 0; i < count; i++) {
        insert.setString(1, "pump-" + (i % 3));
        insert.setTimestamp(2, new Timestamp(1_767_225_600_000L + i * 1000L));
        insert.setDouble(3, value);
        assertThat(insert.executeUpdate()).isEqualTo(1);
      }
    }
  }

  private long committed() {
    return ((Number) rows("SELECT count(*) FROM iot.readings").get(0).get(0)).longValue();
  }

  private List<Object> read(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return List.of(result.getObject(1));
    }
  }

  @Test
  void aOneRowInsertIsAnsweredOnceHeldAndTheConnectionReadsIt() throws Exception {
    insert(20, 1.5);
    assertThat(committed()).isZero(); // held in the log, not committed
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(20);
    assertThat(read("SELECT count(*) FROM iot.readings")).containsExactly(20L);
    assertThat(committed()).as("read as held, not committed").isZero();
    HotTier.of(lake).orElseThrow().flush(java.time.Duration.ofSeconds(30));
    assertThat(committed()).isEqualTo(20);
    assertThat(snapshots("iot.readings")).isEqualTo(1); // one append for the 20 inserts
    assertThat(lake.table("iot.readings").snapshots().get(0).summary())
        .containsEntry("timelake.user", "tl");
  }

  @Test
  void aBatchOfInsertsSharesForcesOfTheLog() throws Exception {
    long before = HotTier.of(lake).orElseThrow().logForces();
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO iot.readings VALUES (?, ?, ?)")) {
      for (int i = 0; i < 200; i++) {
        insert.setString(1, "pump-" + i);
        insert.setTimestamp(2, new Timestamp(1_767_225_600_000L));
        insert.setDouble(3, i);
        insert.addBatch();
      }
      assertThat(insert.executeBatch()).hasSize(200).containsOnly(1);
    }
    long forces = HotTier.of(lake).orElseThrow().logForces() - before;
    assertThat(forces).as("forces for 200 pipelined inserts").isPositive().isLessThan(20);
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(200);
    assertThat(read("SELECT count(*) FROM iot.readings")).containsExactly(200L);
  }

  @Test
  void settingsAndCatalogQueriesLeaveHeldRowsHeld() throws Exception {
    insert(5, 1.5);
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET application_name = 'dashboard'");
      assertThat(HotTier.of(lake).orElseThrow().stats().rows()).as("after SET").isEqualTo(5);
      statement.execute("SET timelake.read_dedup = true");
      assertThat(HotTier.of(lake).orElseThrow().stats().rows())
          .as("after SET timelake")
          .isEqualTo(5);
      try (ResultSet tables = connection.getMetaData().getTables(null, "iot", "%", null)) {
        assertThat(tables.next()).isTrue(); // pgjdbc's catalog query
      }
    }
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(5);
    assertThat(read("SELECT count(*) FROM iot.readings")).containsExactly(5L);
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).as("read as held").isEqualTo(5);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE iot.other (tag VARCHAR, time TIMESTAMPTZ)");
    }
    assertThat(HotTier.of(lake).orElseThrow().stats().rows())
        .as("committed before a statement that may read any table")
        .isZero();
  }

  @Test
  void aSessionWithTheHotTierOffCommitsEachInsert() throws Exception {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET timelake.hot_tier = off");
    }
    insert(2, 1.5);
    assertThat(committed()).isEqualTo(2);
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isZero();
  }

  @Test
  void aCatalogQueryThatReadsALakeTableReadsWhatWasAnswered() throws Exception {
    insert(3, 1.5);
    assertThat(
            read(
                "SELECT count(*) FROM iot.readings, pg_catalog.pg_namespace n"
                    + " WHERE n.nspname = 'iot'"))
        .containsExactly(3L);
  }

  @Test
  void anInsertInATransactionCommitsWithIt() throws Exception {
    connection.setAutoCommit(false);
    insert(2, 1.5);
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isZero();
    connection.commit();
    assertThat(committed()).isEqualTo(2);
  }

  @Test
  void anInsertTheTierCannotConvertIsCommittedAsBefore() throws Exception {
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "INSERT INTO iot.readings VALUES ('a', '2026-01-01 00:00:00+00', 1e5)");
      assertThat(committed()).isEqualTo(1); // a DOUBLE literal only DuckDB reads: committed at once
      assertThatThrownBy(
              () ->
                  statement.executeUpdate(
                      "INSERT INTO iot.readings VALUES ('b', '2026-01-01 00:00:00+00', 'high')"))
          .hasMessageContaining("iot.readings")
          .hasMessageContaining("high");
      assertThatThrownBy(
              () -> statement.executeUpdate("INSERT INTO iot.readings VALUES ('b', NULL, 1)"))
          .hasMessageContaining("column 'time' is null");
      statement.executeUpdate(
          "INSERT INTO iot.readings SELECT tag, time + INTERVAL 1 HOUR, value FROM iot.readings");
    }
    assertThat(committed()).isEqualTo(2);
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isZero();
  }

  @Test
  void afterACrashEveryAnsweredInsertIsCommittedOnce() throws Exception {
    insert(30, 1.5);
    HotTier.of(lake).orElseThrow().halt(); // as a crash: nothing committed, the log stays
    stop();
    assertThat(committed()).isZero();
    start(); // commits what the log holds before it listens
    assertThat(committed()).isEqualTo(30);
    stop();
    start();
    assertThat(committed()).isEqualTo(30);
    assertThat(snapshots("iot.readings")).isEqualTo(1); // the 30 inserts in one append, once
  }

  private long copy(String csv) throws SQLException, java.io.IOException {
    return connection
        .unwrap(org.postgresql.PGConnection.class)
        .getCopyAPI()
        .copyIn("COPY iot.readings FROM STDIN (FORMAT csv)", new java.io.StringReader(csv));
  }

  @Test
  void aCopyIsAnsweredOnceHeldAndAfterACrashCommittedOnce() throws Exception {
    String csv =
        "pump-1,2026-01-01 00:00:00+00,1.5\n"
            + "pump-2,2026-01-01 00:00:00+00,2.5\n"
            + "pump-1,2026-01-01 00:00:00+00,3.5\n"; // a copy of the first row's key: kept once
    assertThat(copy(csv)).as("rows copied, a copy of a key counted once").isEqualTo(2);
    assertThat(committed()).isZero(); // held in the log, not committed
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(3);
    HotTier.of(lake).orElseThrow().halt(); // as a crash: nothing committed, the log stays
    stop();
    start(); // commits what the log holds before it listens
    assertThat(rows("SELECT tag, value FROM iot.readings ORDER BY tag"))
        .containsExactly(List.of("pump-1", 3.5), List.of("pump-2", 2.5));
    assertThat(snapshots("iot.readings")).isEqualTo(1);
  }

  @Test
  void aCopyWithABadValueIsRefusedAndHoldsNothing() throws Exception {
    assertThatThrownBy(() -> copy("pump-1,2026-01-01 00:00:00+00,1.5\npump-2,yesterday,2\n"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("time")
        .hasMessageContaining("yesterday");
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isZero();
    assertThat(read("SELECT count(*) FROM iot.readings")).containsExactly(0L);
  }

  @Test
  void aServerWithoutAnHttpPortHoldsInsertsAndCopiesToo() throws Exception {
    stop();
    served = TieredServers.startWithoutHttp(lake, HELD);
    connection = served.connection;
    insert(5, 1.5);
    copy("pump-9,2026-01-01 00:00:00+00,9.5\n");
    assertThat(committed()).isZero();
    assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(6);
    stop(); // the tier commits what it holds as it closes
    assertThat(committed()).isEqualTo(6);
    assertThat(HotTier.of(lake)).isEmpty();
  }

  @Test
  void theNewestWriteOfAKeyWinsWhicheverPathItTook() throws Exception {
    insert(1, 1.0); // held
    insert(1, 2.0); // held, later
    assertThat(read("SELECT value FROM iot.readings")).containsExactly(2.0);
    connection.setAutoCommit(false);
    insert(1, 3.0); // committed with the transaction
    connection.commit();
    connection.setAutoCommit(true);
    insert(1, 4.0); // held again, newer than the transaction's
    assertThat(read("SELECT value FROM iot.readings")).containsExactly(4.0);
  }
}
