package dev.timelake.rollup;

import dev.timelake.catalog.PinnedTable;
import dev.timelake.read.PlannedFile;
import dev.timelake.table.DeletedRows;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
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

  /**
   * The rows DELETEs removed from the raw table after the rollup's record, as their commits record
   * them; none for a rollup that does not follow deletes or reflects nothing yet. {@code unknown}
   * says why they cannot be told when the raw history since the record has expired (and the table
   * has had a DELETE) or a DELETE recorded no file of the rollup's grouping columns: the rollup is
   * then computed again from scratch.
   */
  public record Deletions(List<DeletedRows> deleted, Optional<String> unknown) {
    public Deletions {
      deleted = List.copyOf(deleted);
    }

    /** No rows deleted. */
    public static final Deletions NONE = new Deletions(List.of(), Optional.empty());

    /** The instants the removed rows span. */
    public IntervalSet spans() {
      return IntervalSet.of(deleted.stream().map(DeletedRows::span).toList());
    }
  }

  /** What DELETEs removed from {@code raw} after {@code rollup}'s record; see {@link Deletions}. */
  public static Deletions deletionsSince(Rollup rollup, PinnedTable raw) {
    long recorded = rollup.sourceSequence();
    org.apache.iceberg.Table table = raw.table().iceberg();
    // A table no DELETE ever touched (no timelake.last-delete) needs no walk: routing asks this
    // for every rollup of every query.
    if (!rollup.followsDeletes()
        || recorded < 0
        || raw.snapshotId() < 0
        || !table.properties().containsKey(Settings.LAST_DELETE.propertyKey())) {
      return Deletions.NONE;
    }
    List<String> needed = new ArrayList<>(rollup.keys());
    raw.contract().timeColumn().ifPresent(needed::add);
    List<DeletedRows> deleted = new ArrayList<>();
    Snapshot snapshot = table.snapshot(raw.snapshotId());
    while (snapshot != null && snapshot.sequenceNumber() > recorded) {
      Optional<DeletedRows> rows = DeletedRows.of(snapshot);
      if (rows.isPresent()) {
        if (!rows.get().holds(needed)) {
          return new Deletions(
              List.of(),
              Optional.of(
                  "the DELETE of raw snapshot "
                      + snapshot.snapshotId()
                      + " recorded no cells for its grouping columns"));
        }
        deleted.add(rows.get());
      }
      Long parent = snapshot.parentId();
      if (parent == null) {
        break;
      }
      Snapshot older = table.snapshot(parent);
      if (older == null) {
        return new Deletions(
            List.of(),
            Optional.of(
                "raw snapshots since the recorded one expired and "
                    + raw.name()
                    + " has had DELETEs, which they may hold"));
      }
      snapshot = older;
    }
    return new Deletions(deleted, Optional.empty());
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

  /**
   * The instant before which the raw table may have lost rows to retention: the start of the oldest
   * partition its retention kept ({@code timelake.retention-horizon}); for a table with a retention
   * setting but no such record (retention by an older version), the start of its oldest live
   * partition; {@link Long#MIN_VALUE} when retention never dropped a row. A bucket that begins
   * before it keeps what it held rather than a value computed from the rows left.
   */
  public static long retainedFrom(TableContract raw, List<PlannedFile> files) {
    Optional<String> horizon = raw.setting(Settings.RETENTION_HORIZON);
    if (horizon.isPresent()) {
      return Long.parseLong(horizon.get());
    }
    if (raw.setting(Settings.RETENTION).isPresent()) {
      return dataStart(files, raw.partitioning()).orElse(Long.MIN_VALUE);
    }
    return Long.MIN_VALUE;
  }

  /** The live rows of the files (copies included). */
  public static long rows(List<PlannedFile> files) {
    return files.stream().mapToLong(PlannedFile::rows).sum();
  }
}
