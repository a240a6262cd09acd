package dev.timelake.catalog;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.table.TableContract;
import org.apache.iceberg.Table;

/** An Iceberg table as loaded at one moment, with its Timelake contract. */
public record LoadedTable(TableName name, Table iceberg, TableContract contract) {
  public LoadedTable {
    requireNonNull(name, "name is null");
    requireNonNull(iceberg, "iceberg is null");
    requireNonNull(contract, "contract is null");
  }

  /** The table's files as DuckDB reads and writes them (local copies of remote ones). */
  public LakeFileIO files() {
    return LakeFileIO.of(iceberg.io());
  }

  /** The table's live data files by location, without their column statistics. */
  public java.util.Map<String, org.apache.iceberg.DataFile> liveDataFiles() {
    java.util.Map<String, org.apache.iceberg.DataFile> files = new java.util.HashMap<>();
    try (var tasks = iceberg.newScan().planFiles()) {
      tasks.forEach(task -> files.put(task.file().location(), task.file().copyWithoutStats()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  /**
   * A commit, not yet made, removing every row by metadata (no file read or written), its summary
   * naming {@code operation}.
   */
  public org.apache.iceberg.DeleteFiles deleteEveryRow(String operation) {
    org.apache.iceberg.DeleteFiles delete =
        CallingThread.manifestsOf(iceberg.newDelete())
            .deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue());
    delete.set(dev.timelake.table.SnapshotSummaries.OPERATION, operation);
    return delete;
  }

  /** The table's newest kept snapshots (at most five) with their commit times, for a message. */
  public String keptSnapshots() {
    java.util.List<String> kept = new java.util.ArrayList<>();
    for (org.apache.iceberg.Snapshot snapshot : iceberg.snapshots()) {
      kept.add(
          snapshot.snapshotId()
              + " ("
              + java.time.Instant.ofEpochMilli(snapshot.timestampMillis())
              + ")");
    }
    return kept.isEmpty()
        ? "none"
        : String.join(", ", kept.subList(Math.max(0, kept.size() - 5), kept.size()));
  }
}
