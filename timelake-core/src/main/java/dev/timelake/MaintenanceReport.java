package dev.timelake;

import java.time.Duration;
import java.util.List;

/**
 * What a maintenance run did: live files and bytes before and after, partitions rewritten and
 * dropped, snapshots expired, orphan files deleted, time taken, and the plan's explanation.
 */
public record MaintenanceReport(
    TableName table,
    int filesBefore,
    int filesAfter,
    long bytesBefore,
    long bytesAfter,
    int partitionsRewritten,
    int partitionsDropped,
    int snapshotsExpired,
    int orphanFilesDeleted,
    Duration took,
    List<String> explanation) {
  public MaintenanceReport {
    explanation = List.copyOf(explanation);
  }

  /** True when the run changed nothing. */
  public boolean isNoop() {
    return partitionsRewritten == 0
        && partitionsDropped == 0
        && snapshotsExpired == 0
        && orphanFilesDeleted == 0;
  }
}
