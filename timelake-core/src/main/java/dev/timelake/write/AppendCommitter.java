package dev.timelake.write;

import dev.timelake.ConflictException;
import dev.timelake.catalog.CallingThread;
import dev.timelake.catalog.IcebergCommits;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;

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
    AppendFiles append = CallingThread.manifestsOf(table.newAppend());
    dataFiles.forEach(append::appendFile);
    summary.forEach(append::set);
    commitOrClean(append::commit, files);
    return table.currentSnapshot();
  }

  /**
   * Commits the files so that no concurrent commit added rows in the append's index intervals since
   * {@code guard} checked them; when one did, checks against it and tries again, so that of two
   * conflicting writers the second fails with IndexIntervalOverlapException.
   */
  Snapshot commit(List<WrittenFile> files, Map<String, String> summary, IndexIntervalGuard guard) {
    long min = files.stream().mapToLong(WrittenFile::minMicros).min().orElseThrow();
    long max = files.stream().mapToLong(WrittenFile::maxMicros).max().orElseThrow();
    for (int attempt = 1; ; attempt++) {
      // One commit adds the files and attaches their coverage.
      Transaction transaction = table.newTransaction();
      OverwriteFiles append = CallingThread.manifestsOf(transaction.newOverwrite());
      for (WrittenFile file : files) {
        append.addFile(writer.dataFile(file.location(), file.partition()));
      }
      summary.forEach(append::set);
      if (guard.checkedAgainst() != null) {
        append.validateFromSnapshot(guard.checkedAgainst().snapshotId());
      }
      append.conflictDetectionFilter(guard.conflictFilter(min, max)).validateNoConflictingData();
      StatisticsFile[] coverage = new StatisticsFile[1];
      Snapshot[] staged = new Snapshot[1];
      // A concurrent commit that added data in the append's intervals: the files are kept for
      // another attempt against it.
      org.apache.iceberg.exceptions.ValidationException[] concurrent = {null};
      commitOrClean(
          () -> {
            try {
              append.commit();
              staged[0] = transaction.table().currentSnapshot();
              coverage[0] = guard.writeCoverage(staged[0]);
              transaction.updateStatistics().setStatistics(coverage[0]).commit();
              transaction.commitTransaction();
            } catch (org.apache.iceberg.exceptions.ValidationException e) {
              concurrent[0] = e;
            }
          },
          files,
          () -> {
            if (coverage[0] != null) {
              guard.discard(coverage[0]);
            }
          });
      if (concurrent[0] == null) {
        Snapshot committed = table.currentSnapshot();
        guard.committed(committed, staged[0]);
        return committed;
      }
      if (coverage[0] != null) {
        guard.discard(coverage[0]);
      }
      table.refresh();
      try {
        guard.recheck(table.currentSnapshot());
      } catch (RuntimeException conflict) {
        deleteAll(files, conflict);
        throw conflict;
      }
      if (attempt >= MAX_INTERVAL_ATTEMPTS) {
        deleteAll(files, concurrent[0]);
        throw new ConflictException(
            "Cannot append to "
                + contract.name()
                + ": concurrent appends into the same index intervals won "
                + attempt
                + " attempts; the table is unchanged, retry the append",
            concurrent[0]);
      }
    }
  }

  private static final int MAX_INTERVAL_ATTEMPTS = 20;

  private void commitOrClean(Runnable commit, List<WrittenFile> files) {
    commitOrClean(commit, files, () -> {});
  }

  /**
   * Runs {@code commit}; on a definite failure deletes the data files and runs {@code cleanUp};
   * when the outcome is unknown keeps everything ({@link IcebergCommits}).
   */
  private void commitOrClean(Runnable commit, List<WrittenFile> files, Runnable cleanUp) {
    IcebergCommits.commit(
        IcebergCommits.Operation.onTable("append to " + contract.name(), "retry the append"),
        commit,
        () -> {
          cleanUp.run();
          deleteAll(files, null);
        });
  }

  private void deleteAll(List<WrittenFile> files, Exception failure) {
    writer.deleteAll(files.stream().map(WrittenFile::location).toList(), failure);
  }
}
