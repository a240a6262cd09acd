package dev.timelake.time;

/**
 * A partition of time into buckets, in epoch microseconds: a {@link FixedGrid} (buckets of one
 * width from an origin, in UTC) or a {@link CalendarGrid} (local days or months of a time zone,
 * whose lengths vary with the calendar and daylight saving time).
 */
public sealed interface BucketGrid permits FixedGrid, CalendarGrid {
  /**
   * DuckDB's default origin of {@code time_bucket} for day and sub-day widths: 2000-01-03 00:00
   * UTC, a Monday. The one home of this constant.
   */
  long TIME_BUCKET_ORIGIN_MICROS = 946_857_600_000_000L;

  /** The origin of {@code date_bin} and {@code date_trunc}: the Unix epoch. */
  long EPOCH_ORIGIN_MICROS = 0;

  /** How many boundaries {@link #isMultipleOf(BucketGrid, long, long)} checks at most. */
  int MAX_CHECKED_BOUNDARIES = 1_000_000;

  /** The grid of {@code width} with origin {@code origin} (any instant on the grid). */
  static FixedGrid of(long widthMicros, long originMicros) {
    return new FixedGrid(widthMicros, originMicros);
  }

  /** The grid of {@code time_bucket(width, time)} with DuckDB's default origin. */
  static FixedGrid timeBucket(long widthMicros) {
    return new FixedGrid(widthMicros, TIME_BUCKET_ORIGIN_MICROS);
  }

  /** The start of the bucket holding {@code micros}; open ends stay open. */
  long floor(long micros);

  /** The start of the bucket after the one starting at {@code bucketStart}. */
  long next(long bucketStart);

  /** The first bucket start at or after {@code micros}; open ends stay open. */
  default long ceil(long micros) {
    long floor = floor(micros);
    return floor == micros || floor == Long.MIN_VALUE ? floor : next(floor);
  }

  /**
   * The longest a bucket can be, in µs (a month is 31 days and an hour of daylight saving): for
   * ordering grids and sizing work, never for bucket arithmetic.
   */
  long longestMicros();

  /**
   * The shortest a bucket can be, in µs (a local day loses at most a couple of hours to a clock
   * change), so that grids that cannot nest are told apart without enumerating boundaries.
   */
  long shortestMicros();

  /**
   * True when every bucket of this grid is a whole number of {@code finer}'s buckets at all times,
   * as far as can be proven without looking at a range; see {@link #isMultipleOf(BucketGrid, long,
   * long)} for a range.
   */
  boolean isMultipleOf(BucketGrid finer);

  /**
   * True when every bucket of this grid that meets {@code [from, to)} is a whole number of {@code
   * finer}'s buckets: provable at all times, or, for a bounded range, each of this grid's
   * boundaries in it is one of {@code finer}'s (a local day of Asia/Kolkata starts on a UTC quarter
   * hour). False when the range holds more than {@link #MAX_CHECKED_BOUNDARIES}.
   */
  default boolean isMultipleOf(BucketGrid finer, long from, long to) {
    if (isMultipleOf(finer)) {
      return true;
    }
    if (from == Long.MIN_VALUE || to == Long.MAX_VALUE || from >= to) {
      return from >= to;
    }
    if (longestMicros() < finer.shortestMicros()) {
      return false; // a bucket of this grid is shorter than any of finer's
    }
    long boundary = floor(from);
    for (int checked = 0; boundary < to; checked++) {
      if (checked == MAX_CHECKED_BOUNDARIES || finer.floor(boundary) != boundary) {
        return false;
      }
      boundary = next(boundary);
    }
    return finer.floor(boundary) == boundary;
  }
}
