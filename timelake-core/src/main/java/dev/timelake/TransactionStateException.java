package dev.timelake;

/**
 * A statement refused because of the session's transaction: one that cannot be undone run inside
 * {@code BEGIN} (SQLSTATE {@code 25001}), or any statement after a failed one until {@code
 * ROLLBACK} (SQLSTATE {@code 25P02}). Nothing was changed.
 */
public final class TransactionStateException extends TimelakeException {
  private final String sqlState;

  private TransactionStateException(String sqlState, String message) {
    super(ErrorCode.VALIDATION, message);
    this.sqlState = sqlState;
  }

  /** A statement that would change the lake at once, refused inside a transaction. */
  public static TransactionStateException insideTransaction(String message) {
    return new TransactionStateException("25001", message);
  }

  /** A statement refused because an earlier statement of the transaction failed. */
  public static TransactionStateException aborted(String message) {
    return new TransactionStateException("25P02", message);
  }

  @Override
  public String sqlState() {
    return sqlState;
  }
}
