package dev.timelake.bench;

import dev.timelake.TimelakeException;
import dev.timelake.iiot.Scale;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The benchmark's query set ({@code BENCHMARK.md}), written once each. {@code $T0}/{@code $T1} span
 * the data, {@code $DAY} is the day in the middle. Differences of times use {@code epoch_us}
 * (subtracting {@code TIMESTAMPTZ} values is about 100 times slower in DuckDB), and the bucketed
 * queries are written in the shape rollup routing answers: keys, one bucket, aggregates, {@code
 * GROUP BY} keys and bucket, a time range and key filters.
 */
final class BenchmarkQueries {
  /** Line whose tags {@code line-daily} reads. */
  static final String LINE = "L0002";

  private static final DateTimeFormatter LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final String RANGE = "time >= $T0 AND time < $T1";

  private static final Map<String, String[]> TEMPLATES = new LinkedHashMap<>();

  static {
    add(
        "daily-stats",
        "per tag and day: avg, min, max, count",
        "SELECT tag, {bucket:1 day} AS day, avg(value) AS avg_value, min(value) AS min_value,"
            + " max(value) AS max_value, count(*) AS n FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag, day");
    add(
        "six-hourly-totals",
        "per 6 h over all tags: sum, count",
        "SELECT {bucket:6 hours} AS period, sum(value) AS total, count(*) AS n FROM {readings}"
            + " WHERE "
            + RANGE
            + " GROUP BY period");
    add(
        "hourly-20-tags",
        "per hour for 20 named tags: avg, min, max",
        "SELECT tag, {bucket:1 hour} AS hour, avg(value) AS avg_value, min(value) AS min_value,"
            + " max(value) AS max_value FROM {readings} WHERE "
            + RANGE
            + " AND tag IN ($TAGS20) GROUP BY tag, hour");
    add(
        "line-daily",
        "daily statistics for the tags of line " + LINE,
        "SELECT tag, {bucket:1 day} AS day, avg(value) AS avg_value, min(value) AS min_value,"
            + " max(value) AS max_value, count(*) AS n FROM {readings}"
            + " WHERE tag IN (SELECT tag FROM {tags} WHERE line = '"
            + LINE
            + "') GROUP BY tag, day");
    add(
        "range-stats",
        "per tag over the whole range, no bucket: avg, min, max, count",
        "SELECT tag, avg(value) AS avg_value, min(value) AS min_value, max(value) AS max_value,"
            + " count(*) AS n FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag");
    add(
        "day-stats",
        "per tag over $DAY, no bucket: avg, min, max, count",
        "SELECT tag, avg(value) AS avg_value, min(value) AS min_value, max(value) AS max_value,"
            + " count(*) AS n FROM {readings} WHERE time >= $DAY AND time < $DAY_END GROUP BY tag");
    add(
        "twa-daily",
        "per tag and day: linear time-weighted mean",
        "SELECT tag, make_timestamptz(day * 86400000000) AS day,"
            + " sum((value + next_value) / 2 * (next_us - us)) / nullif(sum(next_us - us), 0)"
            + " AS twa FROM (SELECT tag, day, us, value,"
            + " lead(us) OVER (PARTITION BY tag, day ORDER BY us) AS next_us,"
            + " lead(value) OVER (PARTITION BY tag, day ORDER BY us) AS next_value"
            + " FROM (SELECT tag, value, epoch_us(time) AS us, epoch_us(time) // 86400000000 AS day"
            + " FROM {readings} WHERE "
            + RANGE
            + ")) WHERE next_us IS NOT NULL GROUP BY tag, day");
    add(
        "gaps",
        "per tag: number and total seconds of gaps longer than 300 s",
        "SELECT tag, sum(CASE WHEN gap_us > 300000000 THEN 1 ELSE 0 END) AS gaps,"
            + " sum(CASE WHEN gap_us > 300000000 THEN gap_us ELSE 0 END) / 1e6 AS gap_seconds"
            + " FROM (SELECT tag, epoch_us(time) - lag(epoch_us(time))"
            + " OVER (PARTITION BY tag ORDER BY time) AS gap_us FROM {readings} WHERE "
            + RANGE
            + ") GROUP BY tag");
    add(
        "m4-hourly",
        "per tag and hour: first, min, max, last",
        "SELECT tag, {bucket:1 hour} AS hour, {first}(value ORDER BY time) AS first_v,"
            + " min(value) AS min_v, max(value) AS max_v, {last}(value ORDER BY time) AS last_v"
            + " FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag, hour");
    add(
        "latest",
        "the newest reading of every tag",
        "SELECT tag, max(time) AS time, arg_max(value, time) AS value,"
            + " arg_max(quality, time) AS quality FROM {readings} GROUP BY tag");
    add(
        "point-range",
        "one tag, one hour of raw readings",
        "SELECT time, value, quality FROM {readings} WHERE tag = '$TAG'"
            + " AND time >= $HOUR AND time < $HOUR_END ORDER BY time");
    add(
        "newest-100",
        "one tag, the newest 100 readings",
        "SELECT time, value, quality FROM {readings} WHERE tag = '$TAG'"
            + " ORDER BY time DESC LIMIT 100");
    add(
        "gapfill-20-tags",
        "per minute of $DAY for 20 tags, every minute once, empty ones carrying the last avg",
        "SELECT tag, time_bucket_gapfill(INTERVAL '1 minute', time) AS minute,"
            + " locf(avg(value)) AS avg_value FROM {readings} WHERE time >= $DAY AND time <"
            + " $DAY_END AND tag IN ($TAGS20) GROUP BY tag, minute",
        // Plain DuckDB has no gap filling: the same grid, join and carry in its SQL.
        "WITH agg AS (SELECT tag, {bucket:1 minute} AS minute, avg(value) AS v FROM {readings}"
            + " WHERE time >= $DAY AND time < $DAY_END AND tag IN ($TAGS20) GROUP BY ALL),"
            + " grid AS (SELECT unnest(range($DAY, $DAY_END, INTERVAL '1 minute')) AS minute),"
            + " joined AS (SELECT s.tag, g.minute, a.v, count(a.minute) OVER (PARTITION BY s.tag"
            + " ORDER BY g.minute ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS run FROM"
            + " (SELECT DISTINCT tag FROM agg) s CROSS JOIN grid g LEFT JOIN agg a ON a.tag ="
            + " s.tag AND a.minute = g.minute) SELECT tag, minute, first_value(v) OVER"
            + " (PARTITION BY tag, run ORDER BY minute) AS avg_value FROM joined");
    // Calendar buckets in a time zone (issue 30): local months of Berlin, local days of New York,
    // each 23 or 25 hours long where the clocks change; rollups of UTC hours answer both.
    add(
        "month-berlin",
        "per tag and local month of Europe/Berlin: avg, min, max, count",
        "SELECT tag, time_bucket(INTERVAL '1 month', time, 'Europe/Berlin') AS month,"
            + " avg(value) AS avg_value, min(value) AS min_value, max(value) AS max_value,"
            + " count(*) AS n FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag, month");
    add(
        "localday-ny",
        "per tag and local day of America/New_York: avg, min, max, count",
        "SELECT tag, time_bucket(INTERVAL '1 day', time, 'America/New_York') AS day,"
            + " avg(value) AS avg_value, min(value) AS min_value, max(value) AS max_value,"
            + " count(*) AS n FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag, day");
    // Gap filling over the whole range (issue 30): the same hourly averages of 20 tags unfilled
    // and with every hour present, the last average carried into empty ones.
    add(
        "hourly-avg-20-tags",
        "per hour for 20 named tags over the range: avg",
        "SELECT tag, {bucket:1 hour} AS hour, avg(value) AS avg_value FROM {readings} WHERE "
            + RANGE
            + " AND tag IN ($TAGS20) GROUP BY tag, hour");
    add(
        "gapfill-hourly-20-tags",
        "per hour of the range for 20 tags, every hour once, empty ones carrying the last avg",
        "SELECT tag, time_bucket_gapfill(INTERVAL '1 hour', time) AS hour,"
            + " locf(avg(value)) AS avg_value FROM {readings} WHERE "
            + RANGE
            + " AND tag IN ($TAGS20) GROUP BY tag, hour",
        "WITH agg AS (SELECT tag, {bucket:1 hour} AS hour, avg(value) AS v FROM {readings}"
            + " WHERE "
            + RANGE
            + " AND tag IN ($TAGS20) GROUP BY ALL),"
            + " grid AS (SELECT unnest(range($T0, $T1, INTERVAL '1 hour')) AS hour),"
            + " joined AS (SELECT s.tag, g.hour, a.v, count(a.hour) OVER (PARTITION BY s.tag"
            + " ORDER BY g.hour ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS run FROM"
            + " (SELECT DISTINCT tag FROM agg) s CROSS JOIN grid g LEFT JOIN agg a ON a.tag ="
            + " s.tag AND a.hour = g.hour) SELECT tag, hour, first_value(v) OVER"
            + " (PARTITION BY tag, run ORDER BY hour) AS avg_value FROM joined");
    add(
        "above-limit",
        "per tag and day: seconds above the tag's high limit",
        "SELECT tag, make_timestamptz(day * 86400000000) AS day,"
            + " sum(CASE WHEN value > high AND next_us - us <= 300000000 THEN next_us - us"
            + " ELSE 0 END) / 1e6 AS seconds_above"
            + " FROM (SELECT r.tag AS tag, epoch_us(r.time) // 86400000000 AS day,"
            + " epoch_us(r.time) AS us, r.value AS value, t.high AS high,"
            + " lead(epoch_us(r.time)) OVER (PARTITION BY r.tag ORDER BY r.time) AS next_us"
            + " FROM {readings} r JOIN {tags} t ON r.tag = t.tag"
            + " WHERE r.time >= $T0 AND r.time < $T1) GROUP BY tag, day");
    // The signal aggregates (docs/SPEC.md §7): the same questions as twa-daily, gaps and
    // m4-hourly, asked with Timelake's functions; avg-daily reads the rows twa-daily-fn reads.
    add(
        "twa-daily-fn",
        "per tag and day: time_weighted_mean(time, value)",
        "SELECT tag, {bucket:1 day} AS day, time_weighted_mean(time, value) AS twa FROM"
            + " {readings} WHERE "
            + RANGE
            + " GROUP BY tag, day");
    add(
        "avg-daily",
        "per tag and day: avg(value), the rows of twa-daily-fn",
        "SELECT tag, {bucket:1 day} AS day, avg(value) AS avg_value FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag, day");
    add(
        "gaps-fn",
        "per tag: gap_count and gap_seconds over 300 s",
        "SELECT tag, gap_count(time, 300) AS gaps, gap_seconds(time, 300) AS gap_seconds FROM"
            + " {readings} WHERE "
            + RANGE
            + " GROUP BY tag");
    add(
        "twa-range-fn",
        "per tag over the whole range, no bucket: time_weighted_mean(time, value)",
        "SELECT tag, time_weighted_mean(time, value) AS twa FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag");
    add(
        "p99-daily-fn",
        "per tag and day: approx_percentile(value, 0.99)",
        "SELECT tag, {bucket:1 day} AS day, approx_percentile(value, 0.99) AS p99 FROM"
            + " {readings} WHERE "
            + RANGE
            + " GROUP BY tag, day");
    add(
        "m4-hourly-fn",
        "per tag and hour: m4(time, value)",
        "SELECT tag, {bucket:1 hour} AS hour, m4(time, value) AS points FROM {readings} WHERE "
            + RANGE
            + " GROUP BY tag, hour");
  }

  private BenchmarkQueries() {}

  private static void add(String name, String description, String template) {
    TEMPLATES.put(name, new String[] {description, template, null});
  }

  /** A query Timelake and plain DuckDB spell differently (DuckDB lacks the function). */
  private static void add(String name, String description, String template, String duckdb) {
    TEMPLATES.put(name, new String[] {description, template, duckdb});
  }

  /** Every query name, in report order. */
  static List<String> names() {
    return List.copyOf(TEMPLATES.keySet());
  }

  /**
   * The queries named {@code selected} (every query when empty), in report order, over the data of
   * {@code scale} between {@code t0} and {@code t1}.
   *
   * @throws TimelakeException if a name is unknown
   */
  static List<BenchmarkQuery> of(Scale scale, Instant t0, Instant t1, Set<String> selected) {
    for (String name : selected) {
      if (!TEMPLATES.containsKey(name)) {
        throw TimelakeException.validation(
            "Unknown query '%s' (queries: %s)", name, String.join(", ", names()));
      }
    }
    long days = Math.max(1, Duration.between(t0, t1).toDays());
    Instant day = t0.plus(Duration.ofDays(days / 2));
    Instant dayEnd = day.plus(Duration.ofDays(1)).isAfter(t1) ? t1 : day.plus(Duration.ofDays(1));
    Instant hour =
        day.plus(Duration.ofHours(10)).isBefore(t1) ? day.plus(Duration.ofHours(10)) : day;
    Map<String, String> values =
        values(scale, t0, t1, day, dayEnd, hour, BenchmarkQueries::literal);
    Map<String, String> questdbValues =
        values(scale, t0, t1, day, dayEnd, hour, QuestdbQueries::literal);
    List<BenchmarkQuery> queries = new ArrayList<>();
    TEMPLATES.forEach(
        (name, parts) -> {
          if (selected.isEmpty() || selected.contains(name)) {
            queries.add(
                new BenchmarkQuery(
                    name,
                    fill(parts[0], values),
                    fill(parts[1], values),
                    Optional.ofNullable(parts[2]).map(sql -> fill(sql, values)),
                    QuestdbQueries.raw(name).map(sql -> fill(sql, questdbValues)),
                    QuestdbQueries.view(name).map(sql -> fill(sql, questdbValues))));
          }
        });
    return queries;
  }

  /** The placeholders' values, with time literals written by {@code literal}. */
  private static Map<String, String> values(
      Scale scale,
      Instant t0,
      Instant t1,
      Instant day,
      Instant dayEnd,
      Instant hour,
      Function<Instant, String> literal) {
    // Longer names first: $DAY_END before $DAY, $HOUR_END before $HOUR.
    Map<String, String> values = new LinkedHashMap<>();
    values.put("$TAGS20", twentyTags(scale));
    values.put("$TAG", tagName(scale, 0));
    values.put("$T0", literal.apply(t0));
    values.put("$T1", literal.apply(t1));
    values.put("$DAY_END", literal.apply(dayEnd));
    values.put("$DAY", literal.apply(day));
    values.put("$HOUR_END", literal.apply(hour.plus(Duration.ofHours(1))));
    values.put("$HOUR", literal.apply(hour));
    return values;
  }

  private static String fill(String template, Map<String, String> values) {
    String text = template;
    for (Map.Entry<String, String> value : values.entrySet()) {
      text = text.replace(value.getKey(), value.getValue());
    }
    return text;
  }

  /** {@code TIMESTAMPTZ '2026-01-16 00:00:00+00'}. */
  static String literal(Instant instant) {
    return "TIMESTAMPTZ '" + LITERAL.format(instant) + "+00'";
  }

  /** Twenty tags spread evenly over the plant, quoted and comma-separated. */
  private static String twentyTags(Scale scale) {
    int count = Math.min(20, scale.tags());
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tags.add("'" + tagName(scale, i * scale.tags() / count) + "'");
    }
    return tags.stream().collect(Collectors.joining(", "));
  }

  /** The name of tag {@code index}, as the generator names it ({@code L03-M07-T2}). */
  static String tagName(Scale scale, int index) {
    int perLine = scale.tagsPerMachine() * scale.machinesPerLine();
    return String.format(
        Locale.ROOT,
        "L%02d-M%02d-T%d",
        index / perLine + 1,
        index / scale.tagsPerMachine() % scale.machinesPerLine() + 1,
        index % scale.tagsPerMachine() + 1);
  }
}
