package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.timelake.Session;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 30's queries as clients send them over the PostgreSQL protocol: a Grafana-shaped date_trunc
 * in the client's TimeZone, a month in a named zone, a gap-filled series and a filtered rollup's
 * query, each answered from rollups (EXPLAIN says so) and as the raw data answers.
 */
class CalendarQueriesOverTheWireTest extends WithPgServer {
  private static final String PASSWORD = "calendar password";

  CalendarQueriesOverTheWireTest() {
    super(PASSWORD);
  }

  @BeforeEach
  void tableAndRollups() {
    var table =
        lake.createTable(
            dev.timelake.TableDefinition.builder("iot.readings")
                .column("device", dev.timelake.ColumnType.VARCHAR)
                .column("time", dev.timelake.ColumnType.TIMESTAMPTZ)
                .column("value", dev.timelake.ColumnType.DOUBLE)
                .column("quality", dev.timelake.ColumnType.INTEGER)
                .timeColumn("time")
                .seriesKey("device")
                .option("auto-maintain", "false")
                .build());
    var append = table.newAppend();
    Instant start = Instant.parse("2026-03-25T00:00:00Z"); // Berlin's clock change on the 29th
    for (int i = 0; i < 10 * 24 * 4; i++) {
      append.row(i % 2 == 0 ? "a" : "b", start.plusSeconds(900L * i), (double) (i % 37), i % 5);
    }
    append.commit();
    try (Session session = lake.newSession()) {
      session
          .sql(
              "CREATE MATERIALIZED ROLLUP iot.readings_1h AS SELECT device, time_bucket(INTERVAL"
                  + " '1 hour', time) AS bucket, avg(value), max(value), count(*) FROM"
                  + " iot.readings GROUP BY ALL")
          .close();
      session
          .sql(
              "CREATE MATERIALIZED ROLLUP iot.readings_good AS SELECT device,"
                  + " time_bucket(INTERVAL '1 day', time, 'Europe/Berlin') AS day, avg(value),"
                  + " count(*) FROM iot.readings WHERE quality >= 2 GROUP BY ALL")
          .close();
    }
  }

  @Test
  void pgjdbcInBerlinGetsLocalDaysFromTheHourlyRollup() throws SQLException {
    String grafana =
        "SELECT date_trunc('day', \"time\") AS \"time\", device AS metric, avg(value) FROM"
            + " iot.readings WHERE \"time\" BETWEEN '2026-03-25T00:00:00Z' AND"
            + " '2026-04-03T23:59:59.999Z' GROUP BY 1, 2 ORDER BY 1, 2";
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute("SET TimeZone = 'Europe/Berlin'");
      assertThat(explain(statement, grafana)).contains("routed to rollup iot.readings_1h");
      List<String> routed = rows(statement, grafana);
      statement.execute("SET timelake.rollup_routing = false");
      assertThat(routed).isEqualTo(rows(statement, grafana)).hasSize(2 * 11);
      // The day Berlin's clocks went forward starts at +01:00, the next at +02:00, shown in the
      // session's TimeZone as PostgreSQL shows instants.
      assertThat(routed).anyMatch(row -> row.startsWith("2026-03-29 00:00:00+01|a|"));
      assertThat(routed).anyMatch(row -> row.startsWith("2026-03-30 00:00:00+02|a|"));
    }
  }

  @Test
  void grafanasTimeGroupSpellingsAreRoutedOverTheExtendedProtocol() throws SQLException {
    String filter =
        " FROM iot.readings WHERE \"time\" BETWEEN '2026-03-28T00:00:00Z' AND"
            + " '2026-03-30T23:59:59.999Z' GROUP BY 1, 2 ORDER BY 1, 2";
    List<String> spellings =
        List.of(
            // $__timeGroupAlias(time, 1h) without and with Grafana's TimescaleDB option.
            "SELECT floor(extract(epoch from \"time\")/3600)*3600 AS \"time\", device AS metric,"
                + " avg(value)"
                + filter,
            "SELECT time_bucket('3600.000s',\"time\") AS \"time\", device AS metric, avg(value)"
                + filter);
    try (Connection connection = connect()) {
      for (String grafana : spellings) {
        try (Statement statement = connection.createStatement()) {
          statement.execute("SET timelake.rollup_routing = true");
          assertThat(explain(statement, grafana))
              .as(grafana)
              .contains("routed to rollup iot.readings_1h");
        }
        List<String> routed = prepared(connection, grafana);
        try (Statement statement = connection.createStatement()) {
          statement.execute("SET timelake.rollup_routing = false");
        }
        assertThat(routed).as(grafana).isEqualTo(prepared(connection, grafana)).hasSize(2 * 72);
      }
    }
  }

  /** The rows of {@code query} run as a prepared statement (the extended protocol). */
  private static List<String> prepared(Connection connection, String query) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (java.sql.PreparedStatement statement = connection.prepareStatement(query);
        ResultSet result = statement.executeQuery()) {
      while (result.next()) {
        rows.add(result.getString(1) + "|" + result.getString(2) + "|" + result.getString(3));
      }
    }
    return rows;
  }

  @Test
  void filteredAndGapFilledQueriesAreRoutedOverTheWire() throws SQLException {
    String filtered =
        "SELECT device, time_bucket(INTERVAL '1 month', time, 'Europe/Berlin') AS month,"
            + " avg(value), count(*) FROM iot.readings WHERE quality >= 2 GROUP BY ALL ORDER BY"
            + " ALL";
    String gapFilled =
        "SELECT device, time_bucket_gapfill(INTERVAL '1 day', time, 'Europe/Berlin') AS day,"
            + " locf(avg(value)) AS v FROM iot.readings WHERE time >= '2026-03-20 00:00:00+01'"
            + " AND time < '2026-04-06 00:00:00+02' GROUP BY device, day ORDER BY device, day";
    try (Connection connection = connect("extended");
        Statement statement = connection.createStatement()) {
      assertThat(explain(statement, filtered)).contains("routed to rollup iot.readings_good");
      assertThat(explain(statement, gapFilled)).contains("routed to rollup");
      List<String> filteredRows = rows(statement, filtered);
      List<String> filledRows = rows(statement, gapFilled);
      statement.execute("SET timelake.rollup_routing = false");
      assertThat(filteredRows).isEqualTo(rows(statement, filtered)).hasSize(4);
      assertThat(filledRows).isEqualTo(rows(statement, gapFilled)).hasSize(2 * 17);
    }
  }

  @Test
  void psqlAsksForLocalMonths() throws Exception {
    List<String> lines =
        psql(
            "SET TimeZone = 'America/New_York'; SELECT device, date_trunc('month', time) AS"
                + " m, count(*) FROM iot.readings GROUP BY ALL ORDER BY ALL");
    assertThat(lines)
        .containsExactly(
            // March in New York ends at 04:00 UTC on April 1: 172 hours of half-hourly readings.
            "SET",
            "a|2026-03-01 00:00:00-05|344",
            "a|2026-04-01 00:00:00-04|136",
            "b|2026-03-01 00:00:00-05|344",
            "b|2026-04-01 00:00:00-04|136");
  }

  @Test
  void copyToStdoutShowsInstantsInTheSessionsTimeZone() throws Exception {
    List<String> lines =
        psql(
            "SET TimeZone = 'America/New_York'; COPY (SELECT device, date_trunc('month', time)"
                + " AS m, count(*) AS n FROM iot.readings GROUP BY ALL ORDER BY ALL) TO STDOUT"
                + " WITH (FORMAT csv)");
    assertThat(lines)
        .containsExactly(
            "SET",
            "a,2026-03-01 00:00:00-05,344",
            "a,2026-04-01 00:00:00-04,136",
            "b,2026-03-01 00:00:00-05,344",
            "b,2026-04-01 00:00:00-04,136");
  }

  /** The lines psql prints for {@code commands}; the test is skipped without psql. */
  private List<String> psql(String commands) throws Exception {
    assumeTrue(
        new ProcessBuilder("psql", "--version").start().waitFor() == 0,
        "psql is not installed (.ci/run installs it)");
    return outputOf(psqlCommand(server.port(), "-c", commands), PASSWORD, Duration.ofSeconds(30));
  }

  private static String explain(Statement statement, String query) throws SQLException {
    return String.join("\n", rows(statement, "EXPLAIN " + query));
  }

  private static List<String> rows(Statement statement, String query) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet result = statement.executeQuery(query)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          values.add(result.getString(i));
        }
        rows.add(String.join("|", values));
      }
    }
    return rows;
  }
}
