package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A chart's zoom as a new query: the bucket width fits the chart, the WHERE gets the range. */
class ConsoleZoomTest {
  private static final Instant FROM = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void theWidthIsTheSmallestRoundOneThatFitsThePoints() {
    assertThat(ConsoleZoom.width(Duration.ofHours(4), 480)).isEqualTo(Duration.ofSeconds(30));
    assertThat(ConsoleZoom.width(Duration.ofDays(365), 500)).isEqualTo(Duration.ofDays(1));
    assertThat(ConsoleZoom.width(Duration.ofMinutes(1), 500)).isEqualTo(Duration.ofSeconds(1));
    assertThat(ConsoleZoom.width(Duration.ofDays(3650), 10)).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void bucketsGetTheNewWidthAndTheWhereTheRange() {
    ConsoleZoom.Zoomed zoomed =
        ConsoleZoom.of(
                "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM iot.r"
                    + " WHERE tag = 'a' GROUP BY tag, time_bucket(INTERVAL '1 hour', time)",
                FROM,
                FROM.plus(Duration.ofHours(4)),
                480)
            .orElseThrow();
    assertThat(zoomed.width()).isEqualTo(Duration.ofSeconds(30));
    assertThat(zoomed.sql())
        .isEqualTo(
            "SELECT tag, time_bucket(INTERVAL '30 seconds', time) AS h, avg(value) FROM iot.r"
                + " WHERE (tag = 'a') AND (time >= CAST('2026-01-01T00:00:00Z' AS TIMESTAMPTZ))"
                + " AND (time < CAST('2026-01-01T04:00:00Z' AS TIMESTAMPTZ)) GROUP BY tag,"
                + " time_bucket(INTERVAL '30 seconds', time)");
  }

  @Test
  void statementsWithoutAnIntervalBucketAreNotZoomed() {
    Instant to = FROM.plusSeconds(60);
    assertThat(ConsoleZoom.of("SELECT * FROM iot.r", FROM, to, 10)).isEmpty();
    assertThat(ConsoleZoom.of("DROP TABLE iot.r", FROM, to, 10)).isEmpty();
    assertThat(ConsoleZoom.of("SELECT date_trunc('hour', time) FROM iot.r", FROM, to, 10))
        .isEmpty();
    assertThat(ConsoleZoom.of("not sql at all", FROM, to, 10)).isEmpty();
    assertThat(
            ConsoleZoom.of(
                "SELECT time_bucket(INTERVAL '1 hour', a), time_bucket(INTERVAL '1 hour', b)"
                    + " FROM t",
                FROM,
                to,
                10))
        .isEmpty();
    assertThat(ConsoleZoom.of("SELECT time_bucket(INTERVAL '1 hour', a) FROM t", to, FROM, 10))
        .isEmpty();
  }
}
