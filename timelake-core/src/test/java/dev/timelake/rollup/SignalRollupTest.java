package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RollupInfo;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rollup defined with gap_count, gap_seconds, approx_percentile and time_weighted_mean stores
 * their states (one gap state per threshold, a sketch, a time-weighted state) and answers them at
 * its own width, coarser widths, fewer keys (percentiles only) and over ranges without a bucket as
 * the raw table does, over irregular series with gaps, NULL values, copies and late rows.
 */
class SignalRollupTest {
  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
  private static final DateTimeFormatter SQL_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
  private static final List<String> TAGS = List.of("a", "b", "c");
  private static final int SECONDS = 3 * 3600;

  @TempDir static Path warehouse;
  private static TestRandom random;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void loadReadingsAndCreateTheRollup() {
    random = TestRandom.create();
    lake = Lake.open(warehouse);
    Table raw = lake.createTable(TestTables.tagReadings("s.r").build());
    List<Object[]> readings = new ArrayList<>();
    for (String tag : TAGS) {
      for (long second = 0; second < SECONDS; second++) {
        if (random.nextInt(400) == 0) {
          second += random.between(31, 240); // a gap longer than the 30 s threshold
        }
        if (random.nextInt(8) != 0) {
          Double value = random.nextInt(30) == 0 ? null : (double) random.between(-400, 400) / 8;
          readings.add(new Object[] {tag, T0.plusSeconds(second), value});
        }
      }
    }
    // One Arrow batch per append: the same rows, without staging each through its own insert.
    TestTables.commitReadings(raw.newAppend(), "tag", readings);
    TestTables.commitReadings(
        raw.refresh().newAppend(),
        "tag",
        readings.stream().filter(r -> random.nextInt(30) == 0).toList());
    session = lake.newSession();
    try (QueryResult ignored =
        session.sql(
            "CREATE MATERIALIZED ROLLUP s.r_1m AS SELECT tag, time_bucket(INTERVAL '1 minute',"
                + " time) AS bucket, gap_count(time, 30), gap_seconds(time, INTERVAL '30"
                + " seconds'), approx_percentile(value, 0.9) AS p90, time_weighted_mean(time,"
                + " value) AS twa, count(*) AS n FROM s.r GROUP BY tag, bucket WITH"
                + " (refresh_interval = 'off')")) {
      // created
    }
    // Late rows after the refresh: their buckets are read from the raw table.
    raw.refresh()
        .newAppend()
        .row("a", T0.plusSeconds(3000).plusMillis(500), 70.0)
        .row("b", T0.plusSeconds(5000).plusMillis(250), -3.5)
        .commit();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @Test
  void storesOneGapStatePerThresholdAndTheStatesOfMeansAndPercentiles() {
    RollupInfo rollup = lake.rollup(TableName.parse("s.r_1m"));
    assertThat(rollup.aggregates())
        .containsExactly(
            Map.entry("gap_count_30s", "gap_state(time, 30)"),
            Map.entry("p90", "approx_percentile(value, 0.9, 0.01)"),
            Map.entry("twa", "time_weighted_mean(value, linear)"),
            Map.entry("n", "count(*)"),
            Map.entry("percentile_sketch_value", "percentile_sketch(value, 0.01)"),
            Map.entry("time_weighted_state_value", "time_weighted_state(value)"));
    List<List<Object>> counts =
        TestTables.query(
            lake, "SELECT sum(gap_count_30s.gap_count), sum(n) FROM s.r_1m WHERE twa IS NOT NULL");
    assertThat(((Number) counts.get(0).get(1)).longValue()).isPositive();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, time_bucket(INTERVAL '1 minute', time) AS b, gap_count(time, 30) AS gaps,"
            + " approx_percentile(value, 0.9) AS p90, time_weighted_mean(time, value) AS twa FROM"
            + " s.r GROUP BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS b, gap_count(time, '30 seconds') AS"
            + " gaps, gap_seconds(time, 30.0) AS secs, integral(time, value, 'forward_fill') AS"
            + " area FROM s.r GROUP BY ALL",
        "SELECT time_bucket(INTERVAL '15 minutes', time) AS b, approx_percentile(value, 0.5) AS"
            + " p50, approx_percentile(value, 0.99) AS p99, approx_percentile(value, 0) AS p0,"
            + " approx_percentile(value, 1) AS p100 FROM s.r GROUP BY ALL",
        "SELECT tag, date_trunc('hour', time) AS b, approx_percentile(value, 0.25) AS q1,"
            + " count(*) AS n FROM s.r WHERE tag IN ('a', 'c') GROUP BY ALL"
      })
  void answersBucketedQueriesFromStoredStatesAsTheRawTableDoes(String query) {
    assertRoutedWithTheRawAnswer(query);
  }

  static Stream<String> rangesWithoutABucket() {
    TestRandom ranges = TestRandom.create();
    List<String> queries = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      long start = ranges.between(-600_000, (SECONDS - 600) * 1000L);
      long length = i == 0 ? 0 : ranges.between(1, 3 * 3600 * 1000L);
      String range =
          " WHERE time >= TIMESTAMPTZ '"
              + SQL_TIME.format(T0.plusMillis(start))
              + "+00' AND time < TIMESTAMPTZ '"
              + SQL_TIME.format(T0.plusMillis(start + length))
              + "+00'";
      queries.add(
          "SELECT tag, gap_count(time, 30) AS gaps, gap_seconds(time, 30) AS secs,"
              + " time_weighted_mean(time, value) AS twa, integral(time, value) AS area,"
              + " approx_percentile(value, 0.99) AS p99, count(value) AS n FROM s.r"
              + range
              + " GROUP BY tag");
      queries.add("SELECT approx_percentile(value, 0.5) AS p50, count(*) AS n FROM s.r" + range);
    }
    return queries.stream();
  }

  @ParameterizedTest
  @MethodSource("rangesWithoutABucket")
  void answersRangesWithoutABucketPieceByPieceAsTheRawTableDoes(String query) {
    RoutedAnswer routed = RoutedAnswer.of(session, query, true);
    RoutedAnswer raw = RoutedAnswer.of(session, query, false);
    SameAnswers.assertSameRowsInAnyOrder(routed.rows(), raw.rows(), query + " " + random);
  }

  @Test
  void answersAWholeRangeWithoutABucketFromTheRollup() {
    assertRoutedWithTheRawAnswer(
        "SELECT tag, gap_count(time, 30) AS gaps, gap_seconds(time, 30) AS secs,"
            + " time_weighted_mean(time, value) AS twa, approx_percentile(value, 0.75) AS p75 FROM"
            + " s.r WHERE time >= TIMESTAMPTZ '2026-06-01 00:00:30+00' AND time < TIMESTAMPTZ"
            + " '2026-06-01 02:59:59.5+00' GROUP BY tag");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // Another threshold, another relative error: the rollup stores neither.
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS b, gap_count(time, 60) FROM s.r"
            + " GROUP BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS b, approx_percentile(value, 0.9,"
            + " 0.001) FROM s.r GROUP BY ALL",
        // Gap states of several series overlap in time.
        "SELECT time_bucket(INTERVAL '1 hour', time) AS b, gap_count(time, 30) FROM s.r GROUP BY"
            + " ALL"
      })
  void leavesWhatTheStatesCannotAnswerToTheRawTable(String query) {
    RoutedAnswer routed = RoutedAnswer.of(session, query, true);
    assertThat(routed.routed()).as(String.join("\n", routed.explanation())).isFalse();
    SameAnswers.assertSameRowsInAnyOrder(
        routed.rows(), RoutedAnswer.of(session, query, false).rows(), query);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "gap_count(time, -5)|the threshold of gap_count(time, -5) must be a number of seconds",
        "gap_count(value, 30)|must be gap_count(time, threshold)",
        "gap_seconds(time, '1 month')|must be a number of seconds or a fixed interval",
        "approx_percentile(value, 1.5)|q of approx_percentile(value, 1.5) must be between 0 and 1",
        "approx_percentile(tag, 0.5)|approx_percentile of column 'tag' of type VARCHAR is not"
            + " supported",
        "percentile_sketch(value, 'x')|the relative error of percentile_sketch(value, 'x') must be"
            + " a number"
      })
  void rejectsMalformedSignalAggregatesInADefinition(String aggregateAndMessage) {
    String[] parts = aggregateAndMessage.split("\\|");
    assertThatThrownBy(
            () ->
                session
                    .sql(
                        "CREATE MATERIALIZED ROLLUP s.bad AS SELECT tag, time_bucket(INTERVAL '1"
                            + " hour', time) AS bucket, "
                            + parts[0]
                            + " FROM s.r GROUP BY ALL")
                    .close())
        .hasMessageContaining("Cannot create rollup s.bad")
        .hasMessageContaining(parts[1]);
    assertThat(lake.rollups(TableName.parse("s.r"))).hasSize(1);
  }

  private static void assertRoutedWithTheRawAnswer(String query) {
    RoutedAnswer routed = RoutedAnswer.of(session, query, true);
    RoutedAnswer raw = RoutedAnswer.of(session, query, false);
    assertThat(routed.routed()).as(String.join("\n", routed.explanation())).isTrue();
    SameAnswers.assertSameRowsInAnyOrder(routed.rows(), raw.rows(), query + " " + random);
  }
}
