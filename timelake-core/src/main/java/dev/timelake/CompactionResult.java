package dev.timelake;

import java.io.Serializable;
import java.util.List;

/**
 * What one {@link CompactionTask} wrote: the locations of its merged files, not yet committed.
 *
 * @param table the table
 * @param snapshotId the snapshot the maintenance was planned on
 * @param index the task's number within its maintenance
 * @param files the locations of the files written
 */
public record CompactionResult(TableName table, long snapshotId, int index, List<String> files)
    implements Serializable {
  public CompactionResult {
    java.util.Objects.requireNonNull(table, "table is null");
    files = List.copyOf(files);
  }
}
