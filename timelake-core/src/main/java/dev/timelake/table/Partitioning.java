package dev.timelake.table;

import dev.timelake.Chunk;
import dev.timelake.TimelakeException;

/**
 * How a time-series table's rows are split into partitions by their time column: whole hours, days
 * or months of a timestamp (Iceberg's hour, day and month transforms), or fixed widths of a BIGINT
 * logical clock (Iceberg's truncate). Partitions are numbered by an ordinal in index order; values
 * are µs since the epoch for timestamps and the clock's own units for BIGINT.
 */
public sealed interface Partitioning {
  /** The ordinal of the partition holding {@code value}. */
  int ordinal(long value);

  /** A DuckDB expression computing the ordinal of {@code valueSql}, a value of the time column. */
  String ordinalSql(String valueSql);

  /** The first value of a partition. */
  long start(int ordinal);

  /** The first value after a partition ({@link Long#MAX_VALUE} past the last one). */
  long end(int ordinal);

  /** A readable label, also the partition's folder name. */
  String label(int ordinal);

  /** The ordinal of a data file's Iceberg partition value. */
  int ordinalOf(Object partitionValue);

  /** The Iceberg partition value of an ordinal. */
  Object partitionValue(int ordinal);

  /** A DuckDB expression turning a time column value into the numbers {@link #ordinal} takes. */
  String valueSql(String columnSql);

  /** Partitions of a timestamp column. */
  record Time(Chunk chunk) implements Partitioning {
    @Override
    public int ordinal(long micros) {
      return TimePartitions.ordinal(chunk, micros);
    }

    @Override
    public String ordinalSql(String valueSql) {
      return TimePartitions.ordinalSql(chunk, valueSql);
    }

    @Override
    public long start(int ordinal) {
      return TimePartitions.startMicros(chunk, ordinal);
    }

    @Override
    public long end(int ordinal) {
      return TimePartitions.endMicros(chunk, ordinal);
    }

    @Override
    public String label(int ordinal) {
      return TimePartitions.label(chunk, ordinal);
    }

    @Override
    public int ordinalOf(Object partitionValue) {
      return (Integer) partitionValue;
    }

    @Override
    public Object partitionValue(int ordinal) {
      return ordinal;
    }

    @Override
    public String valueSql(String columnSql) {
      return "epoch_us(" + columnSql + ")";
    }
  }

  /**
   * Partitions of a BIGINT clock, {@code width} units each, starting at multiples of the width
   * (Euclidean); the Iceberg partition value is the partition's first value.
   */
  record Truncate(long width) implements Partitioning {
    /** Iceberg's truncate transform takes an int width. */
    public static final long MAX_WIDTH = Integer.MAX_VALUE;

    public Truncate {
      if (width < 1 || width > MAX_WIDTH) {
        throw TimelakeException.validation(
            "Invalid partition_width %d: it is a whole number from 1 to %d (Iceberg's truncate"
                + " takes a 32-bit width)",
            width, MAX_WIDTH);
      }
    }

    @Override
    public int ordinal(long value) {
      long ordinal = Math.floorDiv(value, width);
      if (ordinal < Integer.MIN_VALUE || ordinal > Integer.MAX_VALUE) {
        throw TimelakeException.validation(
            "Index value %d is beyond the partitions of width %d (value ÷ width must stay within"
                + " ±2^31); create the table with a wider partition_width",
            value, width);
      }
      return (int) ordinal;
    }

    @Override
    public String ordinalSql(String valueSql) {
      return "CAST(" + TimePartitions.floorDivSql(valueSql, width) + " AS INTEGER)";
    }

    @Override
    public long start(int ordinal) {
      return ordinal * width;
    }

    @Override
    public long end(int ordinal) {
      long start = start(ordinal);
      return start > Long.MAX_VALUE - width ? Long.MAX_VALUE : start + width;
    }

    @Override
    public String label(int ordinal) {
      return Long.toString(start(ordinal));
    }

    @Override
    public int ordinalOf(Object partitionValue) {
      return ordinal(((Number) partitionValue).longValue());
    }

    @Override
    public Object partitionValue(int ordinal) {
      return start(ordinal);
    }

    @Override
    public String valueSql(String columnSql) {
      return columnSql;
    }
  }
}
