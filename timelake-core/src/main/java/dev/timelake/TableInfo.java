package dev.timelake;

import dev.timelake.catalog.LoadedTable;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.io.CloseableIterable;

/**
 * A description of a table's current state: contract, settings, live files per partition and the
 * snapshot history.
 */
public record TableInfo(
    TableName name,
    String location,
    List<Column> columns,
    List<String> keyColumns,
    Map<String, String> settings,
    List<PartitionInfo> partitions,
    List<SnapshotInfo> snapshots) {

  public TableInfo {
    columns = List.copyOf(columns);
    keyColumns = List.copyOf(keyColumns);
    settings = Map.copyOf(settings);
    partitions = List.copyOf(partitions);
    snapshots = List.copyOf(snapshots);
  }

  /** One time partition (or the whole table, for a plain table). */
  public record PartitionInfo(
      String label, int files, long rows, long bytes, int overlappingFiles) {}

  /** One snapshot of the history, oldest first. */
  public record SnapshotInfo(
      long id,
      long sequenceNumber,
      Instant committedAt,
      String operation,
      Map<String, String> summary) {
    public SnapshotInfo {
      summary = Map.copyOf(summary);
    }

    /**
     * True when another engine committed it (no Timelake summary keys): an append's rows then take
     * the commit's time as their insertion time.
     */
    public boolean isExternal() {
      return !summary.containsKey("timelake.operation");
    }
  }

  /** Live data files. */
  public int files() {
    return partitions.stream().mapToInt(PartitionInfo::files).sum();
  }

  /** Rows in live data files, copies included. */
  public long rows() {
    return partitions.stream().mapToLong(PartitionInfo::rows).sum();
  }

  /** Bytes of live data files. */
  public long bytes() {
    return partitions.stream().mapToLong(PartitionInfo::bytes).sum();
  }

  static TableInfo of(LoadedTable loaded) {
    TableContract contract = loaded.contract();
    Map<Integer, long[]> byPartition = new TreeMap<>();
    // The work maintenance has to do: files whose rows may share keys, read in overlap groups.
    java.util.Set<String> overlapping = new java.util.HashSet<>();
    if (loaded.iceberg().currentSnapshot() != null) {
      dev.timelake.read.ReadPlans.of(loaded)
          .toDeduplicate()
          .forEach(group -> group.forEach(file -> overlapping.add(file.location())));
      try (CloseableIterable<FileScanTask> tasks = loaded.iceberg().newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          int ordinal =
              loaded.iceberg().spec().isPartitioned()
                  ? contract.partitioning().ordinalOf(task.file().partition().get(0, Object.class))
                  : 0;
          long[] totals = byPartition.computeIfAbsent(ordinal, k -> new long[4]);
          totals[0]++;
          totals[1] += task.file().recordCount();
          totals[2] += task.file().fileSizeInBytes();
          totals[3] += overlapping.contains(task.file().location()) ? 1 : 0;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    List<PartitionInfo> partitions = new ArrayList<>();
    byPartition.forEach(
        (ordinal, totals) ->
            partitions.add(
                new PartitionInfo(
                    contract.isTimeSeries() ? contract.partitioning().label(ordinal) : "all",
                    (int) totals[0],
                    totals[1],
                    totals[2],
                    (int) totals[3])));
    return new TableInfo(
        loaded.name(),
        loaded.iceberg().location(),
        contract.columns(),
        contract.keyColumns(),
        contract.settings(),
        partitions,
        snapshots(loaded));
  }

  static List<SnapshotInfo> snapshots(LoadedTable loaded) {
    List<SnapshotInfo> snapshots = new ArrayList<>();
    for (Snapshot snapshot : loaded.iceberg().snapshots()) {
      snapshots.add(
          new SnapshotInfo(
              snapshot.snapshotId(),
              snapshot.sequenceNumber(),
              Instant.ofEpochMilli(snapshot.timestampMillis()),
              snapshot.operation(),
              snapshot.summary()));
    }
    return snapshots;
  }
}
