package dev.timelake.rollup;

import dev.timelake.catalog.PinnedTable;
import dev.timelake.read.PlannedFile;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * What changed in a raw table since a rollup's refresh, from metadata alone. A live raw file whose
 * data sequence number is above the one the rollup records holds rows the rollup may not reflect;
 * compaction keeps the newest sequence number of the files it merges and retention only removes
 * files, so neither makes rows look new.
 */
public final class RollupChanges {
  private RollupChanges() {}

  /**
   * True when the recorded raw snapshot, or the one an unfinished refresh's rows reflect, still
   * exists but is not in the history of the raw table's pinned snapshot: the raw table was rolled
   * back past it. A snapshot that expired cannot be checked and counts as not rolled back (see the
   * spec: a rollback is detected by the next refresh while the snapshot is kept).
   */
  public static boolean isRolledBack(Rollup rollup, PinnedTable raw) {
    return isRolledBackPast(rollup.sourceSnapshot(), raw)
        || isRolledBackPast(rollup.pendingSnapshot(), raw);
  }

  private static boolean isRolledBackPast(long snapshot, PinnedTable raw) {
    return snapshot >= 0
        && raw.snapshotId() >= 0
        && raw.table().iceberg().snapshot(snapshot) != null
        && !SnapshotUtil.isAncestorOf(raw.table().iceberg(), raw.snapshotId(), snapshot);
  }

  /** The files of {@code rawFiles} committed after sequence number {@code recordedSequence}. */
  public static List<PlannedFile> changedFiles(List<PlannedFile> rawFiles, long recordedSequence) {
    List<PlannedFile> changed = new ArrayList<>();
    for (PlannedFile file : rawFiles) {
      if (file.sequenceNumber() > recordedSequence) {
        changed.add(file);
      }
    }
    return changed;
  }

  /** The instants the files' time bounds span (every instant when a bound is unknown). */
  public static IntervalSet spans(List<PlannedFile> files) {
    List<TimeInterval> intervals = new ArrayList<>(files.size());
    for (PlannedFile file : files) {
      long end = file.maxMicros() == Long.MAX_VALUE ? Long.MAX_VALUE : file.maxMicros() + 1;
      intervals.add(new TimeInterval(file.minMicros(), end));
    }
    return IntervalSet.of(intervals);
  }

  /**
   * The start of the earliest partition holding a live file, empty when there is none: older data
   * is gone (retention drops whole partitions).
   */
  public static OptionalLong dataStart(
      List<PlannedFile> files, dev.timelake.table.Partitioning partitioning) {
    return files.stream().mapToInt(PlannedFile::partition).min().stream()
        .mapToLong(partitioning::start)
        .findFirst();
  }

  /** The live rows of the files (copies included). */
  public static long rows(List<PlannedFile> files) {
    return files.stream().mapToLong(PlannedFile::rows).sum();
  }
}
