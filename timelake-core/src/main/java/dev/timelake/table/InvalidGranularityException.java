package dev.timelake.table;

import dev.timelake.ValidationException;

/**
 * A granularity that cannot be read, with the reason as a kind (the reference sheet's error cases)
 * and the text that was given.
 */
public final class InvalidGranularityException extends ValidationException {
  /** Why a granularity was refused. */
  public enum Reason {
    UNKNOWN_UNIT,
    INVALID_NUMBER,
    MISSING_UNIT,
    MISSING_NUMBER,
    NON_POSITIVE,
    TOO_LARGE,
    UNSUPPORTED_INDEX
  }

  private final Reason reason;
  private final String text;

  InvalidGranularityException(Reason reason, String text, String message) {
    super(message);
    this.reason = reason;
    this.text = text;
  }

  /** The same refusal, its message prefixed by where the granularity was given. */
  public InvalidGranularityException in(String context) {
    return new InvalidGranularityException(reason, text, context + ": " + getMessage());
  }

  public Reason reason() {
    return reason;
  }

  /** The granularity as it was given. */
  public String text() {
    return text;
  }
}
