package dev.timelake;

/** The SQL engine failed a statement; the message carries the engine's reason. */
public class QueryFailedException extends TimelakeException {
  public QueryFailedException(String message) {
    super(ErrorCode.QUERY_FAILED, message);
  }

  public QueryFailedException(String message, Throwable cause) {
    super(ErrorCode.QUERY_FAILED, message, cause);
  }
}
