package dev.timelake.refresh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ConflictException;
import dev.timelake.Lake;
import dev.timelake.QueryFailedException;
import dev.timelake.QueryResult;
import dev.timelake.RefreshReport;
import dev.timelake.RollupRoute;
import dev.timelake.RollupVerification;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableInfo;
import dev.timelake.TableName;
import dev.timelake.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paths that keep a rollup fresh (issue 30): inline refresh after appends by {@code
 * rollup-refresh-interval}, a refresh that fails halfway and its redo, two refreshes at once, a
 * rollup's own compaction carrying its record forward, the table's and the session's {@code
 * rollup-routing}, and {@code now()} in a routed filter.
 */
class RollupFreshnessTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String SOURCE_SNAPSHOT = "timelake.rollup-source-snapshot";
  private static final String SOURCE_SEQUENCE = "timelake.rollup-source-sequence";
  private static final String SOURCE_PENDING = "timelake.rollup-source-pending";
  private static final String DAILY =
      "SELECT tag, time_bucket(INTERVAL '1 day', time) AS day, count(*) AS n, sum(value) AS total,"
          + " max(value) AS high FROM f.r GROUP BY ALL ORDER BY ALL";

  @TempDir Path warehouse;
  private Lake lake;
  private Session session;

  @BeforeEach
  void open() {
    lake = Lake.open(warehouse);
    session = lake.newSession();
  }

  @AfterEach
  void close() {
    session.close();
    lake.close();
  }

  // 1. Inline refresh by rollup-refresh-interval.

  @Test
  void anAppendWithinTheDefaultIntervalLeavesTheRollupAndOneAfterItRefreshesIt() {
    Table raw = createRaw("f.r", true, 2);
    createRollup("f.r_1h", "1 hour", "");
    TableInfo.SnapshotInfo created = newest("f.r_1h");
    assertThat(created.summary()).containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)));

    // Right after the refresh that created it: not due (default 1m), the record stays.
    raw.newAppend().row("a", T0.plusSeconds(60), 7.0).commit();
    assertThat(lake.table("f.r_1h").info().snapshots()).last().isEqualTo(created);

    // An append whose clock is two minutes later: the last refresh is older than 1m.
    long before = rawSnapshot(raw);
    raw.newAppend()
        .clock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(2)))
        .row("b", T0.plusSeconds(120), 9.0)
        .commit();
    assertThat(rawSnapshot(raw)).isNotEqualTo(before);
    assertThat(newest("f.r_1h").summary())
        .containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)))
        .doesNotContainKey(SOURCE_PENDING);
    assertRoutedAsUnrouted(DAILY);
    assertExact("f.r_1h");
  }

  @Test
  void anIntervalOfZeroRefreshesTheRollupOnEveryAppend() {
    Table raw = createRaw("f.r", true, 2);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = '0s')");
    for (int i = 0; i < 3; i++) {
      raw.newAppend().row("a", T0.plusSeconds(600L * i + 30), 100.0 + i).commit();
      assertThat(newest("f.r_1h").summary())
          .as("after append %d", i)
          .containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)));
    }
    assertRoutedAsUnrouted(DAILY);
    assertExact("f.r_1h");
  }

  @Test
  void anIntervalOfOffNeverRefreshesTheRollupAfterAnAppendButMaintainDoes() {
    Table raw = createRaw("f.r", true, 2);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = 'off')");
    String recorded = newest("f.r_1h").summary().get(SOURCE_SNAPSHOT);
    int snapshots = lake.table("f.r_1h").info().snapshots().size();
    raw.newAppend()
        .clock(Clock.offset(Clock.systemUTC(), Duration.ofDays(1)))
        .row("a", T0.plusSeconds(30), 500.0)
        .commit();
    assertThat(lake.table("f.r_1h").info().snapshots()).hasSize(snapshots);
    assertThat(newest("f.r_1h").summary()).containsEntry(SOURCE_SNAPSHOT, recorded);
    // Routing reads the changed bucket from raw data meanwhile.
    assertRoutedAsUnrouted(DAILY);

    lake.table("f.r").newMaintenance().run();
    assertThat(newest("f.r_1h").summary())
        .containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)));
    assertExact("f.r_1h");
  }

  // 2. A refresh failing halfway.

  @Test
  void aRefreshFailingInALaterWindowKeepsTheOldRecordAndIsRedoneFromIt() throws IOException {
    Table raw = createRaw("f.r", false, 14);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = 'off')");
    String oldRecord = newest("f.r_1h").summary().get(SOURCE_SNAPSHOT);
    String oldSequence = newest("f.r_1h").summary().get(SOURCE_SEQUENCE);
    // New readings on days 0-3 and 8-12, which change more than 7 days of buckets: two windows,
    // the second ending with day 12. Days 4-7 and 13 are unchanged.
    List<Object[]> late = new ArrayList<>();
    for (int day : List.of(0, 1, 2, 3, 8, 9, 10, 11, 12)) {
      for (int hour = 0; hour < 24; hour += 3) {
        late.add(
            new Object[] {
              "a", T0.plusSeconds((day * 24L + hour) * 3_600L + 17 * 60), 1_000.0 + hour
            });
      }
    }
    TestTables.commitReadings(raw.newAppend(), "tag", late);
    List<String> plan = lake.refreshPlan(TableName.parse("f.r_1h"));

    // A raw data file of day 12 goes missing: the second window, which reads it, fails.
    Path missing = fileOfDay(raw, T0.plus(Duration.ofDays(12)));
    Path hidden = missing.resolveSibling(missing.getFileName() + ".hidden");
    Files.move(missing, hidden);
    int before = lake.table("f.r_1h").info().snapshots().size();
    assertThatThrownBy(() -> lake.refreshRollup(TableName.parse("f.r_1h")))
        .isInstanceOf(QueryFailedException.class)
        .hasMessageContaining("Cannot refresh rollup f.r_1h (window 2 of 2, the old record stays)");
    Files.move(hidden, missing);

    // The first window committed, with the old record and the raw snapshot it reflects as pending.
    List<TableInfo.SnapshotInfo> snapshots = lake.table("f.r_1h").info().snapshots();
    assertThat(snapshots).hasSizeGreaterThan(before);
    assertThat(snapshots.get(snapshots.size() - 1).summary())
        .containsEntry(SOURCE_SNAPSHOT, oldRecord)
        .containsEntry(SOURCE_SEQUENCE, oldSequence)
        .containsEntry(SOURCE_PENDING, Long.toString(rawSnapshot(raw)));
    // Routing takes the old record: the changed buckets of both windows come from raw data.
    assertRoutedAsUnrouted(DAILY);
    assertRoutedAsUnrouted(
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, count(*), sum(value) FROM f.r"
            + " WHERE time >= TIMESTAMPTZ '2026-01-02 00:00:00+00' AND time < TIMESTAMPTZ"
            + " '2026-01-12 00:00:00+00' GROUP BY ALL ORDER BY ALL");

    // The same buckets, planned from the old record, are recomputed and the rollup is exact.
    assertThat(lake.refreshPlan(TableName.parse("f.r_1h"))).isEqualTo(plan);
    RefreshReport redone = lake.refreshRollup(TableName.parse("f.r_1h"));
    assertThat(redone.windows()).isEqualTo(2);
    assertThat(redone.reflectsSnapshot()).isEqualTo(rawSnapshot(raw));
    assertThat(newest("f.r_1h").summary())
        .containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)))
        .doesNotContainKey(SOURCE_PENDING);
    assertExact("f.r_1h");
    assertRoutedAsUnrouted(DAILY);
  }

  // 3. Two refreshes at once.

  @Test
  void twoLakesRefreshingTheSameRollupAtOnceLeaveItExact() throws Exception {
    Table raw = createRaw("f.r", false, 10);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = 'off')");
    // Without the rollup's own inline compaction after each refresh, which can race the other
    // refresh's commits and record an older raw snapshot (see the disabled test below).
    lake.table("f.r_1h").alter(Map.of("auto-maintain", "false"));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Lake a = Lake.open(warehouse);
        Lake b = Lake.open(warehouse)) {
      for (int round = 0; round < 3; round++) {
        List<Object[]> late = new ArrayList<>();
        for (int hour = round; hour < 10 * 24; hour += 5) {
          late.add(new Object[] {"b", T0.plusSeconds(hour * 3_600L + 41), 2_000.0 + round});
        }
        TestTables.commitReadings(raw.newAppend(), "tag", late);
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<RefreshReport>> refreshes = new ArrayList<>();
        for (Lake lake : List.of(a, b)) {
          refreshes.add(
              pool.submit(
                  () -> {
                    start.await(1, TimeUnit.MINUTES);
                    return lake.refreshRollup(TableName.parse("f.r_1h"));
                  }));
        }
        int succeeded = 0;
        for (Future<RefreshReport> refresh : refreshes) {
          try {
            refresh.get(2, TimeUnit.MINUTES);
            succeeded++;
          } catch (ExecutionException e) {
            // Losing to the other refresh's commit is acceptable; anything else is not.
            assertThat(e.getCause()).as("round %d", round).isInstanceOf(ConflictException.class);
          }
        }
        assertThat(succeeded).as("round %d", round).isPositive();
        assertRoutedAsUnrouted(DAILY);
        if (succeeded < 2) {
          // The loser may have committed a first window over the winner's record: it is redone
          // from the record it left, as any refresh that failed halfway.
          lake.refreshRollup(TableName.parse("f.r_1h"));
        }
        assertThat(newest("f.r_1h").summary())
            .as("round %d", round)
            .containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)))
            .doesNotContainKey(SOURCE_PENDING);
        assertExact("f.r_1h");
        assertRoutedAsUnrouted(DAILY);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // 4. A rollup's own compaction.

  @Test
  void aRollupsCompactionCarriesItsRecordForwardAndRoutingStillReadsIt() {
    Table raw = createRaw("f.r", false, 2);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = 'off')");
    Table rollup = lake.table("f.r_1h").alter(Map.of("auto-maintain", "false"));
    for (int day = 2; day < 5; day++) {
      TestTables.commitReadings(raw.newAppend(), "tag", readings(day, day + 1));
      lake.refreshRollup(TableName.parse("f.r_1h"));
    }
    assertThat(TestTables.dataFiles(rollup.refresh())).hasSizeGreaterThanOrEqualTo(4);
    Map<String, String> refreshed = newest("f.r_1h").summary();
    assertThat(refreshed)
        .containsEntry("timelake.operation", "rollup-refresh")
        .containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)));

    lake.table("f.r_1h").newMaintenance().run();

    Map<String, String> compacted = newest("f.r_1h").summary();
    assertThat(compacted).containsEntry("timelake.operation", "compaction");
    assertThat(compacted)
        .containsEntry(SOURCE_SNAPSHOT, refreshed.get(SOURCE_SNAPSHOT))
        .containsEntry(SOURCE_SEQUENCE, refreshed.get(SOURCE_SEQUENCE));
    assertThat(lake.table("f.r_1h").info().partitions())
        .allSatisfy(partition -> assertThat(partition.files()).as(partition.label()).isOne());
    try (QueryResult result = routed(DAILY)) {
      assertThat(result.routes())
          .extracting(RollupRoute::rollups)
          .containsExactly(List.of(TableName.parse("f.r_1h")));
      assertThat(String.join("\n", result.explanation()))
          .contains("f.r: nothing from the raw table");
    }
    assertRoutedAsUnrouted(DAILY);
    assertExact("f.r_1h");
  }

  /**
   * A compaction of the rollup that another process's refresh commits under (after the compaction
   * was planned, before it commits): Iceberg retries the rewrite on top of the refresh's snapshot,
   * and the compaction's snapshot must then carry the refresh's record, the newest, not the one of
   * the snapshot the compaction was planned on. The refresh runs from the maintenance's progress
   * listener, between "compacting" and the commit.
   */
  @Test
  void aRollupsCompactionRacingARefreshCarriesTheRecordOfTheSnapshotItCommitsOn() {
    Table raw = createRaw("f.r", false, 2);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = 'off')");
    lake.table("f.r_1h").alter(Map.of("auto-maintain", "false"));
    for (int day = 2; day < 4; day++) {
      TestTables.commitReadings(raw.newAppend(), "tag", readings(day, day + 1));
      lake.refreshRollup(TableName.parse("f.r_1h"));
    }
    TestTables.commitReadings(raw.newAppend(), "tag", readings(4, 5));
    AtomicReference<RefreshReport> raced = new AtomicReference<>();
    try (Lake other = Lake.open(warehouse)) {
      lake.table("f.r_1h")
          .newMaintenance()
          .progress(
              message -> {
                if (message.startsWith("compacting") && raced.get() == null) {
                  raced.set(other.refreshRollup(TableName.parse("f.r_1h")));
                }
              })
          .run();
    }
    assertThat(raced.get()).isNotNull();
    assertThat(raced.get().reflectsSnapshot()).isEqualTo(rawSnapshot(raw));
    // The compaction was applied again on the refresh's snapshot with the record it loaded; a
    // commit without files after it carries the refresh's record forward again.
    Map<String, String> compacted = newest("f.r_1h").summary();
    assertThat(compacted)
        .containsEntry("timelake.operation", "compaction-record")
        .containsEntry(SOURCE_SNAPSHOT, Long.toString(rawSnapshot(raw)))
        .doesNotContainKey(SOURCE_PENDING);
    assertRoutedAsUnrouted(DAILY);
    assertExact("f.r_1h");
  }

  // 5. The table's rollup-routing and the session's.

  @Test
  void theSessionsRollupRoutingOverridesTheTables() {
    createRaw("f.r", false, 2);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = 'off')");
    List<List<Object>> unrouted;
    lake.table("f.r").alter(Map.of("rollup-routing", "false"));
    try (Session plain = lake.newSession();
        QueryResult result = plain.sql(DAILY)) {
      assertThat(result.isRouted()).isFalse();
      assertThat(result.routes().get(0).reason()).hasValue("rollup-routing is off");
      unrouted = result.rows();
    }
    try (Session on = lake.newSession().set("rollup-routing", "true");
        QueryResult result = on.sql(DAILY)) {
      assertThat(result.isRouted()).as(String.join("\n", result.explanation())).isTrue();
      SameAnswers.assertSameRows(result.rows(), unrouted, DAILY);
    }

    lake.table("f.r").alter(Map.of("rollup-routing", "true"));
    try (Session plain = lake.newSession();
        QueryResult result = plain.sql(DAILY)) {
      assertThat(result.isRouted()).isTrue();
      SameAnswers.assertSameRows(result.rows(), unrouted, DAILY);
    }
    try (Session off = lake.newSession().set("rollup-routing", "false");
        QueryResult result = off.sql(DAILY)) {
      assertThat(result.isRouted()).isFalse();
      assertThat(result.routes().get(0).reason()).hasValue("rollup-routing is off");
      SameAnswers.assertSameRows(result.rows(), unrouted, DAILY);
    }
  }

  // 6. now() in a routed filter.

  @Test
  void aFilterOnNowMinusAnIntervalIsRoutedAndAnswersAsUnrouted() {
    Table raw =
        lake.createTable(TestTables.tagReadings("f.r").option("auto-maintain", "false").build());
    // Readings every ten minutes over five days up to now, five minutes off the ten-minute marks:
    // now() moves by less than that between the two runs, so no reading crosses the boundary.
    Instant now = Instant.now();
    Instant last = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofMinutes(5));
    while (last.isAfter(now)) {
      last = last.minus(Duration.ofMinutes(10));
    }
    List<Object[]> readings = new ArrayList<>();
    for (int i = 0; i < 5 * 144; i++) {
      Instant at = last.minus(Duration.ofMinutes(10L * i));
      readings.add(new Object[] {i % 2 == 0 ? "a" : "b", at, (double) (i % 37)});
    }
    TestTables.commitReadings(raw.newAppend(), "tag", readings);
    createRollup("f.r_1h", "1 hour", " WITH (refresh_interval = 'off')");

    String query =
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, count(*) AS n, sum(value),"
            + " max(value) FROM f.r WHERE time >= now() - INTERVAL '3 days' GROUP BY ALL ORDER"
            + " BY ALL";
    List<List<Object>> rows;
    try (QueryResult result = routed(query)) {
      assertThat(result.isRouted()).as(String.join("\n", result.explanation())).isTrue();
      rows = result.rows();
    }
    // The two tags alternate every ten minutes: just after :05 the hour under way holds one
    // reading, of one tag only.
    assertThat(rows).hasSizeBetween(2 * 3 * 24 - 1, 2 * (3 * 24 + 1));
    SameAnswers.assertSameRows(rows, unrouted(query), query);
  }

  // Fixtures.

  /**
   * A raw table {@code name} with inline maintenance on or off, holding readings of tags a and b
   * every 30 minutes over {@code days} days from T0.
   */
  private Table createRaw(String name, boolean autoMaintain, int days) {
    Table raw =
        lake.createTable(
            TestTables.tagReadings(name)
                .option("auto-maintain", Boolean.toString(autoMaintain))
                .build());
    TestTables.commitReadings(raw.newAppend().withoutMaintenance(), "tag", readings(0, days));
    return raw;
  }

  /** Readings of tags a and b every 30 minutes from day {@code from} to day {@code to}. */
  private static List<Object[]> readings(int from, int to) {
    List<Object[]> readings = new ArrayList<>();
    for (int minute = from * 1_440; minute < to * 1_440; minute += 30) {
      readings.add(new Object[] {"a", T0.plusSeconds(minute * 60L), (double) (minute % 101)});
      readings.add(new Object[] {"b", T0.plusSeconds(minute * 60L + 7), (double) (minute % 53)});
    }
    return readings;
  }

  private void createRollup(String name, String width, String with) {
    sql(
        "CREATE MATERIALIZED ROLLUP "
            + name
            + " AS SELECT tag, time_bucket(INTERVAL '"
            + width
            + "', time) AS bucket, count(*) AS n, sum(value) AS total, max(value) AS high FROM"
            + " f.r GROUP BY ALL"
            + with);
  }

  /** The Parquet file of the raw table's partition of the UTC day beginning at {@code day}. */
  private Path fileOfDay(Table raw, Instant day) {
    String label = day.toString().substring(0, 10);
    List<Path> files =
        TestTables.dataFiles(raw.refresh()).stream()
            .filter(file -> file.toString().contains(label))
            .toList();
    assertThat(files).as("files of %s in %s", label, TestTables.dataFiles(raw)).isNotEmpty();
    return files.get(0);
  }

  private TableInfo.SnapshotInfo newest(String table) {
    List<TableInfo.SnapshotInfo> snapshots = lake.table(table).info().snapshots();
    return snapshots.get(snapshots.size() - 1);
  }

  private static long rawSnapshot(Table raw) {
    return raw.refresh().snapshotId().orElseThrow();
  }

  private void assertExact(String rollup) {
    RollupVerification verification =
        lake.verifyRollup(TableName.parse(rollup), RollupVerification.Options.allBuckets());
    assertThat(verification.isExact()).as(verification.toString()).isTrue();
  }

  /** The query routed (asserted), with the same rows as unrouted. */
  private void assertRoutedAsUnrouted(String query) {
    List<List<Object>> rows;
    try (QueryResult result = routed(query)) {
      assertThat(result.isRouted()).as(String.join("\n", result.explanation())).isTrue();
      rows = result.rows();
    }
    SameAnswers.assertSameRows(rows, unrouted(query), query);
  }

  private QueryResult routed(String query) {
    session.set("rollup-routing", "true");
    return session.sql(query);
  }

  private List<List<Object>> unrouted(String query) {
    session.set("rollup-routing", "false");
    try (QueryResult result = session.sql(query)) {
      return result.rows();
    } finally {
      session.set("rollup-routing", "true");
    }
  }

  private void sql(String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }
}
