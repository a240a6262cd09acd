package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * A loading or maintenance figure: how long it took and what it did.
 *
 * @param name what was measured, e.g. {@code create 1-minute rollup}
 * @param took the time; empty when it was not measured (the detail says why, e.g. {@code not
 *     supported yet: …})
 * @param detail what it did, e.g. {@code files 95 -> 31}
 */
public record OperationFigure(String name, Optional<Duration> took, String detail) {
  public OperationFigure {
    requireNonNull(name, "name is null");
    requireNonNull(took, "took is null");
    requireNonNull(detail, "detail is null");
  }

  static OperationFigure measured(String name, Duration took, String detail) {
    return new OperationFigure(name, Optional.of(took), detail);
  }

  static OperationFigure notMeasured(String name, String why) {
    return new OperationFigure(name, Optional.empty(), why);
  }
}
