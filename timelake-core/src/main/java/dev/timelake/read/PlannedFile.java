package dev.timelake.read;

import static java.util.Objects.requireNonNull;

/**
 * A live data file a scan reads: its location, time partition, data sequence number (commit order;
 * compaction keeps the newest of the files it merges), row count and the bounds of its time column
 * and first series-key column (null when unknown or for plain tables), and its highest insertion
 * time ({@link Long#MIN_VALUE} when the table has no insertion-time column or the bound is
 * unknown).
 *
 * <p>{@code externalCommitMicros} is the commit time of the append by another Iceberg writer that
 * added the file ({@link Long#MIN_VALUE} for Timelake's files): its rows' insertion time is that
 * commit's (see {@link ExternalWrites}).
 *
 * <p>A file is <em>fresh</em> when every row is newer than every row of the earlier files of its
 * partition (its lowest time is above their highest): then no earlier file can hold one of its
 * keys, and only later files can replace its rows.
 */
public record PlannedFile(
    String location,
    int partition,
    long sequenceNumber,
    long rows,
    long sizeBytes,
    long minMicros,
    long maxMicros,
    Comparable<Object> minKey,
    Comparable<Object> maxKey,
    long ingestMaxMicros,
    boolean fresh,
    long externalCommitMicros) {
  /**
   * The sequence number of a file of rows a client's open transaction holds: newer than every
   * committed file. Such a file may span partitions and belongs to none of them.
   */
  public static final long HELD_SEQUENCE = Long.MAX_VALUE;

  public PlannedFile {
    requireNonNull(location, "location is null");
  }

  /** True for a file of rows an open transaction holds (see {@link #HELD_SEQUENCE}). */
  public boolean isHeld() {
    return sequenceNumber == HELD_SEQUENCE;
  }

  /** This file at another location (its local copy, say). */
  PlannedFile withLocation(String newLocation) {
    return copy(newLocation, fresh);
  }

  /** This file, marked fresh or not. */
  PlannedFile withFresh(boolean isFresh) {
    return copy(location, isFresh);
  }

  private PlannedFile copy(String newLocation, boolean isFresh) {
    return new PlannedFile(
        newLocation,
        partition,
        sequenceNumber,
        rows,
        sizeBytes,
        minMicros,
        maxMicros,
        minKey,
        maxKey,
        ingestMaxMicros,
        isFresh,
        externalCommitMicros);
  }

  /** True when another Iceberg writer's append added this file. */
  public boolean isExternal() {
    return externalCommitMicros != Long.MIN_VALUE;
  }

  /** True when this file and {@code other} may hold rows with the same (series key…, time). */
  public boolean mayShareKeysWith(PlannedFile other) {
    if (fresh && other.fresh) {
      return false;
    }
    if (maxMicros < other.minMicros || other.maxMicros < minMicros) {
      return false;
    }
    if (minKey == null || maxKey == null || other.minKey == null || other.maxKey == null) {
      return true;
    }
    return maxKey.compareTo(other.minKey) >= 0 && other.maxKey.compareTo(minKey) >= 0;
  }
}
