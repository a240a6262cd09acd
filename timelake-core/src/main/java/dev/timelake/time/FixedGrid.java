package dev.timelake.time;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Buckets of a fixed width starting at {@code origin + k × width} for every integer k, in epoch
 * microseconds. The origin is kept reduced to {@code [0, width)}, so two grids that put every
 * instant in the same bucket are equal.
 */
public record FixedGrid(long widthMicros, long originMicros) implements BucketGrid {
  public FixedGrid {
    if (widthMicros <= 0) {
      throw new IllegalArgumentException("bucket width must be positive, got " + widthMicros);
    }
    originMicros = Math.floorMod(originMicros, widthMicros);
  }

  @Override
  public long floor(long micros) {
    if (micros == Long.MIN_VALUE || micros == Long.MAX_VALUE) {
      return micros;
    }
    return micros - Math.floorMod(micros - originMicros, widthMicros);
  }

  @Override
  public long next(long bucketStart) {
    return bucketStart + widthMicros;
  }

  @Override
  public long ceil(long micros) {
    long floor = floor(micros);
    return floor == micros ? micros : floor + widthMicros;
  }

  @Override
  public long longestMicros() {
    return widthMicros;
  }

  @Override
  public long shortestMicros() {
    return widthMicros;
  }

  /** True when {@code finer} is fixed too and every bucket of this grid is whole ones of it. */
  @Override
  public boolean isMultipleOf(BucketGrid finer) {
    return finer instanceof FixedGrid fixed
        && widthMicros % fixed.widthMicros == 0
        && Math.floorMod(originMicros - fixed.originMicros, fixed.widthMicros) == 0;
  }

  /** The width as a duration. */
  public Duration width() {
    return Duration.of(widthMicros, ChronoUnit.MICROS);
  }

  /** E.g. {@code 1h} or {@code 7d from 2000-01-03T00:00:00Z}: the width, and the origin if any. */
  @Override
  public String toString() {
    String width = describe(widthMicros);
    return originMicros == 0
        ? width
        : width + " from " + Instant.EPOCH.plus(originMicros, ChronoUnit.MICROS);
  }

  private static String describe(long micros) {
    long[] units = {86_400_000_000L, 3_600_000_000L, 60_000_000L, 1_000_000L, 1_000L, 1L};
    String[] names = {"d", "h", "m", "s", "ms", "us"};
    for (int i = 0; i < units.length; i++) {
      if (micros % units[i] == 0) {
        return micros / units[i] + names[i];
      }
    }
    throw new AssertionError("unreachable: every width divides by one microsecond");
  }
}
