package dev.timelake.refresh;

import dev.timelake.TimelakeException;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupChanges;
import dev.timelake.table.DeletedRows;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides what a refresh recomputes, from both tables' metadata at pinned snapshots. Pure: reads
 * manifests (kept per snapshot), never data.
 *
 * <p>The changed buckets are those the time bounds of the raw files committed after the recorded
 * sequence number touch, in windows of at most {@link #MAX_WINDOW_MICROS}. A rollup that reflects
 * nothing yet (or is rebuilt) recomputes every cell of them. Otherwise a window recomputes only the
 * (keys…, bucket) cells its changed files hold — one hourly append's late readings touch a few
 * cells of each of two days' buckets — unless those files hold more than half the rows of the
 * window, when reading every cell is as cheap.
 */
public final class RefreshPlanner {
  /** A window covers at most this many µs of buckets (7 days). */
  public static final long MAX_WINDOW_MICROS = 7 * 86_400_000_000L;

  private RefreshPlanner() {}

  /** Plans a refresh of {@code rollup} to the raw snapshot pinned in {@code raw}. */
  public static RefreshPlan plan(Rollup rollup, PinnedTable raw) {
    List<String> reasons = new ArrayList<>();
    boolean rolledBack = RollupChanges.isRolledBack(rollup, raw);
    RollupChanges.Deletions deletions =
        rolledBack ? RollupChanges.Deletions.NONE : RollupChanges.deletionsSince(rollup, raw);
    boolean rebuild = rolledBack || deletions.unknown().isPresent();
    long recordedSequence = rebuild ? -1 : rollup.sourceSequence();
    if (rolledBack) {
      reasons.add(
          rollup.name()
              + ": the raw table was rolled back past the recorded snapshot "
              + rollup.sourceSnapshot()
              + "; emptied and computed again");
    }
    deletions
        .unknown()
        .ifPresent(
            why ->
                reasons.add(
                    rollup.name()
                        + ": the rows DELETEs removed since the recorded snapshot "
                        + rollup.sourceSnapshot()
                        + " cannot be told ("
                        + why
                        + "); emptied and computed again"));
    List<PlannedFile> rawFiles = ScanPlanner.liveFiles(raw);
    List<PlannedFile> changed = RollupChanges.changedFiles(rawFiles, recordedSequence);
    BucketGrid grid = rollup.grid();
    for (PlannedFile file : changed) {
      if (file.minMicros() == Long.MIN_VALUE || file.maxMicros() == Long.MAX_VALUE) {
        throw TimelakeException.validation(
            "Cannot refresh rollup %s: raw file %s has no time bounds in its metadata (run"
                + " maintain on %s to rewrite it)",
            rollup.name(), file.location(), raw.name());
      }
    }
    IntervalSet buckets = RollupChanges.spans(changed).alignOutward(grid);
    // Buckets the last refresh left to raw data for the lag, wherever raw data is: every cell of
    // them, not only those of changed files.
    IntervalSet pending =
        recordedSequence >= 0 && rollup.lagFrom() != Long.MAX_VALUE
            ? RollupChanges.spans(rawFiles)
                .intersect(IntervalSet.of(rollup.lagFrom(), Long.MAX_VALUE))
                .alignOutward(grid)
            : IntervalSet.empty();
    buckets = buckets.union(pending);
    if (recordedSequence >= 0) {
      // A bucket that begins before what retention kept lost rows to it: the rollup keeps its
      // complete value rather than one recomputed from what is left.
      long retained = RollupChanges.retainedFrom(raw.contract(), rawFiles);
      if (retained != Long.MIN_VALUE) {
        buckets = buckets.intersect(IntervalSet.of(grid.ceil(retained), Long.MAX_VALUE));
      }
    }
    // Not so for rows a DELETE removed: they were there, and a DELETE that empties the oldest
    // partitions must not pass for retention.
    buckets = buckets.union(deletions.spans().alignOutward(grid));
    long lagFrom = lagFrom(rollup, raw);
    if (lagFrom != Long.MAX_VALUE) {
      IntervalSet lagged = buckets.intersect(IntervalSet.of(lagFrom, Long.MAX_VALUE));
      buckets = buckets.subtract(lagged);
      if (!lagged.isEmpty()) {
        reasons.add(
            rollup.name()
                + ": buckets from "
                + java.time.Instant.EPOCH.plus(lagFrom, java.time.temporal.ChronoUnit.MICROS)
                + " on end later than raw snapshot "
                + raw.snapshotId()
                + "'s commit time less the refresh lag; left to raw data");
      }
    }
    List<RefreshWindow> windows = new ArrayList<>();
    if (!buckets.isEmpty()) {
      // A row of a table whose rows replace the others of their interval may remove one from
      // another bucket than its own: the cells the changed files hold are not all that changed.
      // So may a copy that moves a row out of a filtered rollup's WHERE (a newer quality): its
      // cell may have no row any more, so the window is emptied and every cell computed again.
      boolean everyCell =
          recordedSequence < 0
              || raw.contract().replacesWithinInterval()
              || !rollup.filter().rowTerms().isEmpty();
      for (IntervalSet window : buckets.split(MAX_WINDOW_MICROS, grid)) {
        boolean pendingCells = !window.intersect(pending).isEmpty();
        windows.add(window(window, changed, rawFiles, deletions, everyCell || pendingCells, grid));
      }
      reasons.add(
          rollup.name()
              + ": "
              + changed.size()
              + " raw files committed after sequence number "
              + recordedSequence
              + (deletions.deleted().isEmpty()
                  ? ""
                  : " and rows removed by " + deletions.deleted().size() + " DELETE commits")
              + " touch "
              + buckets.bucketCount(grid)
              + " buckets of "
              + grid);
    }
    return new RefreshPlan(
        rollup.name(),
        raw.name(),
        raw.snapshotId(),
        raw.sequenceNumber(),
        rebuild ? -1 : rollup.sourceSnapshot(),
        recordedSequence,
        rebuild,
        windows,
        lagFrom,
        reasons);
  }

  /**
   * The start of the first bucket that ends later than the raw snapshot's commit time less the
   * rollup's refresh lag ({@link Long#MAX_VALUE} without a lag): a function of the pinned
   * snapshots, so another process planning the same refresh leaves the same buckets.
   */
  private static long lagFrom(Rollup rollup, PinnedTable raw) {
    long lag = rollup.refreshLagMicros();
    if (lag <= 0 || raw.snapshot().isEmpty()) {
      return Long.MAX_VALUE;
    }
    long committed = raw.snapshot().get().timestampMillis() * 1000;
    long until = committed - lag;
    long floor = rollup.grid().floor(until);
    // The bucket holding `until` ends after it: it is the first one left.
    return floor;
  }

  private static RefreshWindow window(
      IntervalSet window,
      List<PlannedFile> changed,
      List<PlannedFile> rawFiles,
      RollupChanges.Deletions deletions,
      boolean everyCell,
      BucketGrid grid) {
    List<DeletedRows> deleted = new ArrayList<>();
    for (DeletedRows rows : deletions.deleted()) {
      if (!IntervalSet.of(List.of(rows.span())).alignOutward(grid).intersect(window).isEmpty()) {
        deleted.add(rows);
      }
    }
    if (everyCell) {
      return new RefreshWindow(window, Optional.empty(), deleted);
    }
    List<PlannedFile> inWindow = overlapping(changed, window, grid);
    long changedRows = RollupChanges.rows(inWindow);
    long windowRows = RollupChanges.rows(overlapping(rawFiles, window, grid));
    return changedRows * 2 > windowRows
        ? new RefreshWindow(window, Optional.empty(), deleted)
        : new RefreshWindow(window, Optional.of(inWindow), deleted);
  }

  private static List<PlannedFile> overlapping(
      List<PlannedFile> files, IntervalSet window, BucketGrid grid) {
    List<PlannedFile> overlapping = new ArrayList<>();
    for (PlannedFile file : files) {
      if (!RollupChanges.spans(List.of(file)).alignOutward(grid).intersect(window).isEmpty()) {
        overlapping.add(file);
      }
    }
    return overlapping;
  }
}
