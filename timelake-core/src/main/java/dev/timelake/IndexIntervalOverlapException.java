package dev.timelake;

import java.util.Map;

/**
 * Rows of an append fall in index intervals that already hold a row of the same series in committed
 * data (or in data a concurrent writer committed first). Nothing was committed and no file was left
 * behind. {@link #exampleIdentity()} is empty for a table without entity columns.
 */
public final class IndexIntervalOverlapException extends TimelakeException {
  private final TableName table;
  private final long conflictCount;
  private final Map<String, Object> exampleIdentity;
  private final String exampleInterval;

  public IndexIntervalOverlapException(
      TableName table,
      long conflictCount,
      Map<String, Object> exampleIdentity,
      String exampleInterval,
      String message) {
    super(ErrorCode.INDEX_INTERVAL_OVERLAP, message);
    this.table = table;
    this.conflictCount = conflictCount;
    this.exampleIdentity = Map.copyOf(exampleIdentity);
    this.exampleInterval = exampleInterval;
  }

  public TableName table() {
    return table;
  }

  /** How many appended rows fall in an occupied (series, interval) pair. */
  public long conflictCount() {
    return conflictCount;
  }

  /** The series of one conflicting row: entity column → value. */
  public Map<String, Object> exampleIdentity() {
    return exampleIdentity;
  }

  /** The interval of that row, e.g. {@code [0, 10)}. */
  public String exampleInterval() {
    return exampleInterval;
  }
}
