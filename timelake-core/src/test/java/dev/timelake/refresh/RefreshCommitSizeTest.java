package dev.timelake.refresh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RollupVerification;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableInfo;
import dev.timelake.TableName;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refresh commits about {@code rollup-refresh-commit-rows} rows at a time (a million by default,
 * seed 000), cut between buckets; every commit but the last keeps the old record, so a refresh
 * stopped between them is one that has not happened for routing, and the next recomputes it.
 */
class RefreshCommitSizeTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void aWindowOfManyRowsIsCommittedInPiecesTheLastOfWhichRecordsTheRawSnapshot() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      Table raw = lake.createTable(TestTables.tagReadings("c.r").build());
      var append = raw.newAppend();
      for (int minute = 0; minute < 24 * 60; minute += 5) {
        for (int tag = 0; tag < 3; tag++) {
          append.row("t" + tag, T0.plusSeconds(minute * 60L + tag), (double) (minute % 97));
        }
      }
      append.commit();
      try (QueryResult ignored =
          session.sql(
              "CREATE MATERIALIZED ROLLUP c.r_1h AS SELECT tag, time_bucket(INTERVAL '1 hour',"
                  + " time) AS bucket, max(value), count(*) FROM c.r GROUP BY ALL WITH"
                  + " (refresh_interval = 'off', rollup_refresh_commit_rows = '10')")) {
        // created: 72 rows, one day in one window
      }

      List<TableInfo.SnapshotInfo> snapshots = lake.table("c.r_1h").info().snapshots();
      List<TableInfo.SnapshotInfo> refreshes =
          snapshots.stream()
              .filter(s -> "rollup-refresh".equals(s.summary().get("timelake.operation")))
              .toList();
      // 72 rows, about 10 a commit cut between hours (3 rows each): never more than 12.
      assertThat(refreshes).hasSizeBetween(7, 9);
      assertThat(refreshes)
          .allSatisfy(
              s ->
                  assertThat(Long.parseLong(s.summary().get("added-records")))
                      .isLessThanOrEqualTo(12));
      long rawSnapshot = raw.refresh().snapshotId().orElseThrow();
      for (int i = 0; i < refreshes.size(); i++) {
        boolean last = i == refreshes.size() - 1;
        assertThat(refreshes.get(i).summary().get("timelake.rollup-source-snapshot"))
            .as("commit %d", i)
            .isEqualTo(last ? Long.toString(rawSnapshot) : "-1");
      }
      assertThat(
              lake.verifyRollup(TableName.parse("c.r_1h"), RollupVerification.Options.allBuckets())
                  .isExact())
          .isTrue();
    }
  }
}
