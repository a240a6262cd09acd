package dev.timelake;

/**
 * Consecutive intervals of a logical clock (a BIGINT ordered index), {@code [start, end)} in the
 * clock's own units: a run of covered intervals or a gap. {@code intervals} counts them. The
 * domain's last interval ends at {@link Long#MAX_VALUE}, which it includes.
 */
public record ClockRange(long start, long end, long intervals) {
  @Override
  public String toString() {
    return "[" + start + ", " + end + ") (" + intervals + " intervals)";
  }
}
