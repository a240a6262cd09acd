package dev.timelake;

import java.util.Map;

/**
 * How much of a range one series covers: of the {@code expected} intervals the range touches,
 * {@code covered} hold a row; {@code ratio} is covered ÷ expected (1.0 for an empty range), and
 * {@code longestGap} the longest run of intervals without a row.
 */
public record CoverageSummary(
    Map<String, Object> identity, long covered, long expected, double ratio, long longestGap) {
  public CoverageSummary {
    identity = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(identity));
  }

  /** Intervals without a row. */
  public long missing() {
    return expected - covered;
  }
}
