package dev.timelake.write;

import org.apache.iceberg.StructLike;

/** The partition tuple of a time-partitioned table: one integer, the hour, day or month ordinal. */
record PartitionOrdinal(int ordinal) implements StructLike {
  @Override
  public int size() {
    return 1;
  }

  @Override
  public <T> T get(int pos, Class<T> javaClass) {
    return javaClass.cast(ordinal);
  }

  @Override
  public <T> void set(int pos, T value) {
    throw new UnsupportedOperationException("PartitionOrdinal is immutable");
  }
}
