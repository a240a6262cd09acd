package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one query did in one configuration.
 *
 * @param configuration the configuration
 * @param runs the timed runs, in order (the warm-up excluded)
 * @param rows rows of the answer
 * @param checksum the sum of the answer's numeric values
 * @param difference how the answer differs from Timelake's; empty when they agree
 * @param failure why the query failed; empty when it ran
 */
public record ConfigurationFigures(
    Configuration configuration,
    List<Duration> runs,
    long rows,
    double checksum,
    Optional<String> difference,
    Optional<String> failure) {
  public ConfigurationFigures {
    requireNonNull(configuration, "configuration is null");
    runs = List.copyOf(runs);
    requireNonNull(difference, "difference is null");
    requireNonNull(failure, "failure is null");
  }

  /** True when the query ran and its answer equals Timelake's. */
  public boolean agrees() {
    return failure.isEmpty() && difference.isEmpty();
  }

  /** The fastest timed run; empty when there was none. */
  public Optional<Duration> min() {
    return runs.stream().min(Duration::compareTo);
  }

  /** The median timed run (the mean of the middle two for an even count). */
  public Optional<Duration> median() {
    if (runs.isEmpty()) {
      return Optional.empty();
    }
    List<Duration> sorted = new ArrayList<>(runs);
    sorted.sort(null);
    int middle = sorted.size() / 2;
    return Optional.of(
        sorted.size() % 2 == 1
            ? sorted.get(middle)
            : sorted.get(middle - 1).plus(sorted.get(middle)).dividedBy(2));
  }
}
