package dev.timelake;

/**
 * What kind of failure a {@link TimelakeException} reports; the CLI maps each to an exit status.
 */
public enum ErrorCode {
  /** The input, definition or setting is invalid; nothing was changed. */
  VALIDATION(2),
  /** A named table, namespace or snapshot does not exist. */
  NOT_FOUND(3),
  /** A table or namespace with that name already exists. */
  ALREADY_EXISTS(4),
  /** The data conflicts with what the table holds, or a concurrent commit won. */
  CONFLICT(5),
  /** Two rows of one append share a series and an index interval; nothing was changed. */
  DUPLICATE_INDEX_INTERVAL(5),
  /** A row's series and index interval already hold a committed row; nothing was changed. */
  INDEX_INTERVAL_OVERLAP(5),
  /** The commit failed; the table is unchanged. */
  COMMIT_FAILED(6),
  /** The commit may or may not have happened; check the table before retrying. */
  COMMIT_STATE_UNKNOWN(7),
  /** The SQL engine rejected or failed a statement. */
  QUERY_FAILED(8),
  /** An I/O or internal failure. */
  INTERNAL(1);

  private final int exitStatus;

  ErrorCode(int exitStatus) {
    this.exitStatus = exitStatus;
  }

  /** The process exit status the CLI uses for this kind of failure. */
  public int exitStatus() {
    return exitStatus;
  }
}
