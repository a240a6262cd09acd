package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.StringReader;
import java.io.StringWriter;
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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * {@code COPY … TO STDOUT} as psql's {@code \copy … to stdout} and pgjdbc's {@code
 * CopyManager.copyOut} send it: a table, some of its columns or a query, in PostgreSQL's text
 * format (tabs, {@code \N}, backslash escapes) or CSV with a header; the rows are the session's, as
 * a SELECT returns them, within the user's role and namespaces; COPY to a server file stays refused
 * and a failing COPY leaves the connection usable.
 */
class PgCopyOutTest extends WithPgServer {
  private static final String PASSWORD = "copy password";

  /** The rows of iot.r in PostgreSQL's text format, in time order; the oracle for every copy. */
  private static final List<String> TEXT_ROWS =
      List.of(
          "a\t2026-01-02 14:30:00+00\t1.5",
          "tab\\there\t2026-01-02 14:31:00+00\t\\N",
          "line\\nbreak, \"quoted\"\t2026-01-02 14:32:00.25+00\t-2.0",
          "back\\\\slash\t2026-01-02 14:33:00+00\t0.25",
          "\t2026-01-02 14:34:00+00\t3.0");

  @TempDir Path elsewhere;

  PgCopyOutTest() {
    super(PASSWORD);
  }

  @BeforeEach
  void fillTable() throws Exception {
    try (Connection connection = connect("extended");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'device')");
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO iot.r VALUES (?, ?, ?)")) {
        Object[][] rows = {
          {"a", at(30, 0), 1.5},
          {"tab\there", at(31, 0), null},
          {"line\nbreak, \"quoted\"", at(32, 250_000_000), -2.0},
          {"back\\slash", at(33, 0), 0.25},
          {"", at(34, 0), 3.0}
        };
        for (Object[] row : rows) {
          insert.setString(1, (String) row[0]);
          insert.setObject(2, row[1]);
          insert.setObject(3, row[2], java.sql.Types.DOUBLE);
          insert.executeUpdate();
        }
      }
    }
  }

  @Test
  void psqlCopiesATableAndAQueryToStdout() throws Exception {
    assumeTrue(
        new ProcessBuilder("psql", "--version").start().waitFor() == 0,
        "psql is not installed (.ci/run installs it)");
    assertThat(psql("\\copy iot.r to stdout")).containsExactlyInAnyOrderElementsOf(TEXT_ROWS);
    assertThat(
            psql(
                "\\copy (select device, value from iot.r where value is null or value < 1 order"
                    + " by time) to stdout with csv header"))
        .containsExactly(
            "device,value",
            "tab\there,",
            "\"line",
            "break, \"\"quoted\"\"\",-2.0",
            "back\\slash,0.25");
  }

  @Test
  void pgjdbcCopiesOutInTextAndCsv() throws Exception {
    try (Connection connection = connect()) {
      CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
      StringWriter text = new StringWriter();
      assertThat(copy.copyOut("COPY iot.r TO STDOUT", text)).isEqualTo(TEXT_ROWS.size());
      assertThat(text.toString().lines()).containsExactlyInAnyOrderElementsOf(TEXT_ROWS);

      StringWriter ordered = new StringWriter();
      copy.copyOut(
          "COPY (SELECT device, time, value FROM iot.r ORDER BY time) TO STDOUT (FORMAT text)",
          ordered);
      assertThat(ordered.toString()).isEqualTo(String.join("\n", TEXT_ROWS) + "\n");

      StringWriter csv = new StringWriter();
      assertThat(
              copy.copyOut(
                  "COPY (SELECT device, value, value IS NULL AS missing FROM iot.r ORDER BY time)"
                      + " TO STDOUT WITH (FORMAT csv, HEADER true)",
                  csv))
          .isEqualTo(TEXT_ROWS.size());
      assertThat(csv.toString())
          .isEqualTo(
              "device,value,missing\n"
                  + "a,1.5,f\n"
                  + "tab\there,,t\n"
                  + "\"line\nbreak, \"\"quoted\"\"\",-2.0,f\n"
                  + "back\\slash,0.25,f\n"
                  + "\"\",3.0,f\n");

      StringWriter columns = new StringWriter();
      copy.copyOut("COPY iot.r (value, device) TO STDOUT CSV HEADER", columns);
      assertThat(columns.toString().lines()).first().isEqualTo("value,device");
      assertThat(columns.toString().lines()).contains("1.5,a", ",tab\there", "3.0,\"\"");
    }
  }

  @Test
  void aTableCopiedOutCopiesBackIn() throws Exception {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE iot.r2 (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'device')");
      CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
      StringWriter out = new StringWriter();
      copy.copyOut("COPY iot.r TO STDOUT (FORMAT csv)", out);
      // COPY … FROM STDIN still reads a quoted empty value ("") as NULL, as DuckDB's read_csv
      // does, and the series key may not be NULL: the row with the empty device stays out.
      String withoutEmptyDevice =
          out.toString()
              .lines()
              .filter(line -> !line.startsWith("\"\","))
              .map(line -> line + "\n")
              .collect(java.util.stream.Collectors.joining());
      assertThat(
              copy.copyIn(
                  "COPY iot.r2 FROM STDIN (FORMAT csv)", new StringReader(withoutEmptyDevice)))
          .isEqualTo(TEXT_ROWS.size() - 1);
      StringWriter back = new StringWriter();
      copy.copyOut("COPY (SELECT device, time, value FROM iot.r2 ORDER BY time) TO STDOUT", back);
      assertThat(back.toString().lines())
          .containsExactlyElementsOf(TEXT_ROWS.subList(0, TEXT_ROWS.size() - 1));
    }
  }

  @Test
  void listsAreWrittenAsPostgresArrays() throws Exception {
    String query =
        "SELECT [1, 2] AS numbers, ['a b', NULL, 'c', '', 'say \"hi\"'] AS words, [[1], [2, 3]]"
            + " AS nested";
    try (Connection connection = connect()) {
      StringWriter out = new StringWriter();
      copyOut(connection, "COPY (" + query + ") TO STDOUT", out);
      assertThat(out.toString())
          .isEqualTo("{1,2}\t{\"a b\",NULL,c,\"\",\"say \\\\\"hi\\\\\"\"}\t{{1},{2,3}}\n");
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery(query)) {
        rows.next();
        assertThat(rows.getString(1)).isEqualTo("{1,2}");
        assertThat(rows.getString(2)).isEqualTo("{\"a b\",NULL,c,\"\",\"say \\\"hi\\\"\"}");
      }
    }
  }

  @Test
  void streamsALargeQuery() throws Exception {
    try (Connection connection = connect()) {
      CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
      CountingWriter out = new CountingWriter();
      long rows =
          copy.copyOut(
              "COPY (SELECT i, repeat('x', 100) AS pad FROM range(200000) t(i)) TO STDOUT", out);
      assertThat(rows).isEqualTo(200_000);
      assertThat(out.lines).isEqualTo(200_000);
    }
  }

  @Test
  void aReadUserCopiesOutOnlyFromItsNamespaces() throws Exception {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE plant.p (line VARCHAR, time TIMESTAMPTZ, litres DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'line')");
      statement.execute("INSERT INTO plant.p VALUES ('l1', '2026-01-01 00:00:00+00', 7)");
    }
    String secret = ScramSecret.of(PASSWORD).text();
    Path users = elsewhere.resolve("users.txt");
    Files.write(
        users,
        List.of(
            "grafana:" + secret + " role=read",
            "plantview:" + secret + " role=read namespaces=plant"));
    try (PgServer limited =
        PgServer.start(lake, new InetSocketAddress("127.0.0.1", 0), Credentials.fromFile(users))) {
      try (Connection grafana = connectAs(limited, "grafana")) {
        StringWriter out = new StringWriter();
        assertThat(copyOut(grafana, "COPY iot.r TO STDOUT", out)).isEqualTo(TEXT_ROWS.size());
        assertThat(out.toString().lines()).containsExactlyInAnyOrderElementsOf(TEXT_ROWS);
      }
      try (Connection plantview = connectAs(limited, "plantview")) {
        StringWriter out = new StringWriter();
        assertThat(copyOut(plantview, "COPY plant.p TO STDOUT CSV", out)).isEqualTo(1);
        assertThat(out.toString()).isEqualTo("l1,2026-01-01 00:00:00+00,7.0\n");
        for (String sql :
            List.of("COPY iot.r TO STDOUT", "COPY (SELECT count(*) FROM iot.r) TO STDOUT")) {
          assertThatThrownBy(() -> copyOut(plantview, sql, new StringWriter()))
              .as(sql)
              .isInstanceOf(SQLException.class)
              .hasMessageContaining("user plantview may use only the namespaces plant, not iot")
              .extracting(e -> ((SQLException) e).getSQLState())
              .isEqualTo("42501");
        }
        assertThat(copyOut(plantview, "COPY plant.p (line) TO STDOUT", new StringWriter()))
            .isEqualTo(1);
      }
    }
  }

  @Test
  void copyToAServerFileStaysRefused() throws Exception {
    Path file = elsewhere.resolve("x.csv");
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      for (String sql :
          List.of(
              "COPY iot.r TO '" + file + "'",
              "COPY (SELECT * FROM iot.r) TO '" + file + "' (FORMAT csv)")) {
        assertThatThrownBy(() -> statement.execute(sql))
            .as(sql)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("COPY")
            .hasMessageContaining("on this server")
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("42501");
      }
      assertThatThrownBy(
              () -> copyOut(connection, "COPY iot.r TO STDOUT (DELIMITER ';')", new StringWriter()))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("the option DELIMITER is not supported")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("0A000");
    }
    try (Connection extended = connect("extended");
        Statement statement = extended.createStatement()) {
      assertThatThrownBy(() -> statement.execute("COPY iot.r TO STDOUT"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("run in the simple query protocol")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("0A000");
      try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM iot.r")) {
        rows.next();
        assertThat(rows.getLong(1)).isEqualTo(TEXT_ROWS.size());
      }
    }
    assertThat(file).doesNotExist();
  }

  @Test
  void aFailingCopyIsAnsweredAndTheConnectionGoesOn() throws Exception {
    try (Connection connection = connect()) {
      assertThatThrownBy(() -> copyOut(connection, "COPY iot.nope TO STDOUT", new StringWriter()))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("iot.nope")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42P01");
      assertThatThrownBy(
              () -> copyOut(connection, "COPY iot.r (nope) TO STDOUT", new StringWriter()))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("nope");
      // Fails after rows have gone out: the copy ends with the error, not with CopyDone.
      assertThatThrownBy(
              () ->
                  copyOut(
                      connection,
                      "COPY (SELECT CASE WHEN i < 150000 THEN i::VARCHAR ELSE error('boom at ' ||"
                          + " i) END FROM range(200000) t(i)) TO STDOUT",
                      new StringWriter()))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("boom at");
      StringWriter out = new StringWriter();
      assertThat(copyOut(connection, "COPY (SELECT 1 AS one) TO STDOUT", out)).isEqualTo(1);
      assertThat(out.toString()).isEqualTo("1\n");
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT count(*) FROM iot.r")) {
        rows.next();
        assertThat(rows.getLong(1)).isEqualTo(TEXT_ROWS.size());
      }
    }
  }

  private static long copyOut(Connection connection, String sql, StringWriter out)
      throws SQLException, java.io.IOException {
    return connection.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, out);
  }

  private static Connection connectAs(PgServer server, String user) throws Exception {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake", user, PASSWORD);
  }

  private static OffsetDateTime at(int minute, int nanos) {
    return OffsetDateTime.of(2026, 1, 2, 14, minute, 0, nanos, ZoneOffset.UTC);
  }

  private List<String> psql(String command) throws Exception {
    return outputOf(psqlCommand(server.port(), "-c", command), PASSWORD, Duration.ofSeconds(30));
  }

  /** Counts the lines written to it and keeps nothing. */
  private static final class CountingWriter extends java.io.Writer {
    long lines;

    @Override
    public void write(char[] buffer, int offset, int length) {
      for (int i = offset; i < offset + length; i++) {
        if (buffer[i] == '\n') {
          lines++;
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
