package dev.timelake;

/** The data conflicts with committed data or a concurrent writer won. */
public class ConflictException extends TimelakeException {
  public ConflictException(String message) {
    super(ErrorCode.CONFLICT, message);
  }

  public ConflictException(String message, Throwable cause) {
    super(ErrorCode.CONFLICT, message, cause);
  }
}
