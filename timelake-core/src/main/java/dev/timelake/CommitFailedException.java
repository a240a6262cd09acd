package dev.timelake;

/** A commit failed; the table is unchanged. */
public class CommitFailedException extends TimelakeException {
  public CommitFailedException(String message) {
    super(ErrorCode.COMMIT_FAILED, message);
  }

  public CommitFailedException(String message, Throwable cause) {
    super(ErrorCode.COMMIT_FAILED, message, cause);
  }
}
