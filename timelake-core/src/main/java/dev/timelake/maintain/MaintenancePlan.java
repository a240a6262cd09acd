package dev.timelake.maintain;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What a maintenance run will do, decided from metadata alone: partitions dropped by retention
 * (everything before {@code retentionCutoffMicros}), rewrites, whether to expire snapshots and
 * clean orphan files. Immutable; {@link #explanation()} says why.
 */
public record MaintenancePlan(
    TableName table,
    long snapshotId,
    OptionalLong retentionCutoffMicros,
    int partitionsDropped,
    List<Rewrite> rewrites,
    boolean expireSnapshots,
    boolean cleanOrphans,
    List<String> reasons) {

  public MaintenancePlan {
    requireNonNull(table, "table is null");
    requireNonNull(retentionCutoffMicros, "retentionCutoffMicros is null");
    rewrites = List.copyOf(rewrites);
    reasons = List.copyOf(reasons);
  }

  /** True when the run has nothing to do. */
  public boolean isEmpty() {
    return partitionsDropped == 0 && rewrites.isEmpty() && !expireSnapshots && !cleanOrphans;
  }

  /** One line per decision, for {@code --dry-run} and tests. */
  public List<String> explanation() {
    List<String> lines = new ArrayList<>(reasons);
    for (Rewrite rewrite : rewrites) {
      lines.add(
          "rewrite partition "
              + rewrite.label()
              + ": "
              + rewrite.files().size()
              + " files, "
              + rewrite.bytes()
              + " bytes ("
              + rewrite.reason()
              + ")");
    }
    if (lines.isEmpty()) {
      lines.add(table + ": nothing to do");
    }
    return lines;
  }
}
