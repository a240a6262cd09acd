package dev.timelake.refresh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ConflictException;
import dev.timelake.Lake;
import dev.timelake.NotFoundException;
import dev.timelake.QueryResult;
import dev.timelake.RollupVerification;
import dev.timelake.RollupVerification.Options;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import dev.timelake.ValidationException;
import dev.timelake.catalog.Catalogs;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupStore;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.write.AppendSource;
import dev.timelake.write.PendingAppend;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Lake.verifyRollup}: rollups refreshed as usual verify exactly, against the raw snapshot
 * they record; rollups made wrong on purpose (rows committed to them as a broken refresh would)
 * report each wrong cell; samples limit the buckets; what cannot be verified is refused by name.
 */
class RollupVerifyTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final TableName RAW = TableName.parse("iot.r");
  private static final TableName TEN_MINUTES = TableName.parse("iot.r_10m");
  private static final TableName HOURLY = TableName.parse("iot.r_1h");
  private static final TableName EDGES = TableName.parse("iot.r_edges");
  private static final TableName WEEKLY = TableName.parse("iot.r_1w");
  private static final String STATISTICS =
      "avg(value) AS mean, min(value) AS low, max(value) AS high, count(*) AS n, sum(value) AS"
          + " total";

  @TempDir Path warehouse;

  /** A reading as appended, kept so that a later append can send a copy of it. */
  private record Reading(String tag, Instant time) {}

  private static Table createRaw(Lake lake) {
    // Copies are kept on read by default here: verification removes them anyway, as refresh does.
    return lake.createTable(
        TestTables.tagReadings(RAW.toString()).option("read-dedup", "false").build());
  }

  private static void sql(Lake lake, String statement) {
    try (Session session = lake.newSession();
        QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }

  private static void createRollup(Lake lake, TableName name, String width, String aggregates) {
    sql(
        lake,
        "CREATE MATERIALIZED ROLLUP "
            + name
            + " AS SELECT tag, time_bucket(INTERVAL '"
            + width
            + "', time) AS bucket, "
            + aggregates
            + " FROM iot.r GROUP BY tag, bucket WITH (refresh_interval = 'off')");
  }

  /** One reading per tag every 10 minutes for {@code hours} hours from T0, values counting up. */
  private static void appendRegular(Table raw, int hours) {
    var append = raw.newAppend();
    for (int i = 0; i < hours * 6; i++) {
      for (int tag = 0; tag < 3; tag++) {
        append.row("t" + tag, T0.plusSeconds(i * 600L + tag), (double) (i * 3 + tag));
      }
    }
    append.commit();
  }

  /**
   * {@code rows} random readings up to {@code hours} hours after T0 (late for the earlier hours),
   * some NULL, plus new values for up to 20 readings sent before (copies: the newest wins).
   */
  private static void appendRandom(
      Table raw, TestRandom random, List<Reading> sent, int rows, int hours) {
    var append = raw.newAppend();
    for (int i = 0; i < rows; i++) {
      Reading reading =
          new Reading("t" + random.nextInt(4), T0.plusSeconds(random.nextInt(hours * 3600)));
      append.row(reading.tag(), reading.time(), value(random));
      sent.add(reading);
    }
    for (int i = 0; i < Math.min(20, sent.size()); i++) {
      Reading copy = sent.get(random.nextInt(sent.size()));
      append.row(copy.tag(), copy.time(), value(random));
    }
    append.commit();
  }

  private static Double value(TestRandom random) {
    return random.nextInt(20) == 0 ? null : random.nextInt(4000) / 4.0;
  }

  /** One value of a query over raw data, copies removed, not routed to a rollup. */
  private static Object rawValue(Lake lake, String query) {
    try (Session session =
            lake.newSession().set("rollup-routing", "false").set("read-dedup", "true");
        QueryResult result = session.sql(query)) {
      return result.rows().get(0).get(0);
    }
  }

  private static long hourlyCells(Lake lake) {
    return ((Number)
            rawValue(
                lake,
                "SELECT count(*) FROM (SELECT DISTINCT tag, time_bucket(INTERVAL '1 hour', time)"
                    + " FROM iot.r)"))
        .longValue();
  }

  /** What the lake's catalog does inside: commits to a rollup as a (broken) refresh would. */
  private LakeCatalog catalog() {
    return new LakeCatalog(
        Catalogs.openEmbedded(warehouse), "test catalog", warehouse.resolve(".test-tmp"));
  }

  /**
   * Commits the rows of {@code sql} to {@code rollup} keeping the raw snapshot it records, its
   * summary also carrying {@code extra}: the rows a broken refresh would leave.
   */
  private void commitToRollup(TableName rollup, String sql, Map<String, String> extra) {
    try (LakeCatalog catalog = catalog();
        EngineConnection connection = catalog.engine().connect()) {
      Rollup current = RollupStore.require(catalog, rollup);
      Map<String, String> record = new HashMap<>(extra);
      record.put(SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT, Long.toString(current.sourceSnapshot()));
      record.put(SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE, Long.toString(current.sourceSequence()));
      Consumer<String> progress = message -> {};
      try (PendingAppend pending = new PendingAppend(catalog.require(rollup), connection)) {
        pending.add(new AppendSource.Query(sql, AppendSource.Casting.INTERNAL), Instant.now());
        pending.commit("rollup-refresh", Optional.empty(), record, progress);
      }
    }
  }

  /** A row of the hourly rollup, {@code tag} at {@code bucket}, every aggregate 1 but high. */
  private static String hourlyRow(String tag, String bucket, double high) {
    return "SELECT '"
        + tag
        + "' AS tag, TIMESTAMPTZ '"
        + bucket
        + "' AS bucket, 1.0 AS mean, 1.0 AS low, "
        + high
        + " AS high, 1 AS n, 1.0 AS total, 1 AS count_value";
  }

  @Test
  void rollupsRefreshedWithLateRowsAndCopiesVerifyExactly() {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse)) {
      Table raw = createRaw(lake);
      List<Reading> sent = new ArrayList<>();
      appendRandom(raw, random, sent, 300, 6);
      createRollup(lake, TEN_MINUTES, "10 minutes", STATISTICS);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);
      createRollup(
          lake,
          EDGES,
          "1 hour",
          "first_value(value ORDER BY time) AS opening, last_value(value ORDER BY time) AS"
              + " closing, m4(time, value) AS shape");
      for (int round = 0; round < 3; round++) {
        appendRandom(raw, random, sent, 100, 8);
        // The hourly rollup is computed from the 10-minute one where that one is up to date.
        lake.refreshRollup(TEN_MINUTES);
        lake.refreshRollup(HOURLY);
        lake.refreshRollup(EDGES);
      }
      long current = raw.refresh().info().snapshots().get(raw.info().snapshots().size() - 1).id();

      for (TableName rollup : List.of(TEN_MINUTES, HOURLY, EDGES)) {
        RollupVerification check = lake.verifyRollup(rollup, Options.allBuckets());
        assertThat(check.mismatches()).as("%s %s: %s", rollup, random, check.examples()).isZero();
        assertThat(check.isExact()).isTrue();
        assertThat(check.rawSnapshot()).isEqualTo(current);
        assertThat(check.uncheckedBefore()).isEmpty();
      }
      RollupVerification hourly = lake.verifyRollup(HOURLY, Options.allBuckets());
      assertThat(hourly.cellsChecked()).as("%s", random).isEqualTo(hourlyCells(lake));
      assertThat(hourly.bucketsChecked()).isEqualTo(8).isEqualTo(hourly.bucketsTotal());
      assertThat(hourly.columnsNotCompared()).isEmpty();
      assertThat(lake.verifyRollup(EDGES, Options.allBuckets()).columnsNotCompared())
          .containsExactly("shape");
    }
  }

  @Test
  void rawDataCommittedAfterTheRefreshIsNoMismatch() {
    try (Lake lake = Lake.open(warehouse)) {
      Table raw = createRaw(lake);
      appendRegular(raw, 4);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);
      long recorded = lake.rollup(HOURLY).reflectsSnapshot();
      long cells = hourlyCells(lake);
      // A late row into an existing cell, a copy with a new value, and a new cell; no refresh.
      raw.newAppend()
          .row("t0", T0.plusSeconds(90), 500.0)
          .row("t1", T0.plusSeconds(601), 600.0)
          .row("t9", T0.plusSeconds(7200), 1.0)
          .commit();

      RollupVerification check = lake.verifyRollup(HOURLY, Options.allBuckets());

      assertThat(check.mismatches()).as("%s", check.examples()).isZero();
      assertThat(check.rawSnapshot()).isEqualTo(recorded);
      assertThat(check.cellsChecked()).isEqualTo(cells).isEqualTo(12);
    }
  }

  @Test
  void aWrongValueAndACellWithoutRawRowsAreReportedByCellAndColumn() {
    try (Lake lake = Lake.open(warehouse)) {
      appendRegular(createRaw(lake), 4);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);
      commitToRollup(
          HOURLY,
          hourlyRow("t1", "2026-01-01 01:00:00+00", 999.0)
              + " UNION ALL "
              + hourlyRow("ghost", "2026-01-01 02:00:00+00", 5.0),
          Map.of());
      Object high =
          rawValue(
              lake,
              "SELECT max(value) FROM iot.r WHERE tag = 't1' AND time >= '2026-01-01"
                  + " 01:00:00+00' AND time < '2026-01-01 02:00:00+00'");

      RollupVerification check = lake.verifyRollup(HOURLY, Options.allBuckets());

      assertThat(check.isExact()).isFalse();
      assertThat(check.mismatches()).isEqualTo(2);
      assertThat(check.cellsChecked()).isEqualTo(13);
      assertThat(check.examples()).hasSize(2);
      assertThat(check.examples().get(0))
          .startsWith("tag='t1', bucket=2026-01-01T01:00:00Z: ")
          .contains("high stored 999.0, raw data gives " + high)
          .contains("n stored 1, raw data gives 6");
      assertThat(check.examples().get(1))
          .isEqualTo(
              "tag='ghost', bucket=2026-01-01T02:00:00Z: stored in the rollup, but raw data has no"
                  + " rows there");
    }
  }

  @Test
  void cellsMissingFromTheRollupAreReported() {
    try (Lake lake = Lake.open(warehouse)) {
      Table raw = createRaw(lake);
      appendRegular(raw, 2);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);
      raw.newAppend().row("t7", T0.plusSeconds(4000), 1.0).commit();
      // A refresh that records the new raw snapshot without computing its rows.
      try (LakeCatalog catalog = catalog()) {
        Snapshot snapshot = catalog.require(RAW).iceberg().currentSnapshot();
        RefreshCommitter.recordOnly(
            catalog.require(HOURLY),
            Map.of(
                SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT,
                Long.toString(snapshot.snapshotId()),
                SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE,
                Long.toString(snapshot.sequenceNumber())));
      }

      RollupVerification check = lake.verifyRollup(HOURLY, Options.allBuckets());

      assertThat(check.mismatches()).isEqualTo(1);
      assertThat(check.examples())
          .containsExactly(
              "tag='t7', bucket=2026-01-01T01:00:00Z: missing from the rollup; raw data has rows"
                  + " there");
    }
  }

  @Test
  void aSampleLimitsBothSidesToTheChosenBuckets() {
    try (Lake lake = Lake.open(warehouse)) {
      appendRegular(createRaw(lake), 12);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);

      RollupVerification five = lake.verifyRollup(HOURLY, Options.sample(5, 42));
      assertThat(five.bucketsChecked()).isEqualTo(5);
      assertThat(five.bucketsTotal()).isEqualTo(12);
      assertThat(five.cellsChecked()).isEqualTo(15);
      RollupVerification all = lake.verifyRollup(HOURLY, Options.sample(100, 7));
      assertThat(all.bucketsChecked()).isEqualTo(12);
      assertThat(all.cellsChecked()).isEqualTo(36);

      // A stored cell in a bucket raw data does not hold is sampled like any other bucket.
      commitToRollup(HOURLY, hourlyRow("ghost", "2026-02-01 00:00:00+00", 5.0), Map.of());
      int sampledGhost = 0;
      for (long seed = 0; seed < 12; seed++) {
        RollupVerification check = lake.verifyRollup(HOURLY, Options.sample(3, seed));
        assertThat(check.bucketsTotal()).isEqualTo(13);
        assertThat(check.bucketsChecked()).isEqualTo(3);
        boolean ghost = check.cellsChecked() == 2 * 3 + 1;
        assertThat(check.cellsChecked()).as("seed %d", seed).isIn(3L * 3, 2L * 3 + 1);
        assertThat(check.mismatches()).as("seed %d", seed).isEqualTo(ghost ? 1 : 0);
        sampledGhost += ghost ? 1 : 0;
      }
      assertThat(sampledGhost).isPositive();
      assertThat(lake.verifyRollup(HOURLY, Options.allBuckets()).mismatches()).isEqualTo(1);
    }
  }

  @Test
  void bucketsBeginningBeforeWhatRetentionKeptAreNotChecked() {
    try (Lake lake = Lake.open(warehouse)) {
      Table raw = createRaw(lake);
      // Daily raw partitions from Thursday 2026-01-01; weekly buckets start on Mondays.
      appendRegular(raw, 14 * 24);
      createRollup(lake, WEEKLY, "7 days", STATISTICS);

      // Nothing was ever dropped: the week that began on Monday 2025-12-29 is whole.
      RollupVerification whole = lake.verifyRollup(WEEKLY, Options.allBuckets());
      assertThat(whole.uncheckedBefore()).isEmpty();
      assertThat(whole.bucketsChecked()).isEqualTo(3);

      // A table with retention whose drops an older version made without recording them: its
      // oldest partition is where the rows it may have lost end.
      raw.alter(java.util.Map.of("retention", "100y"));
      RollupVerification check = lake.verifyRollup(WEEKLY, Options.allBuckets());

      assertThat(check.uncheckedBefore()).contains(Instant.parse("2026-01-05T00:00:00Z"));
      assertThat(check.bucketsChecked()).isEqualTo(2); // from Monday 5 and Monday 12
      assertThat(check.cellsChecked()).isEqualTo(2 * 3);
      assertThat(check.isExact()).isTrue();
    }
  }

  @Test
  void aRollupThatReflectsNothingYetIsRefused() {
    try (Lake lake = Lake.open(warehouse)) {
      appendRegular(createRaw(lake), 2);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);
      sql(lake, "TRUNCATE iot.r"); // empties the rollup until its refresh

      assertThatThrownBy(() -> lake.verifyRollup(HOURLY, Options.allBuckets()))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot verify rollup iot.r_1h: it reflects no snapshot of iot.r yet (it was never"
                  + " refreshed, or a TRUNCATE or rollback of iot.r emptied it); refresh it"
                  + " first: REFRESH MATERIALIZED ROLLUP iot.r_1h (timelake rollup refresh"
                  + " iot.r_1h)");
      appendRegular(lake.table("iot.r"), 2);
      lake.refreshRollup(HOURLY);
      assertThat(lake.verifyRollup(HOURLY, Options.allBuckets()).cellsChecked()).isEqualTo(6);
    }
  }

  @Test
  void anUnfinishedRefreshIsRefused() {
    try (Lake lake = Lake.open(warehouse)) {
      appendRegular(createRaw(lake), 2);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);
      commitToRollup(
          HOURLY,
          hourlyRow("t0", "2026-01-01 00:00:00+00", 1.0),
          Map.of(SnapshotSummaries.ROLLUP_SOURCE_PENDING, "12345"));

      assertThatThrownBy(() -> lake.verifyRollup(HOURLY, Options.allBuckets()))
          .isInstanceOf(ConflictException.class)
          .hasMessage(
              "Cannot verify rollup iot.r_1h: a refresh to snapshot 12345 of iot.r has not"
                  + " finished (it is running, or failed), so some of its rows reflect a newer"
                  + " snapshot than the one recorded; refresh it (timelake rollup refresh"
                  + " iot.r_1h) and verify again");
    }
  }

  @Test
  void anExpiredRecordedSnapshotIsRefused() {
    try (Lake lake = Lake.open(warehouse)) {
      Table raw = createRaw(lake);
      appendRegular(raw, 2);
      createRollup(lake, HOURLY, "1 hour", STATISTICS);
      long recorded = lake.rollup(HOURLY).reflectsSnapshot();
      raw.newAppend().row("t0", T0.plusSeconds(30), 1.0).commit();
      try (LakeCatalog catalog = catalog()) {
        LoadedTable table = catalog.require(RAW);
        table.iceberg().expireSnapshots().expireSnapshotId(recorded).commit();
      }

      assertThatThrownBy(() -> lake.verifyRollup(HOURLY, Options.allBuckets()))
          .isInstanceOf(NotFoundException.class)
          .hasMessageStartingWith(
              "Cannot verify rollup iot.r_1h: it reflects snapshot "
                  + recorded
                  + " of iot.r, which has expired; refresh it (timelake rollup refresh iot.r_1h)"
                  + " so that it reflects a kept snapshot, and verify again; kept snapshots: ");
      lake.refreshRollup(HOURLY);
      assertThat(lake.verifyRollup(HOURLY, Options.allBuckets()).isExact()).isTrue();
    }
  }

  @Test
  void anUnknownRollupOrAPlainTableIsRefusedByName() {
    try (Lake lake = Lake.open(warehouse)) {
      createRaw(lake);

      assertThatThrownBy(() -> lake.verifyRollup(TableName.parse("iot.nope"), Options.allBuckets()))
          .isInstanceOf(NotFoundException.class)
          .hasMessage("Rollup iot.nope does not exist");
      assertThatThrownBy(() -> lake.verifyRollup(RAW, Options.allBuckets()))
          .isInstanceOf(ValidationException.class)
          .hasMessage("iot.r is a table, not a rollup");
      assertThatThrownBy(() -> Options.sample(0, 1))
          .isInstanceOf(ValidationException.class)
          .hasMessage("Invalid rollup verification sample: 0 buckets (expected at least 1)");
    }
  }
}
