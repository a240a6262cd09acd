package dev.timelake.bench;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The benchmark's queries as a QuestDB user writes them ({@code SAMPLE BY}, {@code LATEST ON},
 * window functions), on table {@code readings} (its designated timestamp {@code time}, {@code tag}
 * a symbol) and {@code tags}; and, where a materialized view answers the same question, the query
 * on the view ({@code readings_1h}, {@code readings_1d}), which QuestDB users pick by hand since
 * QuestDB does not route. Each returns the columns of the Timelake query in its order, so the
 * answers compare. Placeholders as in {@link BenchmarkQueries}, filled with QuestDB's literals.
 *
 * <p>Left out: {@code m4-hourly-fn} (no M4 aggregate) and {@code p99-daily-fn} (QuestDB's {@code
 * approx_percentile} is another approximation, so answers would not compare).
 */
final class QuestdbQueries {
  private static final DateTimeFormatter LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private static final String RANGE = "time >= $T0 AND time < $T1";
  private static final String STATS =
      "avg(value) AS avg_value, min(value) AS min_value, max(value) AS max_value, count() AS n";
  private static final String DAY_OF_US = "cast(time AS long) / 86400000000L";

  /** The materialized views, created after the load; their columns feed {@link #VIEWS}. */
  static final List<String> VIEW_DEFINITIONS =
      List.of(
          "CREATE MATERIALIZED VIEW readings_1d AS (SELECT time, tag, "
              + STATS
              + ", sum(value) AS total, count(value) AS n_value FROM readings SAMPLE BY 1d)"
              + " PARTITION BY MONTH",
          "CREATE MATERIALIZED VIEW readings_1h AS (SELECT time, tag, "
              + STATS
              + ", sum(value) AS total, count(value) AS n_value, first(value) AS first_v,"
              + " last(value) AS last_v FROM readings SAMPLE BY 1h) PARTITION BY DAY");

  private static final String TWA_DAILY =
      "SELECT tag, cast(day * 86400000000L AS timestamp) AS day,"
          + " sum((value + next_value) / 2 * (next_us - us)) / nullif(sum(next_us - us), 0) AS twa"
          + " FROM (SELECT tag, day, us, value,"
          + " lead(us) OVER (PARTITION BY tag, day ORDER BY us) AS next_us,"
          + " lead(value) OVER (PARTITION BY tag, day ORDER BY us) AS next_value"
          + " FROM (SELECT tag, value, cast(time AS long) AS us, "
          + DAY_OF_US
          + " AS day FROM readings WHERE "
          + RANGE
          + ")) WHERE next_us IS NOT NULL GROUP BY tag, day";

  // QuestDB takes no window function inside an expression: the difference is taken one level up.
  private static final String GAPS =
      "SELECT tag, sum(CASE WHEN gap_us > 300000000 THEN 1 ELSE 0 END) AS gaps,"
          + " sum(CASE WHEN gap_us > 300000000 THEN gap_us ELSE 0 END) / 1e6 AS gap_seconds"
          + " FROM (SELECT tag, us - previous_us AS gap_us FROM (SELECT tag, cast(time AS long)"
          + " AS us, lag(cast(time AS long)) OVER (PARTITION BY tag ORDER BY time) AS previous_us"
          + " FROM readings WHERE "
          + RANGE
          + ")) GROUP BY tag";

  private static final Map<String, String> RAW =
      Map.ofEntries(
          Map.entry(
              "daily-stats",
              "SELECT tag, time AS day, "
                  + STATS
                  + " FROM readings WHERE "
                  + RANGE
                  + " SAMPLE BY 1d"),
          Map.entry(
              "month-berlin",
              "SELECT tag, time AS month, "
                  + STATS
                  + " FROM readings WHERE "
                  + RANGE
                  + " SAMPLE BY 1M ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin'"),
          Map.entry(
              "localday-ny",
              "SELECT tag, time AS day, "
                  + STATS
                  + " FROM readings WHERE "
                  + RANGE
                  + " SAMPLE BY 1d ALIGN TO CALENDAR TIME ZONE 'America/New_York'"),
          Map.entry(
              "six-hourly-totals",
              "SELECT time AS period, sum(value) AS total, count() AS n FROM readings WHERE "
                  + RANGE
                  + " SAMPLE BY 6h"),
          Map.entry(
              "hourly-20-tags",
              "SELECT tag, time AS hour, avg(value) AS avg_value, min(value) AS min_value,"
                  + " max(value) AS max_value FROM readings WHERE "
                  + RANGE
                  + " AND tag IN ($TAGS20) SAMPLE BY 1h"),
          Map.entry(
              "line-daily",
              "SELECT tag, time AS day, "
                  + STATS
                  + " FROM readings WHERE tag IN (SELECT tag FROM tags WHERE line = '"
                  + BenchmarkQueries.LINE
                  + "') SAMPLE BY 1d"),
          Map.entry(
              "range-stats",
              "SELECT tag, " + STATS + " FROM readings WHERE " + RANGE + " GROUP BY tag"),
          Map.entry(
              "day-stats",
              "SELECT tag, "
                  + STATS
                  + " FROM readings WHERE time >= $DAY AND time < $DAY_END GROUP BY tag"),
          Map.entry("twa-daily", TWA_DAILY),
          Map.entry("gaps", GAPS),
          Map.entry(
              "m4-hourly",
              "SELECT tag, time AS hour, first(value) AS first_v, min(value) AS min_v,"
                  + " max(value) AS max_v, last(value) AS last_v FROM readings WHERE "
                  + RANGE
                  + " SAMPLE BY 1h"),
          // QuestDB takes no FROM … TO in a keyed SAMPLE BY: its grid runs from the first bucket
          // with rows to the last, the day's whole range where every tag reports at its edges.
          Map.entry(
              "gapfill-20-tags",
              "SELECT tag, time AS minute, avg(value) AS avg_value FROM readings WHERE time >= $DAY"
                  + " AND time < $DAY_END AND tag IN ($TAGS20) SAMPLE BY 1m FILL(PREV)"),
          Map.entry(
              "hourly-avg-20-tags",
              "SELECT tag, time AS hour, avg(value) AS avg_value FROM readings WHERE "
                  + RANGE
                  + " AND tag IN ($TAGS20) SAMPLE BY 1h"),
          Map.entry(
              "gapfill-hourly-20-tags",
              "SELECT tag, time AS hour, avg(value) AS avg_value FROM readings WHERE "
                  + RANGE
                  + " AND tag IN ($TAGS20) SAMPLE BY 1h FILL(PREV)"),
          Map.entry(
              "latest",
              "SELECT tag, time, value, quality FROM readings LATEST ON time PARTITION BY tag"),
          Map.entry(
              "point-range",
              "SELECT time, value, quality FROM readings WHERE tag = '$TAG'"
                  + " AND time >= $HOUR AND time < $HOUR_END ORDER BY time"),
          Map.entry(
              "newest-100",
              "SELECT time, value, quality FROM readings WHERE tag = '$TAG'"
                  + " ORDER BY time DESC LIMIT 100"),
          Map.entry(
              "above-limit",
              "SELECT tag, cast(day * 86400000000L AS timestamp) AS day,"
                  + " sum(CASE WHEN value > high AND next_us - us <= 300000000 THEN next_us - us"
                  + " ELSE 0 END) / 1e6 AS seconds_above"
                  + " FROM (SELECT r.tag AS tag, cast(r.time AS long) / 86400000000L AS day,"
                  + " cast(r.time AS long) AS us, r.value AS value, t.high AS high,"
                  + " lead(cast(r.time AS long)) OVER (PARTITION BY r.tag ORDER BY r.time)"
                  + " AS next_us FROM readings r JOIN tags t ON r.tag = t.tag"
                  + " WHERE r.time >= $T0 AND r.time < $T1) GROUP BY tag, day"),
          Map.entry("twa-daily-fn", TWA_DAILY),
          Map.entry(
              "avg-daily",
              "SELECT tag, time AS day, avg(value) AS avg_value FROM readings WHERE "
                  + RANGE
                  + " SAMPLE BY 1d"),
          Map.entry("gaps-fn", GAPS),
          Map.entry(
              "twa-range-fn",
              "SELECT tag, sum((value + next_value) / 2 * (next_us - us))"
                  + " / nullif(sum(next_us - us), 0) AS twa"
                  + " FROM (SELECT tag, us, value,"
                  + " lead(us) OVER (PARTITION BY tag ORDER BY us) AS next_us,"
                  + " lead(value) OVER (PARTITION BY tag ORDER BY us) AS next_value"
                  + " FROM (SELECT tag, value, cast(time AS long) AS us FROM readings WHERE "
                  + RANGE
                  + ")) WHERE next_us IS NOT NULL GROUP BY tag"));

  /** Averages over a range from a view: the sums and counts of non-null values add up. */
  private static final String VIEW_RANGE_STATS =
      "sum(total) / sum(n_value) AS avg_value, min(min_value) AS min_value,"
          + " max(max_value) AS max_value, sum(n) AS n";

  private static final Map<String, String> VIEWS =
      Map.ofEntries(
          Map.entry(
              "daily-stats",
              "SELECT tag, time AS day, avg_value, min_value, max_value, n FROM readings_1d WHERE "
                  + RANGE),
          Map.entry(
              "six-hourly-totals",
              "SELECT time AS period, sum(total) AS total, sum(n) AS n FROM readings_1h WHERE "
                  + RANGE
                  + " SAMPLE BY 6h"),
          Map.entry(
              "hourly-20-tags",
              "SELECT tag, time AS hour, avg_value, min_value, max_value FROM readings_1h WHERE "
                  + RANGE
                  + " AND tag IN ($TAGS20)"),
          Map.entry(
              "line-daily",
              "SELECT tag, time AS day, avg_value, min_value, max_value, n FROM readings_1d"
                  + " WHERE tag IN (SELECT tag FROM tags WHERE line = '"
                  + BenchmarkQueries.LINE
                  + "')"),
          Map.entry(
              "range-stats",
              "SELECT tag, "
                  + VIEW_RANGE_STATS
                  + " FROM readings_1d WHERE "
                  + RANGE
                  + " GROUP BY tag"),
          Map.entry(
              "day-stats",
              "SELECT tag, "
                  + VIEW_RANGE_STATS
                  + " FROM readings_1h WHERE time >= $DAY AND time < $DAY_END GROUP BY tag"),
          Map.entry(
              "m4-hourly",
              "SELECT tag, time AS hour, first_v, min_value AS min_v, max_value AS max_v, last_v"
                  + " FROM readings_1h WHERE "
                  + RANGE),
          Map.entry(
              "avg-daily", "SELECT tag, time AS day, avg_value FROM readings_1d WHERE " + RANGE));

  private QuestdbQueries() {}

  /** The QuestDB query on the raw table named {@code name}, if QuestDB can ask it. */
  static Optional<String> raw(String name) {
    return Optional.ofNullable(RAW.get(name));
  }

  /** The QuestDB query on a materialized view named {@code name}, if a view answers it. */
  static Optional<String> view(String name) {
    return Optional.ofNullable(VIEWS.get(name));
  }

  /** A timestamp literal QuestDB reads as that instant, {@code '2026-01-16T00:00:00.000000Z'}. */
  static String literal(Instant instant) {
    return "'" + LITERAL.format(instant) + "'";
  }
}
