package dev.timelake;

import java.io.Serializable;
import java.util.List;

/**
 * What one {@link CompactionTask} wrote: the locations of its merged files, not yet committed.
 *
 * @param index the task's number within its maintenance
 * @param files the locations of the files written
 */
public record CompactionResult(int index, List<String> files) implements Serializable {
  public CompactionResult {
    files = List.copyOf(files);
  }
}
