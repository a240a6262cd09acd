package dev.timelake;

/** The input, definition or setting is invalid; nothing was changed. */
public class ValidationException extends TimelakeException {
  public ValidationException(String message) {
    super(ErrorCode.VALIDATION, message);
  }

  public ValidationException(String message, Throwable cause) {
    super(ErrorCode.VALIDATION, message, cause);
  }
}
