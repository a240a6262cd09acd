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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rollup storing m4 points answers m4 at its own width (as stored), coarser widths, fewer keys
 * and ranges without a bucket (the stored lists merged by {@code m4(points)}), exactly as the raw
 * table does, on random readings with late rows, copies and NULL values.
 */
class M4RollupTest {
  private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");

  @TempDir static Path warehouse;
  private static TestRandom random;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void loadReadingsAndCreateTheRollup() {
    random = TestRandom.create();
    lake = Lake.open(warehouse);
    Table raw = lake.createTable(TestTables.tagReadings("m.r").build());
    for (int batch = 0; batch < 2; batch++) {
      List<Object[]> readings = new ArrayList<>();
      for (String tag : List.of("a", "b", "c")) {
        for (long second = random.between(0, 10);
            second < 6 * 3600;
            second += random.between(1, 9)) {
          if (batch == 0 || random.nextInt(10) == 0) {
            Double value = random.nextInt(30) == 0 ? null : (double) random.between(-40, 40);
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
            "CREATE MATERIALIZED ROLLUP m.r_1m AS SELECT tag, time_bucket(INTERVAL '1 minute',"
                + " time) AS bucket, m4(time, value) AS points, max(value) FROM m.r GROUP BY tag,"
                + " bucket WITH (refresh_interval = 'off')")) {
      // created
    }
    // Late readings after the refresh: their buckets must come from the raw table.
    raw.refresh().newAppend().row("a", T0.plusSeconds(1800), 99.0).commit();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, time_bucket(INTERVAL '1 minute', time) AS b, m4(time, value) AS p FROM m.r"
            + " GROUP BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS b, m4(time, value) AS p FROM m.r"
            + " GROUP BY ALL",
        "SELECT time_bucket(INTERVAL '15 minutes', time) AS b, m4(time, value) AS p FROM m.r"
            + " GROUP BY ALL",
        "SELECT tag, m4(time, value) AS p FROM m.r WHERE time >= TIMESTAMPTZ '2026-05-01"
            + " 00:10:30+00' AND time < TIMESTAMPTZ '2026-05-01 04:59:10+00' GROUP BY tag",
        "SELECT m4(time, value) AS p, max(value) AS top FROM m.r"
      })
  void answersM4FromStoredPointsAsTheRawTableDoes(String query) {
    RoutedAnswer routed = RoutedAnswer.of(session, query, true);
    SameAnswers.assertSameRowsInAnyOrder(
        routed.rows(), RoutedAnswer.of(session, query, false).rows(), query + " " + random);
    assertThat(routed.routed()).as(String.join("\n", routed.explanation())).isTrue();
  }
}
