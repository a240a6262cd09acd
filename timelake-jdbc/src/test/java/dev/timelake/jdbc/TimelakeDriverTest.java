package dev.timelake.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver from plain JDBC and through HikariCP, on a real warehouse: statements, prepared
 * statements with parameters, batched INSERTs as one append, result types and metadata, session
 * settings as properties, and the errors of what it does not do.
 */
class TimelakeDriverTest {
  private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");

  @TempDir Path warehouse;
  private String url;

  @BeforeEach
  void createTable() throws SQLException {
    url = "jdbc:timelake:" + warehouse;
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      assertThat(
              statement.execute(
                  "CREATE TABLE iot.readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                      + " WITH (time_column = 'time', series_key = 'device')"))
          .isFalse();
    }
  }

  @Test
  void runsStatementsAndReadsRowsWithTheirSqlTypes() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      int inserted =
          statement.executeUpdate(
              "INSERT INTO iot.readings VALUES ('a', TIMESTAMPTZ '2026-05-01 00:00:00+00', 1.5),"
                  + " ('a', TIMESTAMPTZ '2026-05-01 00:01:00+00', 2.5)");
      assertThat(inserted).isEqualTo(2);
      try (ResultSet rows =
          statement.executeQuery("SELECT device, time, value FROM iot.readings ORDER BY time")) {
        ResultSetMetaData metadata = rows.getMetaData();
        assertThat(metadata.getColumnCount()).isEqualTo(3);
        assertThat(metadata.getColumnType(1)).isEqualTo(Types.VARCHAR);
        assertThat(metadata.getColumnType(2)).isEqualTo(Types.TIMESTAMP_WITH_TIMEZONE);
        assertThat(metadata.getColumnType(3)).isEqualTo(Types.DOUBLE);
        assertThat(rows.getStatement()).isSameAs(statement);
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString("device")).isEqualTo("a");
        assertThat(rows.getObject(2, OffsetDateTime.class))
            .isEqualTo(OffsetDateTime.of(2026, 5, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        assertThat(rows.getDouble(3)).isEqualTo(1.5);
        assertThat(rows.next()).isTrue();
        assertThat(rows.next()).isFalse();
      }
      assertThat(statement.execute("SELECT count(*) FROM iot.readings")).isTrue();
      try (ResultSet count = statement.getResultSet()) {
        count.next();
        assertThat(count.getLong(1)).isEqualTo(2);
      }
      try (ResultSet signal =
          statement.executeQuery(
              "SELECT time_weighted_mean(time, value), integral(time, value), gap_count(time, 30)"
                  + " FROM iot.readings")) {
        signal.next();
        assertThat(signal.getDouble(1)).isEqualTo(2.0);
        assertThat(signal.getDouble(2)).isEqualTo(120.0);
        assertThat(signal.getLong(3)).isEqualTo(1);
      }
      assertThat(statement.getUpdateCount()).isEqualTo(-1);
      assertThat(statement.getMoreResults()).isFalse();
    }
  }

  @Test
  void bindsParametersAsLiteralsAndCommitsABatchAsOneAppend() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO iot.readings VALUES (?, ?, ?)")) {
        for (int i = 0; i < 50; i++) {
          insert.setString(1, i % 2 == 0 ? "it's" : "b");
          insert.setObject(2, T0.plusSeconds(i));
          if (i == 7) {
            insert.setNull(3, Types.DOUBLE);
          } else {
            insert.setDouble(3, i / 10.0);
          }
          insert.addBatch();
        }
        int[] counts = insert.executeBatch();
        assertThat(counts).hasSize(50).containsOnly(Statement.SUCCESS_NO_INFO);
      }
      try (Statement statement = connection.createStatement();
          ResultSet snapshots =
              statement.executeQuery(
                  "SELECT count(*), count(value), sum(value), count(DISTINCT device) FROM"
                      + " iot.readings")) {
        snapshots.next();
        assertThat(snapshots.getLong(1)).isEqualTo(50);
        assertThat(snapshots.getLong(2)).isEqualTo(49);
        assertThat(snapshots.getDouble(3))
            .isCloseTo(122.5 - 0.7, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(snapshots.getLong(4)).isEqualTo(2);
      }
      try (PreparedStatement select =
          connection.prepareStatement(
              "SELECT value FROM iot.readings WHERE device = ? AND time >= ? AND value > ?"
                  + " ORDER BY time LIMIT 2")) {
        select.setString(1, "it's");
        select.setObject(2, OffsetDateTime.ofInstant(T0.plusSeconds(10), ZoneOffset.UTC));
        select.setBigDecimal(3, new java.math.BigDecimal("0.5"));
        List<Double> values = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            values.add(rows.getDouble(1));
          }
        }
        assertThat(values).containsExactly(1.0, 1.2);
        select.clearParameters();
        select.setString(1, "'; DROP TABLE iot.readings; --");
        assertThatThrownBy(select::executeQuery)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("Parameter 2 of 3 is not set");
      }
      assertThat(countRows(connection)).isEqualTo(50);
    }
  }

  @Test
  void holdsWritesUntilCommitWithAutoCommitOff() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      connection.setAutoCommit(false);
      assertThat(connection.getAutoCommit()).isFalse();
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(
            "INSERT INTO iot.readings VALUES ('a', '2026-01-01 00:00:00+00', 1)");
        assertThat(countRows(url)).isZero();
        connection.rollback();
        statement.executeUpdate(
            "INSERT INTO iot.readings VALUES ('b', '2026-01-01 00:00:00+00', 2)");
        connection.commit();
        assertThat(countRows(url)).isEqualTo(1);
        statement.executeUpdate(
            "INSERT INTO iot.readings VALUES ('c', '2026-01-01 00:00:00+00', 3)");
        assertThatThrownBy(
                () ->
                    statement.execute(
                        "CREATE TABLE iot.other (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                            + " WITH (time_column = 'time', series_key = 'device')"))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("inside a transaction");
        assertThatThrownBy(connection::commit)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("rolled back");
        statement.executeUpdate(
            "INSERT INTO iot.readings VALUES ('d', '2026-01-01 00:00:00+00', 4)");
      }
      // Turning auto-commit on commits the open transaction, as JDBC requires.
      connection.setAutoCommit(true);
    }
    assertThat(countRows(url)).isEqualTo(2);
  }

  @Test
  void aQueryPastItsTimeoutIsCancelledAndAnInsertCommitsNothing() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.setQueryTimeout(1);
      long started = System.nanoTime();
      assertThatThrownBy(
              () -> statement.executeQuery("SELECT sum(i) FROM range(1000000000000) t(i)"))
          .isInstanceOf(java.sql.SQLTimeoutException.class)
          .hasMessageContaining("query timeout of 1 s");
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - started))
          .isLessThan(java.time.Duration.ofSeconds(30));
      assertThatThrownBy(
              () ->
                  statement.executeUpdate(
                      "INSERT INTO iot.readings SELECT 'd' || (i % 10), TIMESTAMPTZ '2026-01-01'"
                          + " + i * INTERVAL '1 second', i FROM range(1000000000000) t(i)"
                          + " WHERE i % 1000000000 = 0 OR i < 5"))
          .isInstanceOf(java.sql.SQLTimeoutException.class);
      statement.setQueryTimeout(0);
      assertThat(countRows(connection)).isZero();
    }
  }

  @Test
  void cancelStopsTheRunningStatementFromAnotherThread() throws Exception {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      java.util.concurrent.ExecutorService other =
          java.util.concurrent.Executors.newSingleThreadExecutor();
      try {
        java.util.concurrent.Future<Object> running =
            other.submit(
                () -> statement.executeQuery("SELECT sum(i) FROM range(1000000000000) t(i)"));
        long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (!running.isDone() && System.nanoTime() < until) {
          statement.cancel();
          java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
        }
        assertThatThrownBy(running::get).hasCauseInstanceOf(SQLException.class);
      } finally {
        other.shutdownNow();
      }
      assertThat(countRows(connection)).isZero(); // the connection goes on working
    }
  }

  @Test
  void appendsOneSnapshotForABatch() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      int before = snapshots(connection);
      try (PreparedStatement insert =
          connection.prepareStatement(
              "INSERT INTO iot.readings (device, time, value) VALUES (?, ?, ?)")) {
        for (int i = 0; i < 20; i++) {
          insert.setString(1, "c");
          insert.setObject(2, T0.plusSeconds(i));
          insert.setInt(3, i);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      assertThat(snapshots(connection)).isEqualTo(before + 1);
    }
  }

  @Test
  void browsesNamespacesTablesAndColumns() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      DatabaseMetaData metadata = connection.getMetaData();
      assertThat(metadata.getDatabaseProductName()).isEqualTo("Timelake");
      try (ResultSet schemas = metadata.getSchemas()) {
        assertThat(schemas.next()).isTrue();
        assertThat(schemas.getString("TABLE_SCHEM")).isEqualTo("iot");
      }
      try (ResultSet tables = metadata.getTables(null, "io%", "%", new String[] {"TABLE"})) {
        assertThat(tables.next()).isTrue();
        assertThat(tables.getString("TABLE_SCHEM")).isEqualTo("iot");
        assertThat(tables.getString("TABLE_NAME")).isEqualTo("readings");
        assertThat(tables.getString("TABLE_TYPE")).isEqualTo("TABLE");
        assertThat(tables.next()).isFalse();
      }
      try (ResultSet none = metadata.getTables(null, "other", null, null)) {
        assertThat(none.next()).isFalse();
      }
      List<String> columns = new ArrayList<>();
      try (ResultSet rows = metadata.getColumns(null, "iot", "readings", null)) {
        while (rows.next()) {
          columns.add(
              rows.getString("COLUMN_NAME")
                  + " "
                  + rows.getInt("DATA_TYPE")
                  + " "
                  + rows.getString("IS_NULLABLE")
                  + " "
                  + rows.getInt("ORDINAL_POSITION"));
        }
      }
      assertThat(columns)
          .startsWith(
              "device " + Types.VARCHAR + " NO 1",
              "time " + Types.TIMESTAMP_WITH_TIMEZONE + " NO 2",
              "value " + Types.DOUBLE + " YES 3");
      try (ResultSet keys = metadata.getPrimaryKeys(null, "iot", "readings")) {
        assertThat(keys.next()).isFalse();
      }
    }
  }

  @Test
  void takesSessionSettingsAsProperties() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "INSERT INTO iot.readings VALUES ('a', TIMESTAMPTZ '2026-05-01 00:00:00+00', 1.0)");
      statement.executeUpdate(
          "INSERT INTO iot.readings VALUES ('a', TIMESTAMPTZ '2026-05-01 00:00:00+00', 2.0)");
    }
    assertThat(countRows(url)).isEqualTo(1);
    Properties noDedup = new Properties();
    noDedup.setProperty("read-dedup", "false");
    noDedup.setProperty("user", "ignored");
    try (Connection connection = DriverManager.getConnection(url, noDedup)) {
      assertThat(countRows(connection)).isEqualTo(2);
    }
    assertThat(countRows(url + "?read-dedup=false")).isEqualTo(2);
    Properties wrong = new Properties();
    wrong.setProperty("no-such-setting", "1");
    assertThatThrownBy(() -> DriverManager.getConnection(url, wrong))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("no-such-setting");
  }

  @Test
  void worksThroughAConnectionPool() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(2);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      for (int i = 0; i < 3; i++) {
        try (Connection connection = pool.getConnection();
            PreparedStatement insert =
                connection.prepareStatement("INSERT INTO iot.readings VALUES ('p', ?, ?)")) {
          insert.setObject(1, T0.plusSeconds(i));
          insert.setLong(2, i);
          assertThat(insert.executeUpdate()).isEqualTo(1);
        }
      }
      try (Connection connection = pool.getConnection()) {
        assertThat(countRows(connection)).isEqualTo(3);
        assertThat(connection.isValid(1)).isTrue();
      }
    }
  }

  @Test
  void namesWhatItDoesNotDo() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      assertThatThrownBy(connection::rollback)
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("auto-commit mode");
      assertThatThrownBy(
              () ->
                  connection.createStatement(
                      ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY))
          .isInstanceOf(SQLFeatureNotSupportedException.class)
          .hasMessageContaining("forward-only");
      assertThatThrownBy(() -> connection.prepareCall("CALL nothing()"))
          .isInstanceOf(SQLFeatureNotSupportedException.class)
          .hasMessageContaining("Connection.prepareCall");
      try (Statement statement = connection.createStatement()) {
        assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM iot.nope"))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("iot.nope")
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("42P01");
        assertThatThrownBy(() -> statement.executeUpdate("SELECT 1"))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("use executeQuery");
      }
    }
    connectionClosedAfterUse();
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:timelake:"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("names no warehouse");
  }

  private void connectionClosedAfterUse() throws SQLException {
    Connection connection = DriverManager.getConnection(url);
    connection.close();
    assertThat(connection.isClosed()).isTrue();
    assertThat(connection.isValid(0)).isFalse();
    assertThatThrownBy(connection::createStatement)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("is closed");
  }

  private static long countRows(String url) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      return countRows(connection);
    }
  }

  @Test
  void aConnectionUnwrapsToItsSessionAndLakeWhileOpen() throws SQLException {
    Connection connection = DriverManager.getConnection(url);
    assertThat(connection.isWrapperFor(dev.timelake.Session.class)).isTrue();
    assertThat(connection.isWrapperFor(dev.timelake.Lake.class)).isTrue();
    assertThat(connection.isWrapperFor(String.class)).isFalse();
    try (dev.timelake.QueryResult one =
        connection.unwrap(dev.timelake.Session.class).sql("SELECT 1 AS one")) {
      assertThat(one.rows()).containsExactly(List.of(1));
    }
    assertThat(connection.unwrap(dev.timelake.Lake.class).table("iot.readings").name())
        .hasToString("iot.readings");
    assertThatThrownBy(() -> connection.unwrap(String.class))
        .isInstanceOf(SQLException.class)
        .hasMessage("A Timelake connection is not a java.lang.String");
    connection.close();
    assertThatThrownBy(() -> connection.unwrap(dev.timelake.Session.class))
        .isInstanceOf(SQLException.class);
  }

  private static long countRows(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT count(*) FROM iot.readings")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static int snapshots(Connection connection) throws SQLException {
    return connection
        .unwrap(TimelakeConnection.class)
        .lake()
        .table("iot.readings")
        .info()
        .snapshots()
        .size();
  }
}
