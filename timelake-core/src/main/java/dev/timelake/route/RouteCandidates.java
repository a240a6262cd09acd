package dev.timelake.route;

import dev.timelake.catalog.PinnedTable;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupChanges;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads what the route planner weighs from both tables' metadata at their pinned snapshots: the raw
 * table's extent and, for each rollup, its rows, raw rows per row and the buckets it holds whole
 * and unchanged. Reads manifests (kept per snapshot), never data.
 */
public final class RouteCandidates {
  private final PinnedTable raw;
  private final List<PlannedFile> rawFiles;
  private final List<PlannedFile> held;

  public RouteCandidates(PinnedTable raw) {
    this(raw, List.of());
  }

  /**
   * Also weighs {@code held}, files of rows read beside the committed ones (a session's tier):
   * newer than every refresh, their buckets are changed ones.
   */
  public RouteCandidates(PinnedTable raw, List<PlannedFile> held) {
    this.raw = raw;
    this.rawFiles = ScanPlanner.liveFiles(raw);
    this.held = List.copyOf(held);
  }

  /** The raw table's facts. */
  public RawFacts facts() {
    return new RawFacts(
        raw.contract(),
        raw.snapshotId(),
        RollupChanges.spans(rawFiles).union(RollupChanges.spans(held)));
  }

  /** Every rollup weighed. */
  public List<RouteCandidate> of(List<Rollup> rollups) {
    List<RouteCandidate> candidates = new ArrayList<>(rollups.size());
    rollups.forEach(rollup -> candidates.add(of(rollup)));
    return candidates;
  }

  /** One rollup weighed. */
  public RouteCandidate of(Rollup rollup) {
    List<PlannedFile> files = ScanPlanner.liveFiles(rollup.table());
    long rows = RollupChanges.rows(files);
    long rawRows = RollupChanges.rows(rawFiles);
    double perRow = rows == 0 ? 0 : (double) rawRows / rows;
    RollupChanges.Deletions deletions = RollupChanges.deletionsSince(rollup, raw);
    return new RouteCandidate(
        rollup.name(),
        rollup.keys(),
        rollup.bucketColumn(),
        rollup.grid(),
        rollup.aggregates(),
        rows,
        perRow,
        usable(rollup, files, deletions),
        rollup.table().snapshotId(),
        unusable(rollup, deletions),
        rollup.filter());
  }

  private Optional<String> unusable(Rollup rollup, RollupChanges.Deletions deletions) {
    if (rollup.sourceSnapshot() < 0) {
      return Optional.of("is not refreshed yet");
    }
    if (RollupChanges.isRolledBack(rollup, raw)) {
      return Optional.of(
          "reflects raw snapshot "
              + rollup.sourceSnapshot()
              + ", which the raw table was rolled back past; its next refresh rebuilds it");
    }
    if (!rollup.followsDeletes()
        && raw.table()
            .iceberg()
            .properties()
            .containsKey(dev.timelake.table.Settings.LAST_DELETE.propertyKey())) {
      return Optional.of(
          "keeps what rows DELETEs removed from "
              + raw.name()
              + " contributed (follow_deletes = false), so it no longer answers as raw data does;"
              + " read it by name");
    }
    if (deletions.unknown().isPresent()) {
      return Optional.of(
          "cannot tell which of its buckets rows deleted since its refresh were in ("
              + deletions.unknown().get()
              + "); its next refresh rebuilds it");
    }
    return Optional.empty();
  }

  /**
   * The buckets at or after both what the raw table's retention kept and the rollup's oldest live
   * partition (older rows are gone from one of them) that no raw file committed after the refresh
   * touches, nor a row a DELETE removed after it was in.
   */
  private IntervalSet usable(
      Rollup rollup, List<PlannedFile> rollupFiles, RollupChanges.Deletions deletions) {
    BucketGrid grid = rollup.grid();
    OptionalLong rawStart = RollupChanges.dataStart(rawFiles, raw.contract().partitioning());
    OptionalLong rollupStart =
        RollupChanges.dataStart(rollupFiles, rollup.contract().partitioning());
    if (rawStart.isEmpty() || rollupStart.isEmpty()) {
      return IntervalSet.empty();
    }
    long retained = RollupChanges.retainedFrom(raw.contract(), rawFiles);
    long start = grid.ceil(Math.max(retained, rollupStart.getAsLong()));
    IntervalSet changed =
        RollupChanges.spans(RollupChanges.changedFiles(rawFiles, rollup.sourceSequence()))
            .union(RollupChanges.spans(held))
            .union(deletions.spans())
            .alignOutward(grid);
    // Buckets the refresh left to raw data for the refresh lag are not in the rollup.
    return IntervalSet.of(start, rollup.lagFrom()).subtract(changed);
  }
}
