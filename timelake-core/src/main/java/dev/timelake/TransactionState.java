package dev.timelake;

/**
 * Where a session stands with respect to a transaction a client opened with {@code BEGIN}: what a
 * PostgreSQL server reports in every ReadyForQuery ({@code I}, {@code T}, {@code E}).
 */
public enum TransactionState {
  /** No transaction: every statement commits on its own. */
  IDLE('I'),
  /**
   * Inside {@code BEGIN}: INSERTs and COPYs into lake tables are checked and held, and commit at
   * {@code COMMIT} (one snapshot per table) or are discarded at {@code ROLLBACK}.
   */
  OPEN('T'),
  /**
   * A statement of the transaction failed: every statement but {@code ROLLBACK} (or {@code COMMIT},
   * which then rolls back) is refused, and nothing of the transaction will commit.
   */
  FAILED('E');

  private final char status;

  TransactionState(char status) {
    this.status = status;
  }

  /** The PostgreSQL protocol's transaction status indicator. */
  public char status() {
    return status;
  }
}
