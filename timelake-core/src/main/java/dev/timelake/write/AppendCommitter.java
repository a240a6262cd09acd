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
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.ParquetUtil;

/**
 * Commits written files as one Iceberg append. Iceberg retries on concurrent commits; if the commit
 * fails for good, the written files are deleted and the table is unchanged.
 */
final class AppendCommitter {
  private final Table table;
  private final TableContract contract;

  AppendCommitter(Table table, TableContract contract) {
    this.table = table;
    this.contract = contract;
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
    MetricsConfig metricsConfig = MetricsConfig.forTable(table);
    for (WrittenFile file : files) {
      dataFiles.add(dataFile(file, metricsConfig));
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

  private DataFile dataFile(WrittenFile file, MetricsConfig metricsConfig) {
    InputFile input = table.io().newInputFile(file.location());
    Metrics metrics = ParquetUtil.fileMetrics(input, metricsConfig);
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(file.location())
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(input.getLength())
            .withMetrics(metrics)
            .withSortOrder(table.sortOrder());
    if (table.spec().isPartitioned()) {
      builder.withPartition(new PartitionOrdinal(file.partition()));
    }
    return builder.build();
  }

  void deleteAll(List<WrittenFile> files, Exception failure) {
    for (WrittenFile file : files) {
      try {
        table.io().deleteFile(file.location());
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }
}
