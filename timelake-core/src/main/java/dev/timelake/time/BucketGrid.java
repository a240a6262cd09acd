package dev.timelake.time;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Buckets of a fixed width starting at {@code origin + k × width} for every integer k, in epoch
 * microseconds. The origin is kept reduced to {@code [0, width)}, so two grids that put every
 * instant in the same bucket are equal.
 */
public record BucketGrid(long widthMicros, long originMicros) {
  /**
   * DuckDB's default origin of {@code time_bucket} for day and sub-day widths: 2000-01-03 00:00
   * UTC, a Monday. The one home of this constant.
   */
  public static final long TIME_BUCKET_ORIGIN_MICROS = 946_857_600_000_000L;

  /** The origin of {@code date_bin} and {@code date_trunc}: the Unix epoch. */
  public static final long EPOCH_ORIGIN_MICROS = 0;

  public BucketGrid {
    if (widthMicros <= 0) {
      throw new IllegalArgumentException("bucket width must be positive, got " + widthMicros);
    }
    originMicros = Math.floorMod(originMicros, widthMicros);
  }

  /** The grid of {@code width} with origin {@code origin} (any instant on the grid). */
  public static BucketGrid of(long widthMicros, long originMicros) {
    return new BucketGrid(widthMicros, originMicros);
  }

  /** The grid of {@code time_bucket(width, time)} with DuckDB's default origin. */
  public static BucketGrid timeBucket(long widthMicros) {
    return new BucketGrid(widthMicros, TIME_BUCKET_ORIGIN_MICROS);
  }

  /** The start of the bucket holding {@code micros}; open ends stay open. */
  public long floor(long micros) {
    if (micros == Long.MIN_VALUE || micros == Long.MAX_VALUE) {
      return micros;
    }
    return micros - Math.floorMod(micros - originMicros, widthMicros);
  }

  /** The first bucket start at or after {@code micros}; open ends stay open. */
  public long ceil(long micros) {
    long floor = floor(micros);
    return floor == micros ? micros : floor + widthMicros;
  }

  /** True when every bucket of this grid is a whole number of {@code finer}'s buckets. */
  public boolean isMultipleOf(BucketGrid finer) {
    return widthMicros % finer.widthMicros == 0
        && Math.floorMod(originMicros - finer.originMicros, finer.widthMicros) == 0;
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
