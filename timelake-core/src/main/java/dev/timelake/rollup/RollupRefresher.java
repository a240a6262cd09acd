package dev.timelake.rollup;

import dev.timelake.AppendResult;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.read.DedupStrategy;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlan;
import dev.timelake.read.ScanPlanner;
import dev.timelake.read.ScanSql;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.write.AppendOperation;
import dev.timelake.write.AppendSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Brings a rollup up to date. The changed buckets are those covered by the time bounds of the raw
 * table's live files whose data sequence number is above the one the rollup records (compaction
 * keeps sequence numbers and retention only removes files, so neither counts). They are recomputed
 * from the raw table read with dedup, a window at a time, and appended; only the last commit
 * records the new raw snapshot, so a refresh that fails halfway is redone from the old record. A
 * rollback of the raw table past the recorded snapshot empties the rollup and recomputes it.
 */
public final class RollupRefresher {
  /** Changed ranges are recomputed in windows of at most this many µs (7 days). */
  static final long MAX_WINDOW_MICROS = 7 * 86_400_000_000L;

  /** A changed file spanning more buckets than this has its buckets read from its rows. */
  static final long WIDE_FILE_BUCKETS = 64;

  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final Consumer<String> progress;

  public RollupRefresher(
      LakeCatalog catalog, EngineConnection connection, Consumer<String> progress) {
    this.catalog = catalog;
    this.connection = connection;
    this.progress = progress;
  }

  /** What a refresh did. */
  public record Result(long rowsWritten, int windows, boolean rebuilt, List<String> explanation) {}

  /** Refreshes the rollup {@code rollup} now. */
  public Result refresh(Rollup rollup, Instant now) {
    LoadedTable raw = catalog.require(rollup.source());
    Snapshot rawSnapshot = raw.iceberg().currentSnapshot();
    List<String> explanation = new ArrayList<>();
    if (rawSnapshot == null) {
      return new Result(0, 0, false, List.of(rollup.name() + ": raw table is empty"));
    }
    long recordedSequence = rollup.sourceSequence();
    boolean rebuilt = false;
    if (isRolledBack(rollup, raw)) {
      clear(rollup);
      recordedSequence = -1;
      rebuilt = true;
      explanation.add(
          rollup.name()
              + ": raw table was rolled back past the recorded snapshot "
              + rollup.sourceSnapshot()
              + "; rebuilding");
    }
    List<List<long[]>> batches =
        batches(exactChangedRanges(rollup, raw, recordedSequence), rollup.widthMicros());
    Map<String, String> record =
        Map.of(
            SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT, Long.toString(rawSnapshot.snapshotId()),
            SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE, Long.toString(rawSnapshot.sequenceNumber()));
    Map<String, String> oldRecord =
        Map.of(
            SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT,
                Long.toString(rebuilt ? -1 : rollup.sourceSnapshot()),
            SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE, Long.toString(recordedSequence));
    long rows = 0;
    boolean lastCommitted = false;
    for (int i = 0; i < batches.size(); i++) {
      boolean last = i == batches.size() - 1;
      progress.accept(
          "refreshing " + rollup.name() + " window " + (i + 1) + " of " + batches.size());
      AppendResult result =
          appendWindow(rollup, raw, batches.get(i), last ? record : oldRecord, now);
      rows += result.rows();
      lastCommitted = last && result.outcome() == AppendResult.Outcome.COMMITTED;
    }
    if (!lastCommitted && rollup.sourceSnapshot() != rawSnapshot.snapshotId()) {
      recordOnly(rollup, record);
    }
    explanation.add(
        rollup.name()
            + ": recomputed "
            + batches.size()
            + " windows, "
            + rows
            + " rows, now reflects raw snapshot "
            + rawSnapshot.snapshotId());
    return new Result(rows, batches.size(), rebuilt, explanation);
  }

  /**
   * True when the recorded raw snapshot still exists but is no longer in the history of the raw
   * table's current snapshot: the raw table was rolled back past it. (An expired snapshot is not a
   * rollback: refreshes record recent snapshots, and expiry only removes old ones.)
   */
  public static boolean isRolledBack(Rollup rollup, LoadedTable raw) {
    long recorded = rollup.sourceSnapshot();
    Snapshot current = raw.iceberg().currentSnapshot();
    return recorded >= 0
        && current != null
        && raw.iceberg().snapshot(recorded) != null
        && !SnapshotUtil.isAncestorOf(raw.iceberg(), current.snapshotId(), recorded);
  }

  /** Bucket-aligned, merged [start, end) ranges covering the raw files newer than the record. */
  public static List<long[]> changedRanges(Rollup rollup, LoadedTable raw, long recordedSequence) {
    List<long[]> ranges = new ArrayList<>();
    for (PlannedFile file : ScanPlanner.liveFiles(raw)) {
      if (file.sequenceNumber() > recordedSequence) {
        long start =
            RollupBuckets.floor(file.minMicros(), rollup.widthMicros(), rollup.originMicros());
        long end =
            RollupBuckets.floor(file.maxMicros(), rollup.widthMicros(), rollup.originMicros())
                + rollup.widthMicros();
        ranges.add(new long[] {start, end});
      }
    }
    return merge(ranges);
  }

  /**
   * Like {@link #changedRanges}, but a changed file spanning more than {@link #WIDE_FILE_BUCKETS}
   * buckets (the late file of an hourly append holds readings of the last two days) contributes
   * only the buckets its rows fall in, read from its time column, so one append's late readings do
   * not recompute two days of buckets.
   */
  private List<long[]> exactChangedRanges(Rollup rollup, LoadedTable raw, long recordedSequence) {
    long width = rollup.widthMicros();
    long origin = rollup.originMicros();
    String time = SqlText.identifier(raw.contract().timeColumn().orElseThrow());
    List<long[]> ranges = new ArrayList<>();
    for (PlannedFile file : ScanPlanner.liveFiles(raw)) {
      if (file.sequenceNumber() <= recordedSequence) {
        continue;
      }
      long start = RollupBuckets.floor(file.minMicros(), width, origin);
      long end = RollupBuckets.floor(file.maxMicros(), width, origin) + width;
      if ((end - start) / width <= WIDE_FILE_BUCKETS) {
        ranges.add(new long[] {start, end});
        continue;
      }
      String buckets =
          "SELECT DISTINCT epoch_us("
              + RollupBuckets.sql(time, width, origin)
              + ") FROM "
              + ScanSql.readParquet(List.of(file));
      for (List<Object> row : connection.rows(buckets)) {
        long bucket = ((Number) row.get(0)).longValue();
        ranges.add(new long[] {bucket, bucket + width});
      }
    }
    return merge(ranges);
  }

  /**
   * Changed ranges grouped into commits of at most {@link #MAX_WINDOW_MICROS} of buckets each (a
   * longer range is split), so scattered late buckets are recomputed together rather than one
   * commit each.
   */
  static List<List<long[]>> batches(List<long[]> ranges, long width) {
    long step = Math.max(width, MAX_WINDOW_MICROS / width * width);
    List<List<long[]>> batches = new ArrayList<>();
    List<long[]> batch = new ArrayList<>();
    long covered = 0;
    for (long[] range : ranges) {
      long start = range[0];
      while (start < range[1]) {
        long end = Math.min(range[1], start + (step - covered));
        batch.add(new long[] {start, end});
        covered += end - start;
        start = end;
        if (covered >= step) {
          batches.add(batch);
          batch = new ArrayList<>();
          covered = 0;
        }
      }
    }
    if (!batch.isEmpty()) {
      batches.add(batch);
    }
    return batches;
  }

  /** The buckets changed since the rollup's refresh, merged into the fewest ranges, for routing. */
  public static List<long[]> changedBuckets(Rollup rollup, LoadedTable raw) {
    return changedRanges(rollup, raw, rollup.sourceSequence());
  }

  static List<long[]> merge(List<long[]> ranges) {
    ranges.sort(Comparator.comparingLong(r -> r[0]));
    List<long[]> merged = new ArrayList<>();
    for (long[] range : ranges) {
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && range[0] <= last[1]) {
        last[1] = Math.max(last[1], range[1]);
      } else {
        merged.add(new long[] {range[0], range[1]});
      }
    }
    return merged;
  }

  private AppendResult appendWindow(
      Rollup rollup,
      LoadedTable raw,
      List<long[]> ranges,
      Map<String, String> record,
      Instant now) {
    String time = raw.contract().timeColumn().orElseThrow();
    Expression filter = Expressions.alwaysFalse();
    List<String> within = new ArrayList<>();
    String timeSql = SqlText.identifier(time);
    for (long[] range : ranges) {
      filter =
          Expressions.or(
              filter,
              Expressions.and(
                  Expressions.greaterThanOrEqual(time, range[0]),
                  Expressions.lessThan(time, range[1])));
      within.add(
          "("
              + timeSql
              + " >= make_timestamptz(CAST("
              + range[0]
              + " AS BIGINT)) AND "
              + timeSql
              + " < make_timestamptz(CAST("
              + range[1]
              + " AS BIGINT)))");
    }
    ScanPlan plan = ScanPlanner.plan(raw, filter, true);
    List<String> select = new ArrayList<>();
    for (String key : rollup.keys()) {
      select.add(SqlText.identifier(key));
    }
    select.add(
        RollupBuckets.sql(timeSql, rollup.widthMicros(), rollup.originMicros())
            + " AS "
            + SqlText.identifier(rollup.bucketColumn()));
    for (RollupAggregate aggregate : rollup.aggregates()) {
      select.add(aggregate.sql(time) + " AS " + SqlText.identifier(aggregate.name()));
    }
    String sql =
        "SELECT "
            + String.join(", ", select)
            + " FROM ("
            + ScanSql.relation(plan, DedupStrategy.MERGE)
            + ") WHERE "
            + String.join(" OR ", within)
            + " GROUP BY ALL";
    LoadedTable target = catalog.require(rollup.name());
    return new AppendOperation(
            target,
            connection,
            List.of(new AppendSource.Query(sql, AppendSource.Casting.LITERALS)),
            Optional.empty(),
            now,
            "rollup-refresh",
            progress)
        .summary(record)
        .run();
  }

  private void clear(Rollup rollup) {
    LoadedTable table = catalog.require(rollup.name());
    if (table.iceberg().currentSnapshot() == null) {
      return;
    }
    table
        .iceberg()
        .newDelete()
        .deleteFromRowFilter(Expressions.alwaysTrue())
        .set(SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT, "-1")
        .set(SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE, "-1")
        .commit();
  }

  private void recordOnly(Rollup rollup, Map<String, String> record) {
    LoadedTable table = catalog.require(rollup.name());
    var append = table.iceberg().newAppend();
    record.forEach(append::set);
    append.set(SnapshotSummaries.OPERATION, "rollup-refresh");
    append.commit();
  }
}
