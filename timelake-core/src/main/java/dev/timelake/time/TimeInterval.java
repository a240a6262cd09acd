package dev.timelake.time;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The instants {@code [start, end)} in epoch microseconds. {@link Long#MIN_VALUE} as start and
 * {@link Long#MAX_VALUE} as end mean no bound on that side. Empty when {@code start >= end}.
 */
public record TimeInterval(long start, long end) {
  /** Every instant. */
  public static final TimeInterval ALL = new TimeInterval(Long.MIN_VALUE, Long.MAX_VALUE);

  /** True when the interval holds no instant. */
  public boolean isEmpty() {
    return start >= end;
  }

  /** True when both ends are bounded. */
  public boolean isBounded() {
    return start != Long.MIN_VALUE && end != Long.MAX_VALUE;
  }

  /** True when {@code micros} lies inside. */
  public boolean contains(long micros) {
    return micros >= start && micros < end;
  }

  /** The instants in both intervals (possibly empty). */
  public TimeInterval intersect(TimeInterval other) {
    return new TimeInterval(Math.max(start, other.start), Math.min(end, other.end));
  }

  /** Readable form, e.g. {@code [2026-01-01T00:00:00Z, 2026-01-02T00:00:00Z)}. */
  @Override
  public String toString() {
    return "["
        + (start == Long.MIN_VALUE ? "-inf" : instant(start))
        + ", "
        + (end == Long.MAX_VALUE ? "+inf" : instant(end))
        + ")";
  }

  private static String instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS).toString();
  }
}
