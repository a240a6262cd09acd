package dev.timelake.table;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints durations as the table contract spells them: {@code 90d}, {@code 12h}, {@code
 * 30m} (minutes), {@code 45s}, {@code 2w}, {@code 1y}, or spelled out ({@code 1 day}, {@code 3
 * hours}). A year is 365 days.
 */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*([a-z]+)");

  private Durations() {}

  /** Parses a duration; throws {@link IllegalArgumentException} saying what is accepted. */
  public static Duration parse(String text) {
    Matcher matcher = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException("expected a duration such as 90d, 12h, 30m, 45s, 2w, 1y");
    }
    long unitSeconds = unitSeconds(matcher.group(2));
    try {
      return Duration.ofSeconds(Math.multiplyExact(Long.parseLong(matcher.group(1)), unitSeconds));
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("expected a duration such as 90d, 12h, 30m, 45s, 2w, 1y");
    }
  }

  private static long unitSeconds(String unit) {
    return switch (unit) {
      case "s", "sec", "secs", "second", "seconds" -> 1;
      case "m", "min", "mins", "minute", "minutes" -> 60;
      case "h", "hr", "hrs", "hour", "hours" -> 3600;
      case "d", "day", "days" -> 86_400;
      case "w", "week", "weeks" -> 7 * 86_400;
      case "y", "year", "years" -> 365 * 86_400;
      default ->
          throw new IllegalArgumentException(
              "unknown unit '" + unit + "', expected s, m, h, d, w or y");
    };
  }

  /** Prints whole seconds in the largest unit that divides exactly: 7,776,000 s is {@code 90d}. */
  public static String format(Duration duration) {
    long seconds = duration.getSeconds();
    if (seconds == 0) {
      return "0s";
    }
    long[] units = {365 * 86_400L, 7 * 86_400L, 86_400, 3600, 60, 1};
    String[] names = {"y", "w", "d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (seconds % units[i] == 0) {
        return seconds / units[i] + names[i];
      }
    }
    throw new AssertionError("unreachable: every duration divides by one second");
  }
}
