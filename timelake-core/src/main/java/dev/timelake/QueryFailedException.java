package dev.timelake;

/**
 * The SQL engine failed a statement; the message carries the engine's reason. The statement the
 * engine ran — Timelake's rewrite of the user's, with file paths and internal names — is kept apart
 * ({@link #statement}), for {@code --verbose} and server logs, never in the message.
 */
public class QueryFailedException extends TimelakeException {
  private final java.util.Optional<String> statement;

  public QueryFailedException(String message) {
    super(ErrorCode.QUERY_FAILED, message);
    this.statement = java.util.Optional.empty();
  }

  public QueryFailedException(String message, Throwable cause) {
    super(ErrorCode.QUERY_FAILED, message, cause);
    this.statement =
        cause instanceof QueryFailedException failed
            ? failed.statement
            : java.util.Optional.empty();
  }

  /** A failure of {@code statement}, as the engine ran it, for {@code reason}. */
  public QueryFailedException(String reason, String statement, Throwable cause) {
    super(ErrorCode.QUERY_FAILED, reason, cause);
    this.statement = java.util.Optional.of(statement);
  }

  /** The statement the engine ran when it failed, if known. */
  public java.util.Optional<String> statement() {
    return statement;
  }
}
