package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A DELETE records which rows it removed, so a rollup that follows deletes (the default) is read
 * from raw data where rows went until its next refresh, which recomputes only the cells they were
 * in — a cell left without rows disappears — and a rollup with {@code follow_deletes = false} keeps
 * what the deleted rows contributed.
 */
class RollupAfterDeleteTest extends WithLakeSession {
  private static final String HOURLY =
      "SELECT device, time_bucket(INTERVAL '1 hour', time) AS hour, count(*), sum(value) FROM"
          + " iot.r GROUP BY ALL";

  @BeforeEach
  void createTableAndRollup() {
    // One snapshot kept, orphans removed at once: what the expiry cases need, harmless elsewhere.
    run(
        "CREATE TABLE iot.r (device VARCHAR, site VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device', auto_maintain = false,"
            + " max_snapshots = 1, orphan_file_age = '0s')");
    // Two days of three devices at two sites, every 10 minutes.
    run(
        "INSERT INTO iot.r SELECT d, CASE WHEN d = 'c' THEN 'north' ELSE 'south' END,"
            + " TIMESTAMPTZ '2026-01-01 00:00:00+00' + m * INTERVAL '10 minutes', m FROM (VALUES"
            + " ('a'), ('b'), ('c')) v(d), range(0, 288) t(m)");
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY device,"
            + " bucket");
  }

  @Test
  void theNextRefreshRecomputesOnlyTheCellsTheDeletedRowsWereIn() {
    run(
        "DELETE FROM iot.r WHERE device = 'b' AND time >= '2026-01-01 06:00:00+00'"
            + " AND time < '2026-01-01 08:30:00+00'");

    List<String> plan = lines("EXPLAIN REFRESH MATERIALIZED ROLLUP iot.r_1h");
    assertThat(plan)
        .anyMatch(line -> line.contains("rows removed by 1 DELETE commits touch 3 buckets"))
        .anyMatch(line -> line.contains("the cells of 0 changed files; the cells of rows 1 DELETE"))
        .noneMatch(line -> line.contains("computed again"));
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");

    // Hours 6 and 7 of b are gone; hour 8 keeps its three rows after 08:30.
    assertThat(
            rows(
                "SELECT hour(bucket), n FROM iot.r_1h WHERE device = 'b' AND bucket >="
                    + " '2026-01-01 05:00:00+00' AND bucket < '2026-01-01 10:00:00+00' ORDER BY 1"))
        .containsExactly(List.of(5L, 6L), List.of(8L, 3L), List.of(9L, 6L));
    assertThat(rows("SELECT count(*) FROM iot.r_1h")).containsExactly(List.of(3L * 48 - 2));
    assertRoutedEqualsRaw(HOURLY);
    assertThat(
            lake.verifyRollup(
                    dev.timelake.TableName.parse("iot.r_1h"),
                    dev.timelake.RollupVerification.Options.allBuckets())
                .mismatches())
        .isZero();
  }

  @Test
  void aDeleteThatEmptiesTheOldestPartitionIsNotTakenForRetention() {
    run("DELETE FROM iot.r WHERE time < '2026-01-02'");
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");

    assertThat(rows("SELECT count(*) FROM iot.r_1h WHERE bucket < '2026-01-02'"))
        .containsExactly(List.of(0L));
    assertThat(rows("SELECT count(*) FROM iot.r_1h")).containsExactly(List.of(3L * 24));
    assertRoutedEqualsRaw(HOURLY);
  }

  @Test
  void untilTheRefreshTheBucketsRowsLeftAreReadFromRawData() {
    run("DELETE FROM iot.r WHERE value >= 100 AND value < 110");

    assertThat(lines("EXPLAIN " + HOURLY))
        .anyMatch(line -> line.contains("iot.r_1h"))
        .anyMatch(line -> line.contains("raw"));
    assertRoutedEqualsRaw(HOURLY);
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");
    assertRoutedEqualsRaw(HOURLY);
    assertThat(rows("SELECT sum(n)::BIGINT FROM iot.r_1h")).containsExactly(List.of(3L * 288 - 30));
  }

  @Test
  void aRollupThatDoesNotFollowDeletesKeepsWhatTheDeletedRowsContributed() {
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_kept_1d AS SELECT device, time_bucket(INTERVAL '1 day',"
            + " time) AS bucket, count(*) AS n FROM iot.r GROUP BY device, bucket WITH"
            + " (follow_deletes = false)");
    run("DELETE FROM iot.r WHERE device = 'a'");
    run("REFRESH MATERIALIZED ROLLUP iot.r_kept_1d");
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");

    assertThat(rows("SELECT count(*), sum(n)::BIGINT FROM iot.r_kept_1d WHERE device = 'a'"))
        .containsExactly(List.of(2L, 288L));
    assertThat(rows("SELECT count(*) FROM iot.r_1h WHERE device = 'a'"))
        .containsExactly(List.of(0L));
    String daily =
        "SELECT device, time_bucket(INTERVAL '1 day', time) AS day, count(*) FROM iot.r GROUP BY"
            + " ALL";
    assertThat(lines("EXPLAIN " + daily))
        .anyMatch(line -> line.contains("iot.r_kept_1d") && line.contains("follow_deletes"));
    assertRoutedEqualsRaw(daily);

    run("TRUNCATE iot.r");
    run("REFRESH MATERIALIZED ROLLUP iot.r_kept_1d");
    assertThat(rows("SELECT count(*) FROM iot.r_kept_1d")).containsExactly(List.of(6L));
  }

  @Test
  void aRefreshWhoseHistoryExpiredAfterADeleteComputesTheRollupAgain() {
    run("DELETE FROM iot.r WHERE device = 'a' AND time < '2026-01-01 12:00:00+00'");
    // Inline expiry waits for 20 expirable snapshots; it does not refresh rollups.
    for (int i = 0; i < 21; i++) {
      run("INSERT INTO iot.r VALUES ('a', 'south', '2026-01-02 23:55:00+00', " + i + ")");
    }
    lake.table("iot.r").newMaintenance().inlineOnly().run();

    assertThat(lines("EXPLAIN REFRESH MATERIALIZED ROLLUP iot.r_1h"))
        .anyMatch(line -> line.contains("has had DELETEs") && line.contains("computed again"));
    assertRoutedEqualsRaw(HOURLY);
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");
    assertThat(rows("SELECT count(*) FROM iot.r_1h WHERE device = 'a'"))
        .containsExactly(List.of(36L));
    assertRoutedEqualsRaw(HOURLY);
  }

  @Test
  void maintenanceKeepsTheRecordOfTheRemovedRowsWhileItsSnapshotLives() {
    run("DELETE FROM iot.r WHERE device = 'c'");
    lake.table("iot.r").newMaintenance().run();

    assertThat(rows("SELECT count(*) FROM iot.r_1h WHERE device = 'c'"))
        .containsExactly(List.of(0L));
    run("DELETE FROM iot.r WHERE device = 'b' AND time < '2026-01-01 01:00:00+00'");
    lake.table("iot.r").newMaintenance().run();
    assertThat(rows("SELECT count(*) FROM iot.r_1h WHERE device = 'b'"))
        .containsExactly(List.of(47L));
    assertRoutedEqualsRaw(HOURLY);
  }

  private List<String> lines(String sql) {
    return rows(sql).stream().map(row -> String.valueOf(row.get(row.size() - 1))).toList();
  }
}
