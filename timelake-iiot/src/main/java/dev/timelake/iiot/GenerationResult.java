package dev.timelake.iiot;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What a generator run did.
 *
 * @param readings readings appended (every copy counts)
 * @param hoursAppended hourly appends committed
 * @param hoursSkipped hourly appends skipped because an earlier run had committed their batch id
 * @param copiesDropped copies an append removed within itself; always 0 unless the model is broken
 * @param elapsed wall-clock time of the run
 */
public record GenerationResult(
    long readings, int hoursAppended, int hoursSkipped, long copiesDropped, Duration elapsed) {

  public GenerationResult {
    requireNonNull(elapsed, "elapsed is null");
  }

  /** Readings appended per second of wall-clock time. */
  public double readingsPerSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds == 0 ? 0 : readings / seconds;
  }
}
