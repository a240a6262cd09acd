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
      case ALREADY_EXISTS -> "42P07";
      case CONFLICT -> "40001"; // PostgreSQL's serialization failure: clients know to retry
      case DUPLICATE_INDEX_INTERVAL, INDEX_INTERVAL_OVERLAP -> "23505";
      case QUERY_FAILED -> engineState(String.valueOf(getMessage()));
      default -> "XX000";
    };
  }

  /** PostgreSQL's code for the kind of error DuckDB names at the start of its message. */
  private static String engineState(String message) {
    if (message.contains("Referenced column") || message.contains("Column with name")) {
      return "42703"; // undefined_column
    }
    if (message.startsWith("Parser Error") || message.contains("Parser Error:")) {
      return "42601"; // syntax_error
    }
    if (message.contains("Conversion Error")) {
      return "22P02"; // invalid_text_representation
    }
    if (message.contains("Out of Range Error")) {
      return "22003"; // numeric_value_out_of_range
    }
    if (message.contains("Catalog Error: Table with name")) {
      return "42P01"; // undefined_table
    }
    if (message.contains("Binder Error: No function matches")) {
      return "42883"; // undefined_function
    }
    return "XX000";
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
