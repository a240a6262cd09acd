package dev.timelake;

/** A table or namespace of that name already exists. */
public class AlreadyExistsException extends TimelakeException {
  public AlreadyExistsException(String message) {
    super(ErrorCode.ALREADY_EXISTS, message);
  }

  public AlreadyExistsException(String message, Throwable cause) {
    super(ErrorCode.ALREADY_EXISTS, message, cause);
  }
}
