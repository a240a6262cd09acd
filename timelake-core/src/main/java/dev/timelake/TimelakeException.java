package dev.timelake;

import static java.util.Objects.requireNonNull;

/**
 * Base of every error Timelake reports. Messages name the object and the offending value, e.g.
 * {@code Cannot append to iot.readings: column 'time' is null in row 17}. Callers branch on {@link
 * #code()}, never on the message.
 */
public class TimelakeException extends RuntimeException {
  private final ErrorCode code;

  public TimelakeException(ErrorCode code, String message) {
    super(message);
    this.code = requireNonNull(code, "code is null");
  }

  public TimelakeException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = requireNonNull(code, "code is null");
  }

  /** The kind of failure. */
  public ErrorCode code() {
    return code;
  }

  /** Bad input, definition or setting. */
  public static TimelakeException validation(String format, Object... args) {
    return new ValidationException(String.format(format, args));
  }

  /** A named object does not exist. */
  public static TimelakeException notFound(String format, Object... args) {
    return new NotFoundException(String.format(format, args));
  }
}
