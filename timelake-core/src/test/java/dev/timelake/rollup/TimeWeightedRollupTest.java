package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rollup storing time-weighted states answers time_weighted_mean, integral and the state itself
 * at its own width, coarser widths and over ranges without a bucket, as the raw table does (up to
 * the rounding of sums); never across series, whose states overlap.
 */
class TimeWeightedRollupTest {
  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

  @TempDir static Path warehouse;
  private static TestRandom random;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void loadReadingsAndCreateTheRollup() {
    random = TestRandom.create();
    lake = Lake.open(warehouse);
    Table raw = lake.createTable(TestTables.tagReadings("w.r").build());
    for (int batch = 0; batch < 2; batch++) {
      List<Object[]> readings = new ArrayList<>();
      for (String tag : List.of("a", "b")) {
        for (long second = 0; second < 3 * 3600; second++) {
          if (batch == 0 ? random.nextInt(40) != 0 : random.nextInt(50) == 0) {
            Double value = random.nextInt(40) == 0 ? null : (double) random.between(-50, 50) / 4;
            readings.add(new Object[] {tag, T0.plusSeconds(second), value});
          }
        }
      }
      // One Arrow batch: the same rows, without staging each through its own insert.
      TestTables.commitReadings(raw.refresh().newAppend(), "tag", readings);
    }
    session = lake.newSession();
    try (QueryResult ignored =
        session.sql(
            "CREATE MATERIALIZED ROLLUP w.r_1m AS SELECT tag, time_bucket(INTERVAL '1 minute',"
                + " time) AS bucket, time_weighted_state(time, value) AS tw FROM w.r GROUP BY tag,"
                + " bucket WITH (refresh_interval = 'off')")) {
      // created
    }
    raw.refresh().newAppend().row("a", T0.plusSeconds(3000).plusMillis(500), 70.0).commit();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, time_bucket(INTERVAL '1 minute', time) AS b, time_weighted_mean(time, value)"
            + " AS twa FROM w.r GROUP BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS b, time_weighted_mean(time, value)"
            + " AS twa, time_weighted_mean(time, value, 'forward_fill') AS ff, integral(time,"
            + " value, '1 minute') AS area FROM w.r GROUP BY ALL",
        "SELECT tag, time_bucket(INTERVAL '30 minutes', time) AS b, time_weighted_state(time,"
            + " value) AS state FROM w.r GROUP BY ALL"
      })
  void answersFromStoredStatesAsTheRawTableDoes(String query) {
    RoutedAnswer routed = answer(query, true);
    RoutedAnswer raw = answer(query, false);
    SameAnswers.assertSameRowsInAnyOrder(routed.rows(), raw.rows(), query + " " + random);
    assertThat(routed.routed()).as(String.join("\n", routed.explanation())).isTrue();
  }

  @Test
  void answersARangeWithoutABucketPieceByPiece() {
    String query =
        "SELECT tag, time_weighted_mean(time, value) AS twa, integral(time, value) AS area FROM"
            + " w.r WHERE time >= TIMESTAMPTZ '2026-06-01 00:10:30+00' AND time < TIMESTAMPTZ"
            + " '2026-06-01 02:49:10+00' GROUP BY tag";
    RoutedAnswer routed = answer(query, true);
    assertThat(routed.routed()).as(String.join("\n", routed.explanation())).isTrue();
    SameAnswers.assertSameRowsInAnyOrder(routed.rows(), answer(query, false).rows(), query);
  }

  @Test
  void leavesAFieldOfAStateToTheRawTable() {
    String query =
        "SELECT tag, time_bucket(INTERVAL '30 minutes', time) AS b, time_weighted_state(time,"
            + " value).linear_sum AS area FROM w.r GROUP BY ALL";
    RoutedAnswer routed = answer(query, true);
    assertThat(routed.routed()).isFalse();
    SameAnswers.assertSameRowsInAnyOrder(routed.rows(), answer(query, false).rows(), query);
  }

  @Test
  void neverMergesStatesOfSeveralSeries() {
    String query =
        "SELECT time_bucket(INTERVAL '1 hour', time) AS b, time_weighted_mean(time, value) FROM w.r"
            + " GROUP BY ALL";
    RoutedAnswer routed = answer(query, true);
    assertThat(routed.routed()).isFalse();
    SameAnswers.assertSameRowsInAnyOrder(routed.rows(), answer(query, false).rows(), query);
  }

  private static RoutedAnswer answer(String query, boolean routing) {
    return RoutedAnswer.of(session, query, routing);
  }
}
