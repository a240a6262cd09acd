package dev.timelake.rollup;

import dev.timelake.table.TimePartitions;

/** Bucket math of rollups: floor to a bucket start and the SQL that does it in DuckDB. */
public final class RollupBuckets {
  /** DuckDB's default origin of time_bucket for day or time widths: 2000-01-03 (a Monday). */
  public static final long TIME_BUCKET_ORIGIN_MICROS = 946_857_600_000_000L;

  private RollupBuckets() {}

  /** The start of the bucket holding {@code micros}. */
  public static long floor(long micros, long width, long origin) {
    return micros - Math.floorMod(micros - origin, width);
  }

  /** The first bucket start at or after {@code micros}. */
  public static long ceil(long micros, long width, long origin) {
    long floor = floor(micros, width, origin);
    return floor == micros ? micros : floor + width;
  }

  /** A TIMESTAMPTZ expression: the bucket start of {@code timeSql} (a TIMESTAMPTZ). */
  public static String sql(String timeSql, long width, long origin) {
    String micros = "epoch_us(" + timeSql + ")";
    String shifted = origin == 0 ? micros : "(" + micros + " - " + origin + ")";
    return "make_timestamptz(" + micros + " - " + TimePartitions.floorModSql(shifted, width) + ")";
  }

  /** True when two bucketings put every instant in the same bucket. */
  public static boolean sameBuckets(long width, long origin, long otherWidth, long otherOrigin) {
    return width == otherWidth && Math.floorMod(origin - otherOrigin, width) == 0;
  }
}
