package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RollupVerification;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's own example, as written there: two grouping columns and an unaliased bucket grouped by
 * position, a time-weighted mean at one minute, and a refresh lag that leaves the minutes still
 * being written to raw data.
 */
class SeedExampleRollupTest {
  private static final String EXAMPLE =
      "CREATE MATERIALIZED ROLLUP iot.sensor_1m AS\n"
          + "SELECT device_id, metric,\n"
          + "       time_bucket('1 minute', ts) AS bucket,\n"
          + "       avg(value), min(value), max(value),\n"
          + "       time_weighted_mean(ts, value, 'linear') AS twa,\n"
          + "       count(*)\n"
          + "FROM iot.sensor\n"
          + "GROUP BY 1, 2, 3\n"
          + "WITH (refresh_lag = '2 minutes', retention = '2 years')";

  @TempDir Path warehouse;

  @Test
  void theSeedsExampleIsCreatedRefreshedWithItsLagAndRouted() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      Table sensor =
          lake.createTable(
              TableDefinition.builder("iot.sensor")
                  .column("device_id", ColumnType.VARCHAR)
                  .column("metric", ColumnType.VARCHAR)
                  .column("ts", ColumnType.TIMESTAMPTZ)
                  .column("value", ColumnType.DOUBLE)
                  .timeColumn("ts")
                  .seriesKey("device_id", "metric")
                  .option("auto-maintain", "false")
                  .build());
      // Thirty minutes of readings every 20 seconds up to now: the last minutes are being written.
      Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      var append = sensor.newAppend();
      for (int i = 0; i < 90; i++) {
        Instant at = now.minusSeconds(20L * i);
        append.row("d1", "temp", at, 20.0 + i % 7);
        append.row("d2", "temp", at, 30.0 - i % 5);
      }
      append.commit();

      sql(session, EXAMPLE);

      assertThat(lake.table("iot.sensor_1m").settings())
          .containsEntry("rollup-refresh-lag", "2m")
          .containsEntry("retention", "2y");
      Instant newestStored =
          ((OffsetDateTime) single(session, "SELECT max(bucket) FROM iot.sensor_1m")).toInstant();
      // The refresh left every bucket that ends later than the commit less two minutes.
      assertThat(newestStored).isBefore(now.minus(2, ChronoUnit.MINUTES));
      assertThat(newestStored).isAfter(now.minus(5, ChronoUnit.MINUTES));

      String perMinute =
          "SELECT device_id, metric, time_bucket('1 minute', ts) AS m, avg(value),"
              + " time_weighted_mean(ts, value, 'linear') AS twa, count(*) FROM iot.sensor"
              + " GROUP BY 1, 2, 3 ORDER BY 1, 2, 3";
      session.set("rollup-routing", "true");
      List<List<Object>> routed;
      try (QueryResult result = session.sql(perMinute)) {
        assertThat(result.isRouted()).as(String.join("\n", result.explanation())).isTrue();
        assertThat(String.join("\n", result.explanation())).contains("iot.sensor: raw rows in");
        routed = result.rows();
      }
      session.set("rollup-routing", "false");
      try (QueryResult result = session.sql(perMinute)) {
        SameAnswers.assertSameRows(routed, result.rows(), perMinute);
      }

      RollupVerification verification =
          lake.verifyRollup(
              TableName.parse("iot.sensor_1m"), RollupVerification.Options.allBuckets());
      assertThat(verification.isExact()).as(verification.toString()).isTrue();

      // Without the lag the next refresh materializes the buckets the last one left, though no
      // raw row changed since.
      lake.table("iot.sensor_1m").alter(java.util.Map.of("rollup-refresh-lag", "0s"));
      lake.refreshRollup(TableName.parse("iot.sensor_1m"));
      Instant newest =
          ((OffsetDateTime) single(session, "SELECT max(bucket) FROM iot.sensor_1m")).toInstant();
      assertThat(newest).isEqualTo(now.truncatedTo(ChronoUnit.MINUTES));
      assertThat(
              lake.verifyRollup(
                      TableName.parse("iot.sensor_1m"), RollupVerification.Options.allBuckets())
                  .isExact())
          .isTrue();
    }
  }

  private static Object single(Session session, String query) {
    try (QueryResult result = session.sql(query)) {
      return result.rows().get(0).get(0);
    }
  }

  private static void sql(Session session, String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }
}
