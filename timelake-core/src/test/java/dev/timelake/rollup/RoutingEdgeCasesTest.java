package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spellings that look routable but mean something else, or that the rewrite cannot carry: each
 * query runs with routing on and off and must give the same column names, types and rows (or the
 * same failure), routed exactly where expected.
 */
class RoutingEdgeCasesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void createTablesAndRollups() {
    lake = Lake.open(warehouse);
    Table raw = lake.createTable(TestTables.tagReadings("e.r").build());
    var append = raw.newAppend();
    for (int i = 0; i < 3 * 24 * 12; i++) {
      append.row("t" + (i % 3), T0.plusSeconds(i * 300L + i % 3), (double) (i * 7 % 101));
    }
    append.commit();
    Table tags =
        lake.createTable(
            TableDefinition.builder("e.tags")
                .column("tag", ColumnType.VARCHAR)
                .column("line", ColumnType.VARCHAR)
                .build());
    tags.newAppend().row("t0", "L0").row("t1", "L1").row("t2", "L0").commit();
    session = lake.newSession();
    for (String width : List.of("1 hour", "1 day")) {
      sql(
          "CREATE MATERIALIZED ROLLUP e.r_"
              + width.replace(" ", "")
              + " AS SELECT tag, time_bucket(INTERVAL '"
              + width
              + "', time) AS bucket, avg(value), max(value), count(*) FROM e.r GROUP BY tag,"
              + " bucket WITH (refresh_interval = 'off')");
    }
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT TAG, count(*) FROM e.r GROUP BY TAG",
        "SELECT count(*) AS 'n', max(value) AS \"Peak\" FROM e.r",
        "SELECT r.tag, time_bucket(INTERVAL '1 day', r.time) AS d, max(r.value) FROM e.r AS r"
            + " GROUP BY r.tag, d",
        "SELECT tag, max(value) FROM e.r WHERE time >= today() - INTERVAL 20000 DAY GROUP BY tag",
        "SELECT tag, date_trunc('hr', time) AS h, max(value) FROM e.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, max(value) AS m FROM e.r GROUP BY tag ORDER BY m DESC, tag LIMIT 2"
      })
  void routesAndAnswersAsUnrouted(String query) {
    assertThat(compare(query)).as(query).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT time_bucket(INTERVAL '1 hour', time) AS time, avg(value) FROM e.r GROUP BY time",
        "SELECT r.tag, max(r.value) FROM e.r r WHERE EXISTS (SELECT 1 FROM e.tags g WHERE g.tag ="
            + " r.tag AND g.line = 'L0') GROUP BY r.tag",
        "SELECT tag, date_bin(INTERVAL '7 days', time, INTERVAL '1 hour') AS w, max(value) FROM"
            + " e.r GROUP BY ALL",
        "SELECT tag, max(value) FROM e.r AS x(tag, time, value, ingest) GROUP BY tag",
        "SELECT tag, max(value) AS value FROM e.r GROUP BY tag ORDER BY value, tag",
        "SELECT tag, [count(*)] AS counts FROM e.r GROUP BY tag",
        "SELECT tag, max(value) FROM e.r WHERE time > TIMESTAMPTZ '2026-01-01 00:00:00+00' +"
            + " INTERVAL (random() * 10) SECOND GROUP BY tag",
        "SELECT tag, median(value) FROM e.r GROUP BY tag"
      })
  void leavesUnroutableSpellingsToTheRawTable(String query) {
    assertThat(compare(query)).as(query).isFalse();
  }

  @Test
  void aSessionOutsideUtcBucketsDateTruncInItsZoneAndRoutesWhatNests() {
    sql("SET TimeZone = 'Asia/Kolkata'");
    try {
      // Local days of Kolkata start on UTC half hours, where no rollup's buckets do.
      assertThat(
              compare("SELECT tag, date_trunc('day', time) AS d, max(value) FROM e.r GROUP BY ALL"))
          .isFalse();
      // date_bin from an instant bins instants alike in every zone.
      assertThat(
              compare(
                  "SELECT tag, date_bin(INTERVAL '1 day', time, TIMESTAMPTZ '2026-01-01"
                      + " 00:00:00+00') AS d, max(value) FROM e.r GROUP BY ALL"))
          .isTrue();
      // time_bucket without a zone buckets in UTC in any session; a range has no grid at all.
      assertThat(
              compare(
                  "SELECT tag, time_bucket(INTERVAL '1 day', time) AS d, max(value), count(*) FROM"
                      + " e.r GROUP BY ALL ORDER BY ALL"))
          .isTrue();
      assertThat(
              compare(
                  "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM e.r"
                      + " WHERE time >= '2026-01-02 05:30:00' AND time < '2026-01-03' GROUP BY"
                      + " ALL ORDER BY ALL"))
          .isTrue();
      assertThat(
              compare(
                  "SELECT tag, max(value), count(*) FROM e.r WHERE time >= '2026-01-02' GROUP BY"
                      + " tag ORDER BY tag"))
          .isTrue();
    } finally {
      sql("SET TimeZone = 'UTC'");
    }
    assertThat(
            compare("SELECT tag, date_trunc('day', time) AS d, max(value) FROM e.r GROUP BY ALL"))
        .isTrue();
  }

  /** Runs {@code query} routed and not; both must agree; returns whether it was routed. */
  private static boolean compare(String query) {
    return RoutedAndUnrouted.compare(session, query);
  }

  private static void sql(String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }
}
