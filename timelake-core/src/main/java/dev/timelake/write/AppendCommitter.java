package dev.timelake.write;

import dev.timelake.CommitFailedException;
import dev.timelake.CommitStateUnknownException;
import dev.timelake.ConflictException;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Commits written files as one Iceberg append. Iceberg retries on concurrent commits; if the commit
 * fails for good, the written files are deleted and the table is unchanged.
 */
final class AppendCommitter {
  private final Table table;
  private final TableContract contract;

  private final DataFileWriter writer;

  AppendCommitter(Table table, TableContract contract, DataFileWriter writer) {
    this.table = table;
    this.contract = contract;
    this.writer = writer;
  }

  /**
   * The snapshot that already committed this batch id, if any (abandoned snapshots don't count).
   */
  static Optional<Snapshot> committedBatch(Table table, String batchId) {
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      if (batchId.equals(snapshot.summary().get(SnapshotSummaries.BATCH_ID))) {
        return Optional.of(snapshot);
      }
      Long parent = snapshot.parentId();
      snapshot = parent == null ? null : table.snapshot(parent);
    }
    return Optional.empty();
  }

  /** Commits the files with the given summary entries and returns the new snapshot. */
  Snapshot commit(List<WrittenFile> files, Map<String, String> summary) {
    List<DataFile> dataFiles = new ArrayList<>();
    for (WrittenFile file : files) {
      dataFiles.add(writer.dataFile(file.location(), file.partition()));
    }
    AppendFiles append = table.newAppend();
    dataFiles.forEach(append::appendFile);
    summary.forEach(append::set);
    try {
      append.commit();
    } catch (org.apache.iceberg.exceptions.CommitStateUnknownException e) {
      throw new CommitStateUnknownException(
          "Append to "
              + contract.name()
              + " may or may not have committed; its data files were"
              + " kept. Check the table's snapshots before retrying: "
              + e.getMessage(),
          e);
    } catch (org.apache.iceberg.exceptions.CommitFailedException e) {
      deleteAll(files, e);
      throw new ConflictException(
          "Cannot append to "
              + contract.name()
              + ": concurrent commits won every retry; the"
              + " table is unchanged, retry the append: "
              + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      deleteAll(files, e);
      throw new CommitFailedException(
          "Cannot append to "
              + contract.name()
              + ": commit failed, the table is unchanged: "
              + e.getMessage(),
          e);
    }
    return table.currentSnapshot();
  }

  private void deleteAll(List<WrittenFile> files, Exception failure) {
    writer.deleteAll(files.stream().map(WrittenFile::location).toList(), failure);
  }
}
