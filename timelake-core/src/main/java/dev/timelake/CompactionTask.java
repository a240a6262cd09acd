package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.maintain.MaintenanceRunner;
import dev.timelake.maintain.Rewrite;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One compaction of a {@link DistributedMaintenance}, to run in any process that opens the same
 * lake: merges the files (copies removed by the winner rule, rows sorted by key) into new files in
 * the partition's folder and reports their locations. It commits nothing; the maintenance commits
 * every task's files at once.
 *
 * @param table the table
 * @param snapshotId the snapshot the maintenance was planned on
 * @param index the task's number within its maintenance
 * @param partition the partition ordinal
 * @param files the data files merged, as planned
 */
public record CompactionTask(
    TableName table, long snapshotId, int index, int partition, List<String> files)
    implements Serializable {
  public CompactionTask {
    requireNonNull(table, "table is null");
    files = List.copyOf(files);
  }

  /** Writes the merged files with {@code lake}'s engine; returns their locations. */
  public CompactionResult run(Lake lake) {
    LakeCatalog catalog = lake.catalog();
    LoadedTable loaded = catalog.require(table);
    Map<String, PlannedFile> live =
        ScanPlanner.liveFiles(PinnedTable.at(loaded, snapshotId)).stream()
            .collect(Collectors.toMap(PlannedFile::location, Function.identity()));
    List<PlannedFile> merged = new ArrayList<>();
    for (String location : files) {
      PlannedFile file = live.get(location);
      if (file == null) {
        throw new ConflictException(
            "Cannot compact "
                + table
                + ": data file "
                + location
                + " is not in snapshot "
                + snapshotId
                + "; plan the maintenance again");
      }
      merged.add(file);
    }
    Rewrite rewrite =
        new Rewrite(
            partition,
            loaded.contract().partitioning().label(partition),
            merged,
            "task " + index + " of a distributed maintenance");
    try (EngineConnection connection = catalog.engine().connect()) {
      return new CompactionResult(
          table,
          snapshotId,
          index,
          new MaintenanceRunner(loaded, connection, message -> {}).write(rewrite));
    }
  }
}
