package dev.timelake.read;

import static java.util.Objects.requireNonNull;

/**
 * A live data file a scan reads: its location, data sequence number (commit order; compaction keeps
 * the newest of the files it merges), row count and the bounds of its time column and first
 * series-key column (null when unknown or for plain tables).
 */
public record PlannedFile(
    String location,
    long sequenceNumber,
    long rows,
    long sizeBytes,
    long minMicros,
    long maxMicros,
    Comparable<Object> minKey,
    Comparable<Object> maxKey) {
  public PlannedFile {
    requireNonNull(location, "location is null");
  }

  /** True when this file and {@code other} may hold rows with the same (series key…, time). */
  public boolean mayShareKeysWith(PlannedFile other) {
    if (maxMicros < other.minMicros || other.maxMicros < minMicros) {
      return false;
    }
    if (minKey == null || maxKey == null || other.minKey == null || other.maxKey == null) {
      return true;
    }
    return maxKey.compareTo(other.minKey) >= 0 && other.maxKey.compareTo(minKey) >= 0;
  }
}
