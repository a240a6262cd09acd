package dev.timelake.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calendar buckets, gap filling and filtered rollups through the JDBC driver: answered from
 * rollups, equal to the unrouted answers, and EXPLAIN says which rollup answered.
 */
class CalendarQueriesThroughTheDriverTest {
  @TempDir Path warehouse;
  private String url;

  /** Hourly readings of two devices over New York's autumn clock change and its month's end. */
  @BeforeEach
  void createTableAndRollups() throws SQLException {
    url = "jdbc:timelake:" + warehouse;
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE iot.readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'device')");
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO iot.readings VALUES (?, ?, ?)")) {
        Instant start = Instant.parse("2026-10-30T00:00:00Z");
        for (int hour = 0; hour < 24 * 5; hour++) {
          for (String device : List.of("a", "b")) {
            // Device b is silent from 03:00 to 09:00 UTC on 1 November, over the repeated hour.
            if (device.equals("b") && hour >= 24 * 2 + 3 && hour < 24 * 2 + 9) {
              continue;
            }
            insert.setString(1, device);
            insert.setObject(2, OffsetDateTime.ofInstant(start.plusSeconds(3600L * hour), UTC));
            insert.setDouble(3, hour % 5);
            insert.addBatch();
          }
        }
        insert.executeBatch();
      }
      statement.execute(
          "CREATE MATERIALIZED ROLLUP iot.readings_1h AS SELECT device, time_bucket(INTERVAL"
              + " '1 hour', time) AS hour, avg(value), count(*) FROM iot.readings GROUP BY"
              + " device, hour WITH (refresh_interval = 'off')");
      statement.execute(
          "CREATE MATERIALIZED ROLLUP iot.readings_b_1h AS SELECT device, time_bucket(INTERVAL"
              + " '1 hour', time) AS hour, max(value) FROM iot.readings WHERE device = 'b' GROUP BY"
              + " device, hour WITH (refresh_interval = 'off')");
    }
  }

  private static final java.time.ZoneOffset UTC = java.time.ZoneOffset.UTC;

  @Test
  void localDaysOfNewYorkComeFromTheUtcHourlyRollup() throws SQLException {
    String query =
        "SELECT device, date_trunc('day', time) AS day, avg(value) AS v, count(*) AS n"
            + " FROM iot.readings GROUP BY ALL ORDER BY ALL";
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute("SET TimeZone = 'America/New_York'");
      assertThat(explain(statement, query)).contains("routed to rollup iot.readings_1h");
      List<String> routed = rows(statement, query);
      statement.execute("SET timelake.rollup_routing = false");
      assertThat(routed).isEqualTo(rows(statement, query));
      // 1 November in New York has 25 hours (the clock goes back at 06:00 UTC).
      // The driver returns instants in UTC, as DuckDB's does.
      assertThat(routed).contains("a|2026-11-01T04:00Z|2.0|25", "b|2026-11-01T04:00Z|2.0|20");
    }
  }

  @Test
  void gapFilledHoursComeFromTheRollupAndFillEveryHour() throws SQLException {
    String locf =
        "SELECT device, time_bucket_gapfill(INTERVAL '1 hour', time) AS hour,"
            + " locf(avg(value)) AS v FROM iot.readings WHERE device = 'b' AND time >="
            + " TIMESTAMPTZ '2026-11-01 00:00:00+00' AND time < TIMESTAMPTZ"
            + " '2026-11-01 12:00:00+00' GROUP BY device, hour ORDER BY hour";
    String sampleBy =
        "SELECT time, device, avg(value) AS v FROM iot.readings WHERE device = 'b'"
            + " SAMPLE BY 1h FROM '2026-11-01T00:00:00Z' TO '2026-11-01T12:00:00Z' FILL(PREV)";
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      assertThat(explain(statement, locf)).contains("routed to rollup iot.readings_1h");
      assertThat(explain(statement, sampleBy)).contains("routed to rollup iot.readings_1h");
      List<String> filled = rows(statement, locf);
      List<String> sampled = rows(statement, sampleBy);
      statement.execute("SET timelake.rollup_routing = false");
      assertThat(filled).isEqualTo(rows(statement, locf)).hasSize(12);
      assertThat(sampled).isEqualTo(rows(statement, sampleBy)).hasSize(12);
      // 03:00-09:00 are empty and carry 02:00's value (hour 50 of the data: 50 % 5 = 0).
      assertThat(filled.subList(2, 9)).allMatch(row -> row.endsWith("|0.0"));
    }
  }

  @Test
  void aFilteredRollupAnswersTheSeriesItHolds() throws SQLException {
    String query =
        "SELECT time_bucket(INTERVAL '1 day', time) AS day, max(value) AS m FROM iot.readings"
            + " WHERE device %s GROUP BY day ORDER BY day";
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      String onlyB = query.formatted("= 'b'");
      assertThat(explain(statement, onlyB))
          .containsAnyOf("routed to rollup iot.readings_b_1h", "routed to rollup iot.readings_1h");
      assertThat(explain(statement, query.formatted("IN ('a', 'b')")))
          .doesNotContain("routed to rollup iot.readings_b_1h")
          .contains("holds only rows where device = 'b', which the query's WHERE does not imply");
      List<String> routed = rows(statement, onlyB);
      statement.execute("SET timelake.rollup_routing = false");
      assertThat(routed).isEqualTo(rows(statement, onlyB)).hasSize(5);
    }
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
          Object value = result.getObject(i);
          values.add(String.valueOf(value));
        }
        rows.add(String.join("|", values));
      }
    }
    return rows;
  }
}
