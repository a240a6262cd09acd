package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/**
 * What a refresh of one rollup did: rows appended in how many windows (commits), whether it was
 * rebuilt after a rollback of the raw table, the raw snapshot the rollup now reflects, the time it
 * took, and the plan's and each window's route explanation.
 */
public record RefreshReport(
    TableName rollup,
    long rowsWritten,
    int windows,
    boolean rebuilt,
    long reflectsSnapshot,
    Duration took,
    List<String> explanation) {
  public RefreshReport {
    requireNonNull(rollup, "rollup is null");
    requireNonNull(took, "took is null");
    explanation = List.copyOf(explanation);
  }
}
