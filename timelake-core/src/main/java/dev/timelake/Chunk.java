package dev.timelake;

import java.util.Locale;

/**
 * The time partition size of a time-series table: each partition holds one hour, day or month of
 * the time column (Iceberg's hour, day and month transforms).
 */
public enum Chunk {
  HOUR,
  DAY,
  MONTH;

  /**
   * Parses {@code hour}, {@code day}, {@code month} and spellings such as {@code 1h}, {@code 1
   * day}.
   */
  public static Chunk parse(String text) {
    String normalized = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    return switch (normalized) {
      case "hour", "1h", "1hour", "hourly", "h" -> HOUR;
      case "day", "1d", "1day", "daily", "d" -> DAY;
      case "month", "1mo", "1month", "monthly" -> MONTH;
      default ->
          throw TimelakeException.validation(
              "Invalid chunk '%s' (expected hour, day or month)", text);
    };
  }

  /** The lower-case name used in table properties. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
