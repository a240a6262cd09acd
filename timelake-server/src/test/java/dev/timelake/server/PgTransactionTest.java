package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transactions as real PostgreSQL clients open them — psql's BEGIN … COMMIT, psycopg2 in its
 * default mode (a transaction before the first statement) and in autocommit mode, pgjdbc with
 * auto-commit off, COPY FROM STDIN inside a transaction — on a table with inline maintenance on,
 * with and without a rollup: no committed row is ever lost, ROLLBACK discards what the transaction
 * wrote, and every live data file is there to read.
 */
class PgTransactionTest extends WithPgServer {
  private static final String PASSWORD = "test password";
  private static final String ROW = "INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1)";

  PgTransactionTest() {
    super(PASSWORD);
  }

  /**
   * iot.r: 3,000 readings a minute apart from 2026-01-01, inline maintenance on, before any client.
   */
  @BeforeEach
  void createReadings() {
    try (Session session = lake.newSession()) {
      session
          .sql(
              "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                  + " WITH (time_column = 'time', series_key = 'device')")
          .close();
      session
          .sql(
              "INSERT INTO iot.r SELECT 'd' || (i % 5), TIMESTAMPTZ '2026-01-01 00:00:00+00' + i"
                  + " * INTERVAL '1 minute', i FROM range(0, 3000) t(i)")
          .close();
    }
  }

  @ParameterizedTest(name = "with a rollup: {0}")
  @ValueSource(booleans = {false, true})
  void psqlCommitKeepsEveryRowAndRollbackDiscards(boolean withRollup) throws Exception {
    assumeTrue(installed("psql", "--version"), "psql is not installed (.ci/run installs it)");
    createRollupIf(withRollup);

    assertThat(psql("-c", "BEGIN", "-c", ROW, "-c", "COMMIT"))
        .containsExactly("BEGIN", "INSERT 0 1", "COMMIT");
    assertEveryRowIsThere(3001);
    assertThat(psql("-c", "BEGIN", "-c", ROW.replace("zz", "zy"), "-c", "ROLLBACK"))
        .containsExactly("BEGIN", "INSERT 0 1", "ROLLBACK");
    assertEveryRowIsThere(3001);
  }

  @Test
  void psqlTransactionAfterAnErrorIsAbortedUntilRollback() throws Exception {
    assumeTrue(installed("psql", "--version"), "psql is not installed (.ci/run installs it)");

    List<String> lines =
        psql(
            "-c",
            "BEGIN",
            "-c",
            ROW,
            "-c",
            "SELECT * FROM iot.nope",
            "-c",
            "SELECT 1",
            "-c",
            "COMMIT");

    assertThat(lines).contains("BEGIN", "INSERT 0 1", "ROLLBACK");
    assertThat(lines).anyMatch(line -> line.contains("earlier statement of this transaction"));
    assertEveryRowIsThere(3000);
  }

  @ParameterizedTest(name = "with a rollup: {0}")
  @ValueSource(booleans = {false, true})
  void psycopg2InItsDefaultModeKeepsEveryRow(boolean withRollup) throws Exception {
    assumeTrue(
        installed("/usr/bin/python3", "-c", "import psycopg2"),
        "psycopg2 is not installed (.ci/run installs Debian's python3-psycopg2)");
    createRollupIf(withRollup);

    List<String> printed =
        python(
            "cur = conn.cursor()",
            "cur.execute(\"" + ROW + "\")",
            "print(conn.get_transaction_status())",
            "conn.commit()",
            "cur.execute(\"" + ROW.replace("zz", "zy") + "\")",
            "conn.rollback()",
            "cur.execute('SELECT count(*) FROM iot.r')",
            "print(cur.fetchone()[0])",
            "conn.commit()",
            "conn.autocommit = True",
            "cur.execute(\"" + ROW.replace("zz", "zx") + "\")",
            "cur.execute('SELECT count(*) FROM iot.r')",
            "print(cur.fetchone()[0])");

    // 2: psycopg2's TRANSACTION_STATUS_INTRANS, from the server's ReadyForQuery.
    assertThat(printed).containsExactly("2", "3001", "3002");
    assertEveryRowIsThere(3002);
  }

  @Test
  void psycopg2SeesDdlRefusedInsideItsTransaction() throws Exception {
    assumeTrue(
        installed("/usr/bin/python3", "-c", "import psycopg2"),
        "psycopg2 is not installed (.ci/run installs Debian's python3-psycopg2)");

    List<String> printed =
        python(
            "cur = conn.cursor()",
            "try:",
            "    cur.execute('CREATE TABLE iot.q (a INTEGER)')",
            "except psycopg2.Error as e:",
            "    print(e.pgcode)",
            "    conn.rollback()",
            "conn.autocommit = True",
            "cur.execute(\"CREATE TABLE iot.q (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                + " WITH (time_column = 'time', series_key = 'device')\")",
            "print(cur.statusmessage)");

    assertThat(printed).containsExactly("25001", "CREATE TABLE");
  }

  @ParameterizedTest(name = "with a rollup: {0}")
  @ValueSource(booleans = {false, true})
  void pgjdbcWithAutoCommitOffKeepsEveryRow(boolean withRollup) throws Exception {
    createRollupIf(withRollup);
    for (String mode : List.of("simple", "extended")) {
      try (Connection connection = connect(mode)) {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
          statement.executeUpdate(ROW.replace("zz", "c-" + mode));
          connection.commit();
          statement.executeUpdate(ROW.replace("zz", "r-" + mode));
          connection.rollback();
        }
      }
    }
    assertEveryRowIsThere(3002);
  }

  @Test
  void pgjdbcCopyInsideTransactionCommitsOrRollsBackWithIt() throws Exception {
    try (Connection connection = connect("extended")) {
      connection.setAutoCommit(false);
      org.postgresql.copy.CopyManager copy =
          connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      String data = "c1,2026-01-01 00:00:00+00,7\nc2,2026-01-01 00:00:00+00,8\n";

      assertThat(copy.copyIn("COPY iot.r FROM STDIN (FORMAT csv)", new StringReader(data)))
          .isEqualTo(2);
      connection.rollback();
      assertEveryRowIsThere(3000);
      copy.copyIn("COPY iot.r FROM STDIN (FORMAT csv)", new StringReader(data));
      connection.commit();
    }
    assertEveryRowIsThere(3002);
  }

  @Test
  void pgjdbcFailedTransactionRefusesStatementsUntilRollback() throws Exception {
    try (Connection connection = connect("extended")) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(ROW);
        assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM iot.nope"))
            .isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> statement.executeQuery("SELECT 1"))
            .isInstanceOf(SQLException.class)
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("25P02");
        connection.rollback();
        statement.executeUpdate(ROW);
        connection.commit();
      }
    }
    assertEveryRowIsThere(3001);
  }

  private void createRollupIf(boolean withRollup) {
    if (withRollup) {
      try (Session session = lake.newSession()) {
        session
            .sql(
                "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1"
                    + " hour', time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.r"
                    + " GROUP BY device, bucket")
            .close();
      }
    }
  }

  /**
   * The table holds {@code rows} rows, read with copies removed, with every copy shown (which reads
   * every live data file: none may be missing), and routed the same as raw.
   */
  private void assertEveryRowIsThere(long rows) {
    assertThat(count(List.of(), "SELECT count(*) FROM iot.r")).isEqualTo(rows);
    assertThat(count(List.of("read_dedup"), "SELECT count(*) FROM iot.r")).isEqualTo(rows);
    String daily =
        "SELECT device, date_trunc('day', time) AS day, count(*) FROM iot.r GROUP BY ALL";
    assertThat(query(List.of(), daily + " ORDER BY ALL"))
        .isEqualTo(query(List.of("rollup_routing"), daily + " ORDER BY ALL"));
  }

  private long count(List<String> off, String sql) {
    return ((Number) query(off, sql).get(0).get(0)).longValue();
  }

  private List<List<Object>> query(List<String> off, String sql) {
    try (Session session = lake.newSession()) {
      off.forEach(setting -> session.set(setting, "false"));
      try (QueryResult result = session.sql(sql)) {
        return result.rows();
      }
    }
  }

  private List<String> psql(String... commands) throws Exception {
    return run(psqlCommand(server.port(), commands));
  }

  /** Runs a Python program with {@code conn}, a psycopg2 connection to the server, open. */
  private List<String> python(String... lines) throws Exception {
    String program =
        "import psycopg2\n"
            + "conn = psycopg2.connect(host='127.0.0.1', port="
            + server.port()
            + ", user='tl', password='"
            + PASSWORD
            + "', dbname='timelake')\n"
            + String.join("\n", lines)
            + "\n";
    return run(List.of("/usr/bin/python3", "-c", program));
  }

  private static List<String> run(List<String> command) throws Exception {
    return outputOf(command, PASSWORD, Duration.ofSeconds(60));
  }

  private static boolean installed(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
