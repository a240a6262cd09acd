package dev.timelake;

/** A commit may or may not have happened; inspect the table before retrying. */
public class CommitStateUnknownException extends TimelakeException {
  public CommitStateUnknownException(String message) {
    super(ErrorCode.COMMIT_STATE_UNKNOWN, message);
  }

  public CommitStateUnknownException(String message, Throwable cause) {
    super(ErrorCode.COMMIT_STATE_UNKNOWN, message, cause);
  }
}
