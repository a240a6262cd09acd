package dev.timelake.signal;

import static dev.timelake.SameAnswers.assertSameRowsInAnyOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryFailedException;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The signal aggregates against oracles written as plain window SQL over the same deduplicated
 * rows, on random irregular series: gaps, NULL values, a one-reading series, a series of NULL
 * values only, ties in time across series, and copies (resent readings with new values) that dedup
 * removes. Then states split into random adjacent buckets and merged again must give the direct
 * answer.
 */
class SignalFunctionsTest {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static final String TABLE = "s.r";

  /**
   * The oracles read only rows with a value, so they have no group whose values are all NULL (which
   * the functions answer with NULL, tested on its own): the functions' queries drop those.
   */
  private static final String WITH_READINGS = " HAVING count(value) > 0";

  /** Grouping keys: per series and bucket, per series, one group, per bucket across series. */
  private static final List<String> GROUPINGS =
      List.of(
          "tag, time_bucket(INTERVAL '1 hour', time)",
          "tag, time_bucket(INTERVAL '1 day', time)",
          "tag",
          "",
          "time_bucket(INTERVAL '3 hours', time)");

  @TempDir static Path warehouse;
  private static TestRandom random;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void loadRandomSeriesWithCopies() {
    random = TestRandom.create();
    lake = Lake.open(warehouse);
    Table table = lake.createTable(TestTables.tagReadings(TABLE).build());
    table.newAppend().row("single", T0.plusSeconds(4000), 7.5).commit();
    table
        .newAppend()
        .row("nulls", T0.plusSeconds(10), null)
        .row("nulls", T0.plusSeconds(99), null)
        .commit();
    for (int batch = 0; batch < 3; batch++) {
      List<Object[]> readings = new ArrayList<>();
      for (String tag : List.of("a", "b", "c")) {
        long at = random.between(0, 600);
        while (at < 2 * 86_400) {
          // Mostly a few seconds apart, sometimes a gap of up to an hour; times on whole seconds
          // so that series meet in ties.
          at += random.nextInt(20) < 1 ? random.between(300, 3600) : random.between(1, 90);
          if (random.nextInt(3) == batch || random.nextInt(12) == 0) {
            Double value = random.nextInt(25) == 0 ? null : (double) random.between(-500, 500) / 4;
            readings.add(new Object[] {tag, T0.plusSeconds(at), value});
          }
        }
      }
      // One Arrow batch: the same rows, without staging each through its own insert.
      TestTables.commitReadings(table.refresh().newAppend(), "tag", readings);
    }
    session = lake.newSession();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @Test
  void theTableHoldsCopiesThatDedupRemoves() {
    session.set("read-dedup", "false");
    try {
      long stored = ((Number) rows("SELECT count(*) FROM s.r").get(0).get(0)).longValue();
      session.set("read-dedup", "true");
      long read = ((Number) rows("SELECT count(*) FROM s.r").get(0).get(0)).longValue();
      assertThat(stored).as(random.toString()).isGreaterThan(read);
    } finally {
      session.set("read-dedup", "true");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"linear", "forward_fill"})
  void timeWeightedMeanAndIntegralEqualTheWindowOracle(String method) {
    String weight =
        method.equals("linear")
            ? "(value + next_value) / 2 * (next_us - us)"
            : "value * (next_us - us)";
    for (String keys : GROUPINGS) {
      String actual =
          select(
              keys,
              "time_weighted_mean(time, value, '"
                  + method
                  + "') AS twa, integral(time, value, '"
                  + method
                  + "') AS area, integral(time, value, '"
                  + method
                  + "', '1 hour') AS area_hours",
              WITH_READINGS);
      String expected =
          "SELECT "
              + prefix(keys)
              + "CASE WHEN max(us) = min(us) THEN any_value(last_of_group)"
              + " ELSE sum(CASE WHEN next_us IS NOT NULL THEN "
              + weight
              + " END) / (max(us) - min(us)) END AS twa,"
              + " coalesce(sum(CASE WHEN next_us IS NOT NULL THEN "
              + weight
              + " END), 0) / 1e6 AS area,"
              + " coalesce(sum(CASE WHEN next_us IS NOT NULL THEN "
              + weight
              + " END), 0) / 1e6 / 3600 AS area_hours"
              + " FROM (SELECT "
              + keyColumns(keys)
              + "value, epoch_us(time) AS us,"
              + " lead(epoch_us(time)) OVER w AS next_us, lead(value) OVER w AS next_value,"
              + " last_value(value) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED"
              + " FOLLOWING) AS last_of_group"
              + " FROM s.r WHERE value IS NOT NULL"
              + window(keys, "time, value")
              + ") AS p"
              + groupBy(keys);
      assertSameRowsInAnyOrder(rows(actual), rows(expected), actual);
    }
  }

  @Test
  void gapsEqualTheWindowOracle() {
    for (String keys : GROUPINGS) {
      String actual =
          select(
              keys,
              "gap_count(time, 300) AS n, gap_seconds(time, INTERVAL '5 minutes') AS s,"
                  + " gap_count(time, '10 minutes') AS n10",
              "");
      String expected =
          "SELECT "
              + prefix(keys)
              + "count(*) FILTER (WHERE gap > 300e6) AS n,"
              + " coalesce(sum(gap) FILTER (WHERE gap > 300e6), 0) / 1e6 AS s,"
              + " count(*) FILTER (WHERE gap > 600e6) AS n10"
              + " FROM (SELECT "
              + keyColumns(keys)
              + "epoch_us(time) - lag(epoch_us(time)) OVER ("
              + partition(keys)
              + " ORDER BY time) AS gap FROM s.r) AS p"
              + groupBy(keys);
      assertSameRowsInAnyOrder(rows(actual), rows(expected), actual);
    }
  }

  @Test
  void m4EqualsTheWindowOracle() {
    for (String keys : GROUPINGS) {
      String actual = select(keys, "m4(time, value) AS points", WITH_READINGS);
      String rank = "row_number() OVER (" + partition(keys) + " ORDER BY ";
      String expected =
          "SELECT "
              + prefix(keys)
              + "list_sort(list_distinct(list({'time': time, 'value': value})"
              + " FILTER (WHERE first_rank = 1 OR low_rank = 1 OR high_rank = 1 OR last_rank = 1)))"
              + " AS points FROM (SELECT "
              + keyColumns(keys)
              + "time, value, "
              + rank
              + "time, value) AS first_rank, "
              + rank
              + "value, time) AS low_rank, "
              + rank
              + "value DESC, time) AS high_rank, "
              + rank
              + "time DESC, value DESC) AS last_rank FROM s.r WHERE value IS NOT NULL) AS p"
              + groupBy(keys);
      assertSameRowsInAnyOrder(rows(actual), rows(expected), actual);
    }
  }

  @Test
  void statesMergedFromRandomAdjacentBucketsEqualTheDirectAnswer() {
    for (int round = 0; round < 4; round++) {
      long minutes = List.of(2L, 7L, 15L, 60L, 180L, 1440L).get(random.nextInt(6));
      String bucket = "time_bucket(INTERVAL '" + minutes + " minutes', time)";
      String states =
          "(SELECT tag, "
              + bucket
              + " AS bucket, time_weighted_state(time, value) AS tw, gap_state(time, 120) AS g,"
              + " m4(time, value) AS points FROM s.r GROUP BY tag, bucket) AS states";
      String merged =
          "SELECT tag, time_weighted_mean(tw) AS twa, time_weighted_mean(tw, 'forward_fill') AS"
              + " ffill, integral(tw, INTERVAL 1 MINUTE) AS area, integral(tw, 'forward_fill',"
              + " '1 hour') AS ffill_area, gap_count(g) AS n, gap_seconds(g) AS s,"
              + " m4(points) AS points, time_weighted_state(tw).first_time AS first FROM "
              + states
              + " GROUP BY tag";
      String direct =
          "SELECT tag, time_weighted_mean(time, value) AS twa,"
              + " time_weighted_mean(time, value, 'forward_fill') AS ffill,"
              + " integral(time, value, INTERVAL 1 MINUTE) AS area,"
              + " integral(time, value, 'forward_fill', INTERVAL 1 HOUR) AS ffill_area,"
              + " gap_count(time, 120) AS n,"
              + " gap_seconds(time, 120) AS s, m4(time, value) AS points,"
              + " time_weighted_state(time, value).first_time AS first FROM s.r GROUP BY tag";
      assertSameRowsInAnyOrder(rows(merged), rows(direct), minutes + " minutes " + random);
    }
  }

  @Test
  void approximatePercentilesAreWithinTheirRelativeErrorOfTheNearestRank() {
    for (String keys : GROUPINGS) {
      double[] qs = {0, 0.01, 0.07, 0.5, 0.9, 1};
      for (int k = 0; k < qs.length; k++) {
        double q = qs[k];
        double error = k % 2 == 0 ? 0.01 : 0.001;
        {
          String actual =
              select(
                  keys, "approx_percentile(value, " + q + ", " + error + ") AS p", WITH_READINGS);
          String expected =
              "SELECT "
                  + prefix(keys)
                  + "any_value(value) FILTER (WHERE rank = greatest(1, ceil("
                  + q
                  + " * n))) AS p FROM (SELECT "
                  + keyColumns(keys)
                  + "value, row_number() OVER ("
                  + partition(keys)
                  + " ORDER BY value) AS rank, count(*) OVER ("
                  + partition(keys)
                  + ") AS n FROM s.r WHERE value IS NOT NULL) AS p"
                  + groupBy(keys);
          List<List<Object>> got = sortedByKeys(rows(actual));
          List<List<Object>> want = sortedByKeys(rows(expected));
          assertThat(got).as(actual + " " + random).hasSameSizeAs(want);
          for (int i = 0; i < got.size(); i++) {
            List<Object> row = got.get(i);
            double value = ((Number) row.get(row.size() - 1)).doubleValue();
            List<Object> oracle = want.get(i);
            double exact = ((Number) oracle.get(oracle.size() - 1)).doubleValue();
            assertThat(row.subList(0, row.size() - 1)).isEqualTo(oracle.subList(0, row.size() - 1));
            assertThat(Math.abs(value - exact))
                .as(actual + "\n" + row + " exact " + exact + " " + random)
                .isLessThanOrEqualTo(error * Math.abs(exact) * (1 + 1e-9));
          }
        }
      }
    }
  }

  @Test
  void percentileSketchesMergeIntoTheSketchOfTheirReadings() {
    for (int round = 0; round < 2; round++) {
      long minutes = List.of(15L, 60L, 1440L).get(random.nextInt(3));
      String merged =
          "SELECT tag, percentile_sketch(s) AS sketch, approx_percentile(s, 0.5) AS median,"
              + " approx_percentile(s, 0.95) AS p95 FROM (SELECT tag, time_bucket(INTERVAL '"
              + minutes
              + " minutes', time) AS bucket, percentile_sketch(value) AS s FROM s.r GROUP BY ALL)"
              + " GROUP BY tag";
      String direct =
          "SELECT tag, percentile_sketch(value) AS sketch, approx_percentile(value, 0.5) AS"
              + " median, approx_percentile(value, 0.95) AS p95 FROM s.r GROUP BY tag";
      // Structs from DuckDB compare by identity: compare their text.
      assertThat(rows("SELECT DISTINCT typeof(sketch) FROM (" + merged + ")"))
          .isEqualTo(rows("SELECT DISTINCT typeof(sketch) FROM (" + direct + ")"));
      assertThat(sortedByKeys(rows(merged)).toString())
          .as(minutes + " minutes " + random)
          .isEqualTo(sortedByKeys(rows(direct)).toString());
    }
    // Across series too: buckets of one sketch are counts, whatever rows they came from.
    assertThat(
            rows(
                "SELECT approx_percentile(s, 0.3) FROM (SELECT tag, percentile_sketch(value) AS s"
                    + " FROM s.r GROUP BY tag)"))
        .isEqualTo(rows("SELECT approx_percentile(value, 0.3) FROM s.r"));
  }

  /** The rows sorted by every column but the last (the keys of these queries). */
  private static List<List<Object>> sortedByKeys(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(row -> String.valueOf(row.subList(0, row.size() - 1))));
    return copy;
  }

  @Test
  void m4PointsMergeAcrossSeries() {
    String merged =
        "SELECT bucket, m4(points) FROM (SELECT tag, time_bucket(INTERVAL '1 hour', time) AS"
            + " bucket, m4(time, value) AS points FROM s.r GROUP BY ALL) GROUP BY bucket"
            + " HAVING count(points) > 0";
    String direct =
        "SELECT time_bucket(INTERVAL '1 hour', time) AS bucket, m4(time, value) FROM s.r"
            + " GROUP BY bucket HAVING count(value) > 0";
    assertSameRowsInAnyOrder(rows(merged), rows(direct), random.toString());
  }

  @Test
  void aGroupWithoutReadingsIsNullAndOneReadingIsItsValue() {
    assertThat(
            rows(
                "SELECT tag, time_weighted_mean(time, value), integral(time, value), m4(time,"
                    + " value), gap_count(time, 60) FROM s.r WHERE tag IN ('single', 'nulls')"
                    + " GROUP BY tag ORDER BY tag"))
        .extracting(Object::toString)
        .containsExactly(
            "[nulls, null, null, null, 1]",
            "[single, 7.5, 0.0, [{time=2026-03-01T01:06:40Z, value=7.5}], 0]");
    assertThat(rows("SELECT time_weighted_mean(time, value) FROM s.r WHERE false"))
        .extracting(Object::toString)
        .containsExactly("[null]");
  }

  @Test
  void statesAreStructsOtherEnginesCanRead() {
    List<List<Object>> types =
        rows(
            "SELECT typeof(time_weighted_state(time, value)), typeof(gap_state(time, 60)),"
                + " typeof(m4(time, value)), typeof(percentile_sketch(value)) FROM s.r WHERE tag ="
                + " 'single'");
    assertThat(types.get(0))
        .extracting(Object::toString)
        .containsExactly(
            "STRUCT(first_time TIMESTAMP WITH TIME ZONE, first_value DOUBLE, last_time TIMESTAMP"
                + " WITH TIME ZONE, last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE,"
                + " duration_seconds DOUBLE)",
            "STRUCT(first_time TIMESTAMP WITH TIME ZONE, last_time TIMESTAMP WITH TIME ZONE,"
                + " threshold_seconds DOUBLE, gap_count BIGINT, gap_seconds DOUBLE)",
            "STRUCT(\"time\" TIMESTAMP WITH TIME ZONE, \"value\" DOUBLE)[]",
            "STRUCT(relative_error DOUBLE, count BIGINT, buckets STRUCT(\"key\" BIGINT, count"
                + " BIGINT)[])");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT time_weighted_mean(time, value, 'cubic') FROM s.r"
            + "|time_weighted_mean: the method must be 'linear' or 'forward_fill', not 'cubic'",
        "SELECT integral(time, value, 'fortnight') FROM s.r"
            + "|integral: the third argument must be a method ('linear' or 'forward_fill') or a"
            + " positive unit interval such as '1 hour', not 'fortnight'",
        "SELECT integral(time, value, 'linear', INTERVAL 0 SECOND) FROM s.r"
            + "|integral: the unit must be a positive interval",
        "SELECT gap_count(time, -5) FROM s.r"
            + "|gap_count: the threshold must be an interval or a finite number of seconds, zero or"
            + " more, not -5.0 s",
        "SELECT gap_count(time, CAST('NaN' AS DOUBLE)) FROM s.r"
            + "|gap_count: the threshold must be an interval or a finite number of seconds",
        "SELECT integral(time, value, 'linear', 'fortnight') FROM s.r"
            + "|integral: the unit must be a positive interval such as '1 hour', not 'fortnight'",
        "SELECT time_weighted_mean(s) FROM (SELECT time_weighted_state(time, value) AS s FROM s.r"
            + " WHERE tag = 'single' UNION ALL SELECT time_weighted_state(time, value) FROM s.r"
            + " WHERE tag = 'single')|time_weighted_state: the states overlap in time",
        "SELECT gap_seconds(time, 'soon') FROM s.r"
            + "|gap_seconds: the threshold must be an interval such as '5 minutes'",
        "SELECT time_weighted_mean(value, time) FROM s.r"
            + "|time_weighted_mean(t TIMESTAMP WITH TIME ZONE, v DOUBLE)",
        "SELECT m4(tag, value) FROM s.r|m4(t TIMESTAMP WITH TIME ZONE, v DOUBLE)",
        "SELECT time_weighted_mean(s) FROM (SELECT tag, time_weighted_state(time, value) AS s"
            + " FROM s.r GROUP BY tag)|time_weighted_state: the states overlap in time",
        "SELECT gap_count(g) FROM (SELECT gap_state(time, 60) AS g FROM s.r UNION ALL SELECT"
            + " gap_state(time, 30) FROM s.r)|gap_state: the states have different thresholds",
        "SELECT approx_percentile(value, 1.5) FROM s.r"
            + "|approx_percentile: q must be between 0 and 1, not 1.5",
        "SELECT approx_percentile(value, 0.5, 0) FROM s.r"
            + "|percentile_sketch: the relative error must be at least 0.000001 and below 1",
        "SELECT approx_percentile(s, 0.5) FROM (SELECT percentile_sketch(value) AS s FROM s.r"
            + " UNION ALL SELECT percentile_sketch(value, 0.05) FROM s.r)"
            + "|percentile_sketch: the sketches have different relative errors",
        "SELECT time_weighted_mean(time, value) OVER (PARTITION BY tag) FROM s.r"
            + "|are aggregates, not window functions: compute them with GROUP BY",
        "SELECT m4(time, value) OVER (ORDER BY time) FROM s.r"
            + "|Window function macro bodies must contain exactly one aggregate function"
      })
  void wrongArgumentsFailNamingTheFunctionAndWhatIsAllowed(String queryAndMessage) {
    String[] parts = queryAndMessage.split("\\|");
    assertThatThrownBy(() -> rows(parts[0]))
        .as(parts[0])
        .isInstanceOf(QueryFailedException.class)
        .hasMessageContaining(parts[1]);
  }

  @Test
  void theScriptDefinesEveryFunctionInPlainDuckdb() throws Exception {
    try (var connection = java.sql.DriverManager.getConnection("jdbc:duckdb:")) {
      SignalFunctions.install(connection);
      try (var statement = connection.createStatement();
          var result =
              statement.executeQuery(
                  "SELECT time_weighted_mean(t, v), gap_count(t, 1), m4(t, v)::VARCHAR FROM"
                      + " (VALUES (TIMESTAMPTZ '2026-01-01 00:00:00+00', 1.0),"
                      + " (TIMESTAMPTZ '2026-01-01 00:00:10+00', 3.0)) x(t, v)")) {
        assertThat(result.next()).isTrue();
        assertThat(result.getDouble(1)).isEqualTo(2.0);
        assertThat(result.getLong(2)).isEqualTo(1);
        assertThat(result.getString(3))
            .isEqualTo(
                "[{'time': '2026-01-01 00:00:00+00', 'value': 1.0},"
                    + " {'time': '2026-01-01 00:00:10+00', 'value': 3.0}]");
      }
    }
    assertThat(SignalFunctions.statements()).allMatch(s -> s.contains("CREATE OR REPLACE MACRO"));
  }

  /**
   * {@code SELECT keys…, aggregates FROM s.r GROUP BY keys… [having]}, keys named as the oracles
   * name them.
   */
  private static String select(String keys, String aggregates, String having) {
    return "SELECT " + keyColumns(keys) + aggregates + " FROM s.r" + groupBy(keys) + having;
  }

  private static String prefix(String keys) {
    if (keys.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    String[] parts = keys.split(", (?![^(]*\\))");
    for (int i = 0; i < parts.length; i++) {
      out.append(parts[i].equals("tag") ? "tag" : "k" + i).append(", ");
    }
    return out.toString();
  }

  /** The keys as named columns of the oracle's inner query. */
  private static String keyColumns(String keys) {
    if (keys.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    String[] parts = keys.split(", (?![^(]*\\))");
    for (int i = 0; i < parts.length; i++) {
      out.append(parts[i]).append(parts[i].equals("tag") ? "" : " AS k" + i).append(", ");
    }
    return out.toString();
  }

  private static String partition(String keys) {
    return keys.isEmpty() ? "" : "PARTITION BY " + keys;
  }

  private static String window(String keys, String order) {
    return " WINDOW w AS (" + partition(keys) + " ORDER BY " + order + ")";
  }

  private static String groupBy(String keys) {
    return keys.isEmpty() ? "" : " GROUP BY ALL";
  }

  private static List<List<Object>> rows(String sql) {
    try (var result = session.sql(sql)) {
      return result.rows();
    }
  }
}
