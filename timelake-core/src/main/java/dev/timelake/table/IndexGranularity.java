package dev.timelake.table;

import java.math.BigInteger;
import java.util.Locale;

/**
 * The width of the ordered index's intervals (docs/SPEC.md, ordered index): a number of seconds,
 * minutes, hours or days for a timestamp index ({@code '15 minutes'}, {@code '1h'}), or a positive
 * integer for a BIGINT or UBIGINT index, read as an unsigned 64-bit number. Intervals are half-open
 * and aligned to 0 (the Unix epoch in UTC for timestamps).
 */
public sealed interface IndexGranularity {
  /** The largest count a time granularity may have (the seeds' system keeps it in 32 bits). */
  long MAX_TIME_COUNT = 4_294_967_295L;

  /** A time width: {@code count} units. */
  record Time(long count, Unit unit) implements IndexGranularity {
    /** Units of a time granularity, with their length in seconds. */
    public enum Unit {
      SECONDS(1),
      MINUTES(60),
      HOURS(3_600),
      DAYS(86_400);

      final long seconds;

      Unit(long seconds) {
        this.seconds = seconds;
      }
    }

    /** The width in whole seconds. */
    public long widthSeconds() {
      return count * unit.seconds;
    }

    @Override
    public String toString() {
      String name = unit.name().toLowerCase(Locale.ROOT);
      return count + " " + (count == 1 ? name.substring(0, name.length() - 1) : name);
    }
  }

  /** An integer width, unsigned (from 1 to 2^64 − 1). */
  record Count(long width) implements IndexGranularity {
    public Count {
      if (width == 0) {
        throw new IllegalArgumentException("an integer granularity is at least 1");
      }
    }

    @Override
    public String toString() {
      return Long.toUnsignedString(width);
    }
  }

  /**
   * Reads the granularity of an index column of type {@code type}: a time width for TIMESTAMPTZ and
   * TIMESTAMP, an integer width for BIGINT.
   *
   * @throws InvalidGranularityException when the text does not suit the type
   */
  static IndexGranularity forColumn(dev.timelake.ColumnType type, String text) {
    return switch (type.kind()) {
      case TIMESTAMPTZ, TIMESTAMP -> parseTime(text);
      case BIGINT -> parseCount(text);
      default ->
          throw new InvalidGranularityException(
              InvalidGranularityException.Reason.UNSUPPORTED_INDEX,
              text,
              "an ordered index of type " + type + " takes no granularity");
    };
  }

  /**
   * Reads a time granularity: a decimal count above 0 (at most {@value #MAX_TIME_COUNT}), optional
   * spaces, then a unit in any case: {@code s|sec|secs|second|seconds}, {@code
   * m|min|mins|minute|minutes}, {@code h|hr|hrs|hour|hours}, {@code d|day|days}.
   *
   * @throws InvalidGranularityException saying which rule the text breaks
   */
  static Time parseTime(String text) {
    String trimmed = text == null ? "" : text.strip();
    int end = 0;
    while (end < trimmed.length() && "0123456789._,+-".indexOf(trimmed.charAt(end)) >= 0) {
      end++;
    }
    String number = trimmed.substring(0, end);
    String unit = trimmed.substring(end).strip();
    if (number.isEmpty()) {
      throw invalid(
          InvalidGranularityException.Reason.MISSING_NUMBER,
          text,
          "it does not start with a number");
    }
    if (!number.chars().allMatch(Character::isDigit)) {
      throw invalid(
          InvalidGranularityException.Reason.INVALID_NUMBER,
          text,
          "'" + number + "' is not a whole number of units");
    }
    if (unit.isEmpty()) {
      throw invalid(InvalidGranularityException.Reason.MISSING_UNIT, text, "it names no unit");
    }
    Time.Unit parsedUnit =
        switch (unit.toLowerCase(Locale.ROOT)) {
          case "s", "sec", "secs", "second", "seconds" -> Time.Unit.SECONDS;
          case "m", "min", "mins", "minute", "minutes" -> Time.Unit.MINUTES;
          case "h", "hr", "hrs", "hour", "hours" -> Time.Unit.HOURS;
          case "d", "day", "days" -> Time.Unit.DAYS;
          default ->
              throw invalid(
                  InvalidGranularityException.Reason.UNKNOWN_UNIT,
                  text,
                  "'" + unit + "' is not a unit");
        };
    BigInteger count = new BigInteger(number);
    if (count.signum() == 0) {
      throw invalid(
          InvalidGranularityException.Reason.NON_POSITIVE, text, "the width must be above 0");
    }
    if (count.compareTo(BigInteger.valueOf(MAX_TIME_COUNT)) > 0) {
      throw invalid(
          InvalidGranularityException.Reason.TOO_LARGE,
          text,
          "the count may be at most " + MAX_TIME_COUNT);
    }
    return new Time(count.longValueExact(), parsedUnit);
  }

  /**
   * Reads an integer granularity: decimal digits only, from 1 to 18446744073709551615.
   *
   * @throws InvalidGranularityException saying which rule the text breaks
   */
  static Count parseCount(String text) {
    String trimmed = text == null ? "" : text.strip();
    if (trimmed.isEmpty()) {
      throw invalid(InvalidGranularityException.Reason.MISSING_NUMBER, text, "it is empty");
    }
    if (!trimmed.chars().allMatch(Character::isDigit)) {
      throw invalid(
          InvalidGranularityException.Reason.INVALID_NUMBER,
          text,
          "an integer granularity is written in decimal digits only");
    }
    BigInteger width = new BigInteger(trimmed);
    if (width.signum() == 0) {
      throw invalid(
          InvalidGranularityException.Reason.NON_POSITIVE, text, "the width must be above 0");
    }
    if (width.bitLength() > 64) {
      throw invalid(
          InvalidGranularityException.Reason.TOO_LARGE,
          text,
          "the width may be at most 18446744073709551615");
    }
    return new Count(width.longValue());
  }

  private static InvalidGranularityException invalid(
      InvalidGranularityException.Reason reason, String text, String why) {
    return new InvalidGranularityException(
        reason,
        text,
        "Invalid index_granularity '"
            + text
            + "': "
            + why
            + " (expected a count and a unit such as '1m', '15 minutes', '1h' or '1d' for a"
            + " timestamp index, a positive integer for an integer index)");
  }
}
