package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableInfo;
import dev.timelake.TableName;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rollup refreshed by hand, window after window, keeps one file per partition as an automatically
 * refreshed one does: a routed query would otherwise bind each window's file.
 */
class RollupCompactionTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void refreshesByHandLeaveOneFilePerPartitionAndTheSameAnswers() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      Table raw = lake.createTable(TestTables.tagReadings("c.r").build());
      TestTables.commitReadings(raw.newAppend(), "tag", day(0));
      sql(
          session,
          "CREATE MATERIALIZED ROLLUP c.r_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time) AS"
              + " bucket, avg(value), max(value), count(*) FROM c.r GROUP BY tag, bucket WITH"
              + " (refresh_interval = 'off')");
      for (int day = 1; day < 4; day++) {
        TestTables.commitReadings(raw.newAppend(), "tag", day(day));
        sql(session, "REFRESH MATERIALIZED ROLLUP c.r_1h");
      }
      lake.refreshRollup(TableName.parse("c.r_1h"));
      TableInfo rollup = lake.table(TableName.parse("c.r_1h")).info();
      assertThat(rollup.partitions())
          .allSatisfy(partition -> assertThat(partition.files()).as(partition.label()).isOne());
      String query =
          "SELECT tag, time_bucket(INTERVAL '1 day', time) AS d, max(value), count(*) FROM c.r"
              + " GROUP BY ALL ORDER BY ALL";
      List<List<Object>> routed;
      try (QueryResult result = session.sql(query)) {
        assertThat(result.isRouted()).isTrue();
        routed = result.rows();
      }
      session.set("rollup-routing", "false");
      try (QueryResult result = session.sql(query)) {
        SameAnswers.assertSameRows(routed, result.rows(), query);
      }
    }
  }

  /** Readings of day {@code day} after T0, every 10 minutes, for two tags. */
  private static List<Object[]> day(int day) {
    List<Object[]> readings = new ArrayList<>();
    for (int minute = 0; minute < 24 * 60; minute += 10) {
      for (String tag : List.of("a", "b")) {
        readings.add(
            new Object[] {tag, T0.plusSeconds(day * 86_400L + minute * 60L), (double) minute});
      }
    }
    return readings;
  }

  private static void sql(Session session, String sql) {
    session.sql(sql).close();
  }
}
