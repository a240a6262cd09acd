package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * Consecutive intervals of a table's ordered index, {@code [start, end)}: a run of covered
 * intervals or a gap. {@code intervals} counts them.
 */
public record IndexRange(Instant start, Instant end, long intervals) {
  public IndexRange {
    requireNonNull(start, "start is null");
    requireNonNull(end, "end is null");
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ") (" + intervals + " intervals)";
  }
}
