package dev.timelake.write;

import org.apache.iceberg.StructLike;

/**
 * The partition tuple of a time-partitioned table: one value, the hour, day or month ordinal of a
 * timestamp, or the first value of a BIGINT clock's partition.
 */
record PartitionOrdinal(Object value) implements StructLike {
  @Override
  public int size() {
    return 1;
  }

  @Override
  public <T> T get(int pos, Class<T> javaClass) {
    return javaClass.cast(value);
  }

  @Override
  public <T> void set(int pos, T value) {
    throw new UnsupportedOperationException("PartitionOrdinal is immutable");
  }
}
