package dev.timelake;

import java.util.Map;

/**
 * Two rows of one append fall in the same index interval of the same series, on a table whose index
 * granularity allows one row per series and interval. Nothing was committed and no file was left
 * behind. {@link #exampleIdentity()} is empty for a table without entity columns.
 */
public final class DuplicateIndexIntervalException extends TimelakeException {
  private final TableName table;
  private final Map<String, Object> exampleIdentity;
  private final String exampleInterval;

  public DuplicateIndexIntervalException(
      TableName table,
      Map<String, Object> exampleIdentity,
      String exampleInterval,
      String message) {
    super(ErrorCode.DUPLICATE_INDEX_INTERVAL, message);
    this.table = table;
    this.exampleIdentity = Map.copyOf(exampleIdentity);
    this.exampleInterval = exampleInterval;
  }

  public TableName table() {
    return table;
  }

  /** The series of the duplicate rows: entity column → value. */
  public Map<String, Object> exampleIdentity() {
    return exampleIdentity;
  }

  /** The interval both rows fall in, e.g. {@code [0, 10)}. */
  public String exampleInterval() {
    return exampleInterval;
  }
}
