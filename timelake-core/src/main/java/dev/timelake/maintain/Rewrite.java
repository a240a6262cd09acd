package dev.timelake.maintain;

import static java.util.Objects.requireNonNull;

import dev.timelake.read.PlannedFile;
import java.util.List;

/**
 * One compaction: a run of files next to each other in commit order within a partition, merged into
 * sorted, duplicate-free files that take the run's newest data sequence number.
 */
public record Rewrite(int partition, String label, List<PlannedFile> files, String reason) {
  public Rewrite {
    requireNonNull(label, "label is null");
    files = List.copyOf(files);
    requireNonNull(reason, "reason is null");
  }

  /** The data sequence number the merged files keep: the newest of the run. */
  public long sequenceNumber() {
    return files.stream().mapToLong(PlannedFile::sequenceNumber).max().orElseThrow();
  }

  /** Bytes read. */
  public long bytes() {
    return files.stream().mapToLong(PlannedFile::sizeBytes).sum();
  }
}
