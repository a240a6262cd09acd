package dev.timelake.bench;

import dev.timelake.TimelakeException;
import dev.timelake.iiot.IiotGenerator;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills a query template for one configuration. Placeholders: {@code {readings}} and {@code {tags}}
 * (the tables), {@code {bucket:1 hour}} (the time bucket of column {@code time}), {@code {first}}
 * and {@code {last}} (the ordered first and last aggregates).
 *
 * <p>Timelake gets {@code time_bucket(INTERVAL '1 hour', time)}, which it rewrites to arithmetic on
 * epoch microseconds and which rollup routing recognizes, and the rollup spec's names {@code
 * first_value} / {@code last_value}. Plain DuckDB gets the same arithmetic Timelake runs (DuckDB's
 * own {@code time_bucket} on a {@code TIMESTAMPTZ} goes through its time-zone library and is about
 * 30 times slower, which would make the floor no floor) and DuckDB's names {@code first} / {@code
 * last}.
 */
record SqlDialect(String readings, String tags, boolean timelake) {
  /** DuckDB's default origin of {@code time_bucket} for day and time widths: 2000-01-03, in µs. */
  static final long TIME_BUCKET_ORIGIN_MICROS = 946_857_600_000_000L;

  private static final Pattern BUCKET = Pattern.compile("\\{bucket:([^}]+)}");
  private static final Pattern WIDTH = Pattern.compile("(\\d+) (minute|hour|day)s?");

  static SqlDialect forTimelake() {
    return new SqlDialect(IiotGenerator.READINGS.toString(), IiotGenerator.TAGS.toString(), true);
  }

  static SqlDialect forDuckdb(String readingsView, String tagsView) {
    return new SqlDialect(readingsView, tagsView, false);
  }

  /** The template with every placeholder filled. */
  String fill(String template) {
    Matcher bucket = BUCKET.matcher(template);
    StringBuilder text = new StringBuilder();
    while (bucket.find()) {
      bucket.appendReplacement(text, Matcher.quoteReplacement(bucket(bucket.group(1))));
    }
    bucket.appendTail(text);
    return text.toString()
        .replace("{readings}", readings)
        .replace("{tags}", tags)
        .replace("{first}", timelake ? "first_value" : "first")
        .replace("{last}", timelake ? "last_value" : "last");
  }

  private String bucket(String width) {
    if (timelake) {
      return "time_bucket(INTERVAL '" + width + "', time)";
    }
    long micros = widthMicros(width);
    return String.format(
        Locale.ROOT,
        "make_timestamptz(epoch_us(time) - ((epoch_us(time) - %d) %% %d + %d) %% %d)",
        TIME_BUCKET_ORIGIN_MICROS,
        micros,
        micros,
        micros);
  }

  static long widthMicros(String width) {
    Matcher matcher = WIDTH.matcher(width.trim());
    if (!matcher.matches()) {
      throw TimelakeException.validation(
          "Invalid bucket width '%s' (expected N minute(s), hour(s) or day(s))", width);
    }
    long unit =
        switch (matcher.group(2)) {
          case "minute" -> 60_000_000L;
          case "hour" -> 3_600_000_000L;
          default -> 86_400_000_000L;
        };
    return Long.parseLong(matcher.group(1)) * unit;
  }
}
