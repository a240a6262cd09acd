package dev.timelake.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RollupRoute;
import dev.timelake.Session;
import dev.timelake.TableName;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A routed query's plan says which stretches of time each rollup answered and which raw data did:
 * an hour changed since the refresh is read from raw data, the rest from the rollup.
 */
class RouteSpansTest {
  @TempDir Path warehouse;

  @Test
  void anHourChangedSinceTheRefreshIsARawSpanBetweenRollupSpans() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      sixHoursWithAnHourlyRollup(session);
      sql(session, "INSERT INTO iot.r VALUES ('a', TIMESTAMPTZ '2026-01-01 02:05:00+00', 999)");
      try (QueryResult result =
          session.sql(
              "SELECT time_bucket(INTERVAL '1 hour', time) AS h, max(value) FROM iot.r WHERE time"
                  + " >= TIMESTAMPTZ '2026-01-01 00:00:00+00' AND time < TIMESTAMPTZ '2026-01-01"
                  + " 06:00:00+00' GROUP BY h")) {
        RollupRoute route = result.plan().routes().get(0);
        TableName rollup = TableName.parse("iot.r_1h");
        assertThat(route.spans())
            .containsExactly(
                new RollupRoute.Span(rollup, micros("00:00"), micros("02:00")),
                new RollupRoute.Span(
                    RollupRoute.RawReason.CHANGED_SINCE_REFRESH, micros("02:00"), micros("03:00")),
                new RollupRoute.Span(rollup, micros("03:00"), micros("06:00")));
        assertThat(route.spans().get(1).isRaw()).isTrue();
        assertThat(result.rows()).hasSize(6).anyMatch(row -> row.get(1).equals(999.0));
      }
      try (QueryResult unrouted = session.sql("SELECT max(value) FROM iot.r")) {
        assertThat(unrouted.plan().routes())
            .allMatch(route -> route.spans().isEmpty() || route.isRouted());
      }
    }
  }

  @Test
  void rawStretchesSayWhetherTheyArePartialBucketsOrChangedSinceTheRefresh() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      sixHoursWithAnHourlyRollup(session);
      // Two hours added after the refresh.
      sql(
          session,
          "INSERT INTO iot.r SELECT 'a', TIMESTAMPTZ '2026-01-01 06:00:00+00' + INTERVAL (m)"
              + " MINUTE, m FROM range(0, 120, 10) r(m)");
      try (QueryResult result =
          session.sql(
              "SELECT max(value) FROM iot.r WHERE time >= TIMESTAMPTZ '2026-01-01 00:30:00+00'"
                  + " AND time < TIMESTAMPTZ '2026-01-01 07:30:00+00'")) {
        TableName rollup = TableName.parse("iot.r_1h");
        assertThat(result.plan().routes().get(0).spans())
            .containsExactly(
                new RollupRoute.Span(
                    RollupRoute.RawReason.PARTIAL_BUCKET, micros("00:30"), micros("01:00")),
                new RollupRoute.Span(rollup, micros("01:00"), micros("06:00")),
                new RollupRoute.Span(
                    RollupRoute.RawReason.CHANGED_SINCE_REFRESH, micros("06:00"), micros("07:00")),
                // The data ends at 07:50, the range at 07:30: part of the 07:00 hour.
                new RollupRoute.Span(
                    RollupRoute.RawReason.PARTIAL_BUCKET, micros("07:00"), micros("07:30")));
      }
    }
  }

  /** Readings every 10 minutes of 00:00–06:00 and an hourly rollup refreshed over them. */
  private static void sixHoursWithAnHourlyRollup(Session session) {
    sql(
        session,
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column"
            + " = 'time', series_key = 'device', auto_maintain = false)");
    sql(
        session,
        "INSERT INTO iot.r SELECT 'a', TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL (m)"
            + " MINUTE, m FROM range(0, 360, 10) r(m)");
    sql(
        session,
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS h, max(value) FROM iot.r GROUP BY device, h WITH (refresh_interval ="
            + " 'off')");
  }

  private static long micros(String time) {
    Instant instant = Instant.parse("2026-01-01T" + time + ":00Z");
    return instant.getEpochSecond() * 1_000_000L;
  }

  private static void sql(Session session, String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      List.of(); // statements without rows
    }
  }
}
