package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The server with real PostgreSQL clients on loopback: pgjdbc in simple-query and extended mode
 * (prepared statements with parameters, named statements and binary results past its prepare
 * threshold) and psql (when installed; .ci/run installs it): statements, rows with PostgreSQL
 * types, command tags, several statements in one query, and errors with their SQLSTATE.
 */
class PgServerTest extends WithPgServer {
  private static final String PASSWORD = "test password";
  private static final Credentials CREDENTIALS = new Credentials("tl", PASSWORD);

  PgServerTest() {
    super(PASSWORD);
  }

  @Test
  void runsTimelakeSqlForPgjdbc() throws SQLException {
    try (Connection connection = connect("simple");
        Statement statement = connection.createStatement()) {
      assertThat(
              statement.execute(
                  "CREATE TABLE iot.readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                      + " WITH (time_column = 'time', series_key = 'device')"))
          .isFalse();
      assertThat(
              statement.executeUpdate(
                  "INSERT INTO iot.readings VALUES ('a', '2026-05-01 00:00:00.5+00', 1.5),"
                      + " ('b', '2026-05-01 00:01:00+00', NULL)"))
          .isEqualTo(2);
      try (ResultSet rows =
          statement.executeQuery(
              "SELECT device, time, value, value IS NULL AS missing, 7::BIGINT AS n FROM"
                  + " iot.readings ORDER BY device")) {
        assertThat(rows.getMetaData().getColumnTypeName(2)).isEqualTo("timestamptz");
        assertThat(rows.getMetaData().getColumnTypeName(3)).isEqualTo("float8");
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).isEqualTo("a");
        assertThat(rows.getObject(2, OffsetDateTime.class))
            .isEqualTo(OffsetDateTime.of(2026, 5, 1, 0, 0, 0, 500_000_000, ZoneOffset.UTC));
        assertThat(rows.getDouble(3)).isEqualTo(1.5);
        assertThat(rows.getBoolean(4)).isFalse();
        assertThat(rows.getLong(5)).isEqualTo(7);
        assertThat(rows.next()).isTrue();
        assertThat(rows.getObject(3)).isNull();
        assertThat(rows.getBoolean(4)).isTrue();
        assertThat(rows.next()).isFalse();
      }
      try (ResultSet twa =
          statement.executeQuery(
              "SELECT time_weighted_mean(time, value) FROM iot.readings WHERE device = 'a'")) {
        twa.next();
        assertThat(twa.getDouble(1)).isEqualTo(1.5);
      }
      assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM iot.nope"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("iot.nope")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42P01");
      try (ResultSet after = statement.executeQuery("SELECT count(*) FROM iot.readings")) {
        after.next();
        assertThat(after.getLong(1)).isEqualTo(2); // the error left the connection usable
      }
    }
  }

  @Test
  void servesPgjdbcPreparedStatementsOverTheExtendedProtocol() throws SQLException {
    try (Connection connection = connect("extended")) {
      try (Statement statement = connection.createStatement()) {
        statement.execute(
            "CREATE TABLE iot.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE, n BIGINT) WITH"
                + " (time_column = 'time', series_key = 'tag')");
      }
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO iot.r VALUES (?, ?, ?, ?)")) {
        for (int i = 0; i < 8; i++) {
          insert.setString(1, i % 2 == 0 ? "it's" : "b");
          insert.setObject(2, OffsetDateTime.of(2026, 5, 1, 0, 0, i, 250_000_000, ZoneOffset.UTC));
          insert.setDouble(3, i / 4.0);
          insert.setLong(4, i);
          assertThat(insert.executeUpdate()).isEqualTo(1);
        }
      }
      // Past pgjdbc's prepareThreshold (5): named statements, binary results.
      try (PreparedStatement select =
          connection.prepareStatement(
              "SELECT tag, time, value, n FROM iot.r WHERE tag = ? AND n >= ? ORDER BY time")) {
        for (int run = 0; run < 7; run++) {
          select.setString(1, "it's");
          select.setInt(2, 2);
          List<String> rows = new ArrayList<>();
          try (ResultSet result = select.executeQuery()) {
            while (result.next()) {
              rows.add(
                  result.getString(1)
                      + " "
                      + result.getObject(2, OffsetDateTime.class)
                      + " "
                      + result.getDouble(3)
                      + " "
                      + result.getLong(4));
            }
          }
          assertThat(rows)
              .as("run %d", run)
              .containsExactly(
                  "it's 2026-05-01T00:00:02.250Z 0.5 2",
                  "it's 2026-05-01T00:00:04.250Z 1.0 4",
                  "it's 2026-05-01T00:00:06.250Z 1.5 6");
        }
      }
      try (PreparedStatement missing =
          connection.prepareStatement("SELECT * FROM iot.nope WHERE 1 = ?")) {
        missing.setInt(1, 1);
        assertThatThrownBy(missing::executeQuery)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("iot.nope");
      }
      try (Statement statement = connection.createStatement();
          ResultSet count = statement.executeQuery("SELECT count(*) FROM iot.r")) {
        count.next();
        assertThat(count.getLong(1)).isEqualTo(8); // usable after the error
      }
    }
  }

  @Test
  void requiresThePasswordItWasGiven() throws Exception {
    try (PgServer guarded =
        PgServer.start(
            lake, new InetSocketAddress("127.0.0.1", 0), new Credentials("tl", "s3cret pass"))) {
      String url = "jdbc:postgresql://127.0.0.1:" + guarded.port() + "/timelake";
      try (Connection connection = DriverManager.getConnection(url, "tl", "s3cret pass");
          Statement statement = connection.createStatement();
          ResultSet one = statement.executeQuery("SELECT 1")) {
        one.next();
        assertThat(one.getInt(1)).isEqualTo(1);
      }
      assertThatThrownBy(() -> DriverManager.getConnection(url, "tl", "wrong"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Password authentication failed for user \"tl\"")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("28P01");
      assertThatThrownBy(() -> DriverManager.getConnection(url, "someone", "s3cret pass"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Password authentication failed for user \"someone\"");
      if (new ProcessBuilder("psql", "--version").start().waitFor() == 0) {
        assertThat(psql(guarded.port(), "s3cret pass", "SELECT 41 + 1")).containsExactly("42");
        assertThat(psql(guarded.port(), "nope", "SELECT 1"))
            .anyMatch(line -> line.contains("Password authentication failed"));
      }
    }
  }

  @Test
  void keepsClientsToTheWarehouseFolder() throws Exception {
    Path outside = Files.createTempFile("timelake-outside", ".csv");
    Files.writeString(outside, "secret\n1\n");
    try (Connection connection = connect("simple");
        Statement statement = connection.createStatement()) {
      // Files outside the warehouse are out of the engine's reach for every session.
      for (String sql :
          List.of(
              "SELECT * FROM read_csv('" + outside + "')",
              "SELECT * FROM read_csv('" + warehouse + "/../" + outside.getFileName() + "')")) {
        assertThatThrownBy(() -> statement.execute(sql))
            .as(sql)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("Permission Error");
      }
      // What would write files or reach beyond the session is refused before it runs.
      for (String sql :
          List.of(
              "COPY (SELECT 1 AS a) TO '" + outside.getParent().resolve("written.csv") + "'",
              "ATTACH '" + outside.getParent().resolve("other.db") + "'",
              "INSTALL httpfs")) {
        assertThatThrownBy(() -> statement.execute(sql))
            .as(sql)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("on this server")
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("42501");
      }
      statement.execute(
          "CREATE TABLE iot.c (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
              + " 'time', series_key = 'tag')");
      assertThat(
              statement.executeUpdate(
                  "INSERT INTO iot.c VALUES ('x', '2026-01-01 00:00:00+00', 1.0)"))
          .isEqualTo(1);
      try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM iot.c")) {
        rows.next();
        assertThat(rows.getLong(1)).isEqualTo(1);
      }
    } finally {
      Files.deleteIfExists(outside);
    }
    assertThat(outside.getParent().resolve("written.csv")).doesNotExist();
  }

  @Test
  void servesClientsAtOnceWhileTheyAppend() throws Exception {
    try (Connection connection = connect("simple");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE iot.m (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
              + " 'time', series_key = 'tag')");
    }
    int clients = 4;
    int appends = 12;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(clients);
    try {
      List<java.util.concurrent.Future<Long>> results = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        String tag = "client-" + c;
        String mode = c % 2 == 0 ? "simple" : "extended";
        results.add(
            pool.submit(
                () -> {
                  long seen = 0;
                  try (Connection connection = connect(mode);
                      PreparedStatement insert =
                          connection.prepareStatement("INSERT INTO iot.m VALUES (?, ?, ?)");
                      PreparedStatement count =
                          connection.prepareStatement("SELECT count(*) FROM iot.m WHERE tag = ?")) {
                    for (int i = 0; i < appends; i++) {
                      insert.setString(1, tag);
                      insert.setObject(
                          2, OffsetDateTime.of(2026, 1, 1, 0, 0, i, 0, ZoneOffset.UTC));
                      insert.setDouble(3, i);
                      insert.executeUpdate();
                      count.setString(1, tag);
                      try (ResultSet rows = count.executeQuery()) {
                        rows.next();
                        seen = rows.getLong(1);
                        assertThat(seen).isEqualTo(i + 1); // each client sees its own appends
                      }
                    }
                  }
                  return seen;
                }));
      }
      for (java.util.concurrent.Future<Long> result : results) {
        assertThat(result.get(2, TimeUnit.MINUTES)).isEqualTo(appends);
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection connection = connect("simple");
        Statement statement = connection.createStatement();
        ResultSet total = statement.executeQuery("SELECT count(*) FROM iot.m")) {
      total.next();
      assertThat(total.getLong(1)).isEqualTo((long) clients * appends);
    }
  }

  @Test
  void copiesCsvFromTheClientAsOneAppend() throws Exception {
    try (Connection connection = connect("extended")) {
      try (Statement statement = connection.createStatement()) {
        statement.execute(
            "CREATE TABLE iot.k (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
                + " 'time', series_key = 'tag')");
      }
      org.postgresql.copy.CopyManager copy =
          connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      long copied =
          copy.copyIn(
              "COPY iot.k FROM STDIN (FORMAT csv)",
              new java.io.StringReader(
                  "a,2026-01-01 00:00:00+00,1.5\nb,2026-01-01 00:00:01+00,\n\"c,d\",2026-01-01"
                      + " 00:00:02+00,3\n"));
      assertThat(copied).isEqualTo(3);
      assertThat(
              copy.copyIn(
                  "COPY iot.k (time, tag, value) FROM STDIN CSV HEADER",
                  new java.io.StringReader("time,tag,value\n2026-01-01 00:00:03+00,a,4.5\n")))
          .isEqualTo(1);
      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY iot.k FROM STDIN", new java.io.StringReader("a\t2026-01-01\t1\n")))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("reads CSV only");
      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY iot.k FROM STDIN (FORMAT csv)",
                      new java.io.StringReader("a,not a time,1\n")))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("time");
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT tag, value FROM iot.k ORDER BY time")) {
        List<String> seen = new ArrayList<>();
        while (rows.next()) {
          seen.add(rows.getString(1) + "=" + rows.getObject(2));
        }
        assertThat(seen).containsExactly("a=1.5", "b=null", "c,d=3.0", "a=4.5");
      }
    }
    assertThat(Files.list(lake.stagingDirectory())).isEmpty(); // no staging file left behind
  }

  @Test
  void copyErrorsNameTheLineAsTheClientSentItAndNoStagingFile() throws Exception {
    try (Connection connection = connect("extended")) {
      try (Statement statement = connection.createStatement()) {
        statement.execute(
            "CREATE TABLE iot.lines (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH"
                + " (time_column = 'time', series_key = 'tag')");
      }
      org.postgresql.copy.CopyManager copy =
          connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      String rows = "a,2026-01-01 00:00:00+00,1.5\nb,2026-01-01 00:00:01+00,oops\n";

      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY iot.lines FROM STDIN (FORMAT csv, HEADER)",
                      new java.io.StringReader("tag,time,value\n" + rows)))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining(
              "Cannot append to iot.lines: cannot read the COPY data: line 3, column value:"
                  + " 'oops' is not a valid DOUBLE")
          .message()
          .doesNotContain(lake.stagingDirectory().toString(), "copy-", "__tl", "read_csv");
      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY iot.lines FROM STDIN (FORMAT csv)", new java.io.StringReader(rows)))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("cannot read the COPY data: line 2, column value:");
      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY iot.lines FROM STDIN (FORMAT csv)",
                      new java.io.StringReader("a,2026-01-01 00:00:00+00\n")))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining(
              "cannot read the COPY data: line 1 has 2 fields, expected 3 like the columns given");
    }
  }

  @Test
  void cancelsARunningStatementAndKeepsTheConnection() throws Exception {
    String slow = "SELECT count(*) FROM range(100000000000) AS t(i) WHERE i % 7 = 3";
    try (Connection connection = connect("extended");
        Statement statement = connection.createStatement()) {
      java.util.concurrent.CompletableFuture<Throwable> failure =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  statement.executeQuery(slow);
                  return null;
                } catch (SQLException e) {
                  return e;
                }
              });
      Thread.sleep(500);
      statement.cancel();
      Throwable cancelled = failure.get(30, TimeUnit.SECONDS);
      assertThat(cancelled).isInstanceOf(SQLException.class);
      assertThat(((SQLException) cancelled).getSQLState()).isEqualTo("57014");
      statement.setQueryTimeout(1); // pgjdbc cancels through the same request
      assertThatThrownBy(() -> statement.executeQuery(slow))
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("57014");
      statement.setQueryTimeout(0);
      try (ResultSet one = statement.executeQuery("SELECT 1")) {
        one.next();
        assertThat(one.getInt(1)).isEqualTo(1);
      }
    }
  }

  @Test
  void limitsConnectionsAndStatementTime() throws Exception {
    try (PgServer limited =
        PgServer.start(
            lake,
            new InetSocketAddress("127.0.0.1", 0),
            CREDENTIALS,
            new ServerLimits(1, java.time.Duration.ofMillis(700)))) {
      String url = "jdbc:postgresql://127.0.0.1:" + limited.port() + "/t?preferQueryMode=simple";
      try (Connection first = DriverManager.getConnection(url, "tl", PASSWORD)) {
        assertThatThrownBy(() -> DriverManager.getConnection(url, "tl", PASSWORD).close())
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("Too many connections: this server admits 1 at once");
        try (Statement statement = first.createStatement()) {
          assertThatThrownBy(
                  () ->
                      statement.executeQuery(
                          "SELECT count(*) FROM range(100000000000) AS t(i) WHERE i % 7 = 3"))
              .isInstanceOf(SQLException.class)
              .hasMessageContaining("statement timeout of 700 ms")
              .extracting(e -> ((SQLException) e).getSQLState())
              .isEqualTo("57014");
          try (ResultSet one = statement.executeQuery("SELECT 1")) {
            one.next();
            assertThat(one.getInt(1)).isEqualTo(1);
          }
        }
      }
    }
  }

  @Test
  void refusesToStartWithoutAPassword() {
    assertThatThrownBy(() -> PgServer.start(lake, new InetSocketAddress("127.0.0.1", 0), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("admits nobody without a password")
        .hasMessageContaining("TIMELAKE_PASSWORD");
  }

  @Test
  void psqlsStatementTimeoutCancelsALongStatement() throws Exception {
    assumeTrue(
        new ProcessBuilder("psql", "--version").start().waitFor() == 0,
        "psql is not installed (.ci/run installs it)");
    List<String> lines =
        psql(
            "SET application_name = 'dashboard'; SET statement_timeout = '1s'; SELECT sum(i) FROM"
                + " range(1000000000000) t(i); ");

    assertThat(lines).anyMatch(line -> line.contains("statement_timeout of 1000 ms"));
  }

  @Test
  void answersPsql() throws Exception {
    assumeTrue(
        new ProcessBuilder("psql", "--version").start().waitFor() == 0,
        "psql is not installed (.ci/run installs it)");
    List<String> lines =
        psql(
            "CREATE TABLE iot.t (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
                + " 'time', series_key = 'tag'); INSERT INTO iot.t VALUES ('x',"
                + " '2026-01-01 00:00:00+00', 2.5); SELECT tag, time, value FROM iot.t; SELECT"
                + " 'it''s; fine' AS text");
    assertThat(lines)
        .containsExactly(
            "CREATE TABLE", "INSERT 0 1", "x|2026-01-01 00:00:00+00|2.5", "it's; fine");
    assertThat(psql("SELECT * FROM iot.nope")).anyMatch(line -> line.contains("iot.nope"));
    Path csv = warehouse.resolveSibling("readings-" + server.port() + ".csv");
    Files.writeString(
        csv, "tag,time,value\ny,2026-01-01 00:00:00+00,1\nz,2026-01-01 00:00:01+00,2\n");
    try {
      assertThat(psql("\\copy iot.t FROM '" + csv + "' CSV HEADER")).containsExactly("COPY 2");
      assertThat(psql("SELECT count(*) FROM iot.t")).containsExactly("3");
    } finally {
      Files.deleteIfExists(csv);
    }
  }

  @Test
  void psqlListsAndDescribesTheLakeTables() throws Exception {
    assumeTrue(
        new ProcessBuilder("psql", "--version").start().waitFor() == 0,
        "psql is not installed (.ci/run installs it)");
    psql(
        "CREATE TABLE iot.t (tag VARCHAR NOT NULL, time TIMESTAMPTZ NOT NULL, value DOUBLE) WITH"
            + " (time_column = 'time', series_key = 'tag')");
    assertThat(psql("\\dt")).containsExactly("iot|t|table|timelake");
    assertThat(psql("\\dn")).containsExactly("iot|timelake");
    assertThat(psql("\\d iot.t"))
        .startsWith(
            "tag|character varying|||",
            "time|timestamp with time zone|||",
            "value|double precision|||");
  }

  @Test
  void pgjdbcMetadataListsTablesAndColumns() throws SQLException {
    try (Connection connection = connect("extended");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE plant.flows (line VARCHAR, time TIMESTAMPTZ, litres DOUBLE) WITH"
              + " (time_column = 'time', series_key = 'line')");
      java.sql.DatabaseMetaData meta = connection.getMetaData();
      List<String> tables = new ArrayList<>();
      try (ResultSet rows = meta.getTables(null, "plant", "%", new String[] {"TABLE"})) {
        while (rows.next()) {
          tables.add(rows.getString("TABLE_SCHEM") + "." + rows.getString("TABLE_NAME"));
        }
      }
      assertThat(tables).containsExactly("plant.flows");
      List<String> columns = new ArrayList<>();
      try (ResultSet rows = meta.getColumns(null, "plant", "flows", "%")) {
        while (rows.next()) {
          columns.add(rows.getString("COLUMN_NAME") + ":" + rows.getString("TYPE_NAME"));
        }
      }
      assertThat(columns).startsWith("line:varchar", "time:timestamptz", "litres:float8");
      List<String> schemas = new ArrayList<>();
      try (ResultSet rows = meta.getSchemas()) {
        while (rows.next()) {
          schemas.add(rows.getString("TABLE_SCHEM"));
        }
      }
      assertThat(schemas).contains("plant");
    }
  }

  private List<String> psql(String sql) throws Exception {
    return psql(server.port(), PASSWORD, sql);
  }

  private static List<String> psql(int port, String password, String sql) throws Exception {
    return outputOf(psqlCommand(port, "-c", sql), password, Duration.ofSeconds(30));
  }
}
