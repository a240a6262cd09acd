package dev.timelake;

/** A named table, namespace or snapshot does not exist. */
public class NotFoundException extends TimelakeException {
  public NotFoundException(String message) {
    super(ErrorCode.NOT_FOUND, message);
  }

  public NotFoundException(String message, Throwable cause) {
    super(ErrorCode.NOT_FOUND, message, cause);
  }
}
