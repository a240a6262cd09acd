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

  /**
   * The SQLSTATE PostgreSQL clients and JDBC tools expect for this error: {@code 57014} for a
   * cancelled statement, {@code 42P01} for a missing table, {@code 22023} for bad input, {@code
   * 23505} (unique violation) for a second row in an index interval, {@code XX000} otherwise.
   */
  public String sqlState() {
    if (String.valueOf(getMessage()).contains("INTERRUPT Error")) {
      return "57014";
    }
    return switch (code) {
      case NOT_FOUND -> "42P01";
      case VALIDATION -> "22023";
      case DUPLICATE_INDEX_INTERVAL, INDEX_INTERVAL_OVERLAP -> "23505";
      default -> "XX000";
    };
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
