package dev.timelake.fill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TestTables;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * time_bucket_gapfill with locf and interpolate on a small table whose answers are worked out by
 * hand: every bucket of the range once per series, the empty ones NULL or filled.
 */
class GapFillTest {
  private static final String RANGE =
      " WHERE time >= TIMESTAMPTZ '2026-01-01 00:00:00+00' AND time < TIMESTAMPTZ '2026-01-01"
          + " 00:05:00+00'";

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void createTable() {
    lake = Lake.open(warehouse);
    var table = lake.createTable(TestTables.tagReadings("g.r").build());
    List<Object[]> readings = new ArrayList<>();
    readings.add(new Object[] {"a", at("00:00:10"), 1.0});
    readings.add(new Object[] {"a", at("00:01:10"), 2.0});
    readings.add(new Object[] {"a", at("00:01:20"), 4.0});
    readings.add(new Object[] {"a", at("00:04:00"), 9.0});
    readings.add(new Object[] {"b", at("00:02:30"), 10.0});
    readings.add(new Object[] {"c", at("01:00:00"), 5.0});
    TestTables.commitReadings(table.newAppend(), "tag", readings);
    session = lake.newSession();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @Test
  void everyBucketOfTheRangeAppearsOncePerSeriesWithRowsInIt() {
    assertThat(
            rows(
                "SELECT tag, time_bucket_gapfill(INTERVAL '1 minute', time) AS minute, avg(value) AS v,"
                    + " locf(avg(value)) AS l, interpolate(avg(value)) AS i FROM g.r"
                    + RANGE
                    + " GROUP BY tag, minute"))
        .containsExactly(
            "a 00:00 1.0 1.0 1.0",
            "a 00:01 3.0 3.0 3.0",
            "a 00:02 null 3.0 5.0",
            "a 00:03 null 3.0 7.0",
            "a 00:04 9.0 9.0 9.0",
            "b 00:00 null null null",
            "b 00:01 null null null",
            "b 00:02 10.0 10.0 10.0",
            "b 00:03 null 10.0 null",
            "b 00:04 null 10.0 null");
  }

  @Test
  void seriesTheWhereClauseNamesAppearWithoutRows() {
    assertThat(
            rows(
                "SELECT time_bucket_gapfill(INTERVAL '2 minutes', time) AS m, tag, count(*) FROM"
                    + " g.r"
                    + RANGE
                    + " AND tag IN ('b', 'zz') GROUP BY 1, 2 ORDER BY tag, m"))
        .containsExactly(
            "00:00 b null",
            "00:02 b 1",
            "00:04 b null",
            "00:00 zz null",
            "00:02 zz null",
            "00:04 zz null");
  }

  @Test
  void startAndFinishArgumentsDrawTheGridAndRowsOutsideItStay() {
    assertThat(
            rows(
                "SELECT time_bucket_gapfill(INTERVAL '1 minute', time, TIMESTAMPTZ '2026-01-01"
                    + " 00:03:00+00', TIMESTAMPTZ '2026-01-01 00:06:00+00') AS m, max(value) FROM g.r"
                    + " WHERE tag = 'a' GROUP BY m"))
        .containsExactly("00:00 1.0", "00:01 4.0", "00:03 null", "00:04 9.0", "00:05 null");
  }

  @Test
  void anInclusiveFinishDrawsTheBucketHoldingIt() {
    assertThat(
            rows(
                "SELECT time_bucket_gapfill(INTERVAL '1 minute', time) AS m, max(value) FROM g.r"
                    + " WHERE tag = 'b' AND time BETWEEN TIMESTAMPTZ '2026-01-01 00:01:00+00' AND"
                    + " TIMESTAMPTZ '2026-01-01 00:03:00+00' GROUP BY m"))
        .containsExactly("00:01 null", "00:02 10.0", "00:03 null");
  }

  @Test
  void itemsAreNamedAsPostgresNamesThem() {
    try (QueryResult result =
        session.sql(
            "SELECT tag, time_bucket_gapfill(INTERVAL '1 minute', time), avg(value),"
                + " locf(max(value)), interpolate(min(value)) AS low FROM g.r"
                + RANGE
                + " GROUP BY 1, 2")) {
      assertThat(result.columnNames())
          .containsExactly("tag", "time_bucket_gapfill", "avg", "locf", "low");
    }
  }

  @Test
  void calendarBucketsInAZoneFollowItsMonths() {
    assertThat(
            rows(
                "SELECT time_bucket_gapfill(INTERVAL '1 month', time, 'Europe/Berlin') AS m,"
                    + " count(*) FROM g.r WHERE time >= TIMESTAMPTZ '2025-11-15 00:00:00+00' AND"
                    + " time < TIMESTAMPTZ '2026-02-01 00:00:00+00' GROUP BY m"))
        // Local months start at 23:00 UTC in winter; the readings of 00:00 UTC are in January's,
        // and February's starts before the finish.
        .containsExactly(
            "2025-10-31T23:00Z null",
            "2025-11-30T23:00Z null",
            "2025-12-31T23:00Z 6",
            "2026-01-31T23:00Z null");
  }

  @Test
  void aGapFilledQueryNeedsARange() {
    assertThatThrownBy(
            () ->
                rows(
                    "SELECT time_bucket_gapfill(INTERVAL '1 minute', time) AS m, avg(value) FROM"
                        + " g.r WHERE time >= TIMESTAMPTZ '2026-01-01 00:00:00+00' GROUP BY m"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("needs a start and a finish")
        .hasMessageContaining("time < …");
  }

  @Test
  void fillsOutsideAGapFilledQueryAreRefused() {
    assertThatThrownBy(
            () ->
                rows(
                    "SELECT tag, time_bucket(INTERVAL '1 minute', time) AS m, locf(avg(value))"
                        + " FROM g.r GROUP BY ALL"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("locf() fills the empty buckets of a gap-filled query");
  }

  @Test
  void aGapFilledQueryMustBeGroupedByItsBucket() {
    assertThatThrownBy(
            () ->
                rows(
                    "SELECT tag, time_bucket_gapfill(INTERVAL '1 minute', time) AS m FROM g.r"
                        + RANGE
                        + " GROUP BY tag"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("add time_bucket_gapfill(INTERVAL '1 minute', time) to GROUP BY");
    assertThatThrownBy(
            () ->
                rows(
                    "SELECT time_bucket_gapfill(INTERVAL '1 minute', time) AS m, * FROM g.r"
                        + RANGE
                        + " GROUP BY m"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("lists its columns");
    assertThatThrownBy(
            () ->
                rows(
                    "SELECT time_bucket_gapfill(INTERVAL '1 minute', time) AS m, locf(avg(value)) *"
                        + " 2 FROM g.r"
                        + RANGE
                        + " GROUP BY m"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("fill a whole item of the SELECT list");
  }

  @Test
  void sampleByWithoutFillGroupsByTheBucketOfTheTimeColumn() {
    try (QueryResult result =
        session.sql(
            "SELECT time, tag, avg(value) AS v FROM g.r WHERE tag = 'a' SAMPLE BY 1m ORDER BY"
                + " time")) {
      assertThat(result.columnNames()).containsExactly("time", "tag", "v");
    }
    assertThat(
            rows("SELECT time, tag, avg(value) FROM g.r WHERE tag = 'a' SAMPLE BY 1m ORDER BY 1"))
        .containsExactly("00:00 a 1.0", "00:01 a 3.0", "00:04 a 9.0");
  }

  @Test
  void sampleByFillPrevRunsFromTheFirstBucketWithRowsToTheLast() {
    assertThat(rows("SELECT time, avg(value) FROM g.r WHERE tag = 'a' SAMPLE BY 1m FILL(PREV)"))
        .containsExactly("00:00 1.0", "00:01 3.0", "00:02 3.0", "00:03 3.0", "00:04 9.0");
  }

  @Test
  void sampleByFromToFillsTheRangeLinearlyOrWithConstantsAndLeavesOutRowsOutsideIt() {
    // The reading at 00:00 is before FROM: QuestDB's FROM … TO … bounds what flows out.
    assertThat(
            rows(
                "SELECT time, tag, avg(value), max(value) FROM g.r WHERE tag = 'a' SAMPLE BY 1m"
                    + " FROM '2026-01-01T00:01:00Z' TO '2026-01-01T00:06:00Z' FILL(LINEAR, 0)"))
        .containsExactly(
            "00:01 a 3.0 4.0",
            "00:02 a 5.0 0.0",
            "00:03 a 7.0 0.0",
            "00:04 a 9.0 9.0",
            "00:05 a null 0.0");
  }

  @Test
  void sampleByAlignedToTheCalendarOfAZone() {
    assertThat(
            rows(
                "SELECT time, count(*) FROM g.r SAMPLE BY 1d ALIGN TO CALENDAR TIME ZONE"
                    + " 'Asia/Tokyo' WITH OFFSET '00:00' ORDER BY time"))
        .containsExactly("2025-12-31T15:00Z 6");
  }

  @Test
  void sampleByClausesItCannotCarryAreRefusedWithTheReason() {
    for (String[] refused :
        new String[][] {
          {"SELECT time, avg(value) FROM g.r SAMPLE BY 1x", "takes a width such as 15m"},
          {
            "SELECT time, avg(value) FROM g.r SAMPLE BY 1h ALIGN TO FIRST OBSERVATION",
            "ALIGN TO FIRST OBSERVATION is not supported"
          },
          {
            "SELECT time, avg(value) FROM g.r SAMPLE BY 1h WITH OFFSET '00:15'",
            "is followed by WITH"
          },
          {
            "SELECT time, avg(value), max(value), min(value) FROM g.r SAMPLE BY 1h FILL(PREV, 0)",
            "FILL has 2 modes for 3 aggregates"
          },
          {"SELECT avg(value) FROM g.r SAMPLE BY 1h", "needs the time column time in the SELECT"},
          {
            "SELECT time, avg(value) FROM g.r SAMPLE BY 1h FROM (SELECT min(time) FROM g.r) TO"
                + " '2026-01-02' FILL(PREV)",
            "SAMPLE BY's FROM and TO must be constants"
          },
          {
            "SELECT time, avg(value) FROM g.r SAMPLE BY 1h FILL(value)",
            "SAMPLE BY's FILL values must be constants"
          },
          {
            "SELECT time, avg(value) FROM g.r WHERE tag = 'a' SAMPLE BY 1m FILL('none')",
            "SAMPLE BY … FILL('none'): avg(value) is a number, and 'none' is text; fill it with a"
                + " number, NULL, PREV or LINEAR"
          }
        }) {
      assertThatThrownBy(() -> rows(refused[0]))
          .as(refused[0])
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining(refused[1]);
    }
  }

  @Test
  void aTimeColumnWithoutZoneIsFilledOnItsOwnClock() {
    var table =
        lake.createTable(
            dev.timelake.TableDefinition.builder("g.local")
                .column("tag", dev.timelake.ColumnType.VARCHAR)
                .column("time", dev.timelake.ColumnType.TIMESTAMP)
                .column("value", dev.timelake.ColumnType.DOUBLE)
                .timeColumn("time")
                .seriesKey("tag")
                .build());
    table
        .newAppend()
        .row("a", java.time.LocalDateTime.parse("2026-01-01T00:00:30"), 1.0)
        .row("a", java.time.LocalDateTime.parse("2026-01-01T00:03:30"), 4.0)
        .commit();
    assertThat(
            rows(
                "SELECT time_bucket_gapfill(INTERVAL '1 minute', time) AS m, interpolate(max(value))"
                    + " AS v FROM g.local WHERE time >= TIMESTAMP '2026-01-01 00:00:00' AND time <"
                    + " TIMESTAMP '2026-01-01 00:05:00' GROUP BY m"))
        .containsExactly(
            "2026-01-01 00:00:00.0 1.0",
            "2026-01-01 00:01:00.0 2.0",
            "2026-01-01 00:02:00.0 3.0",
            "2026-01-01 00:03:00.0 4.0",
            "2026-01-01 00:04:00.0 null");
  }

  /** The rows, times of 2026-01-01 as HH:mm, others as they print, one string per row. */
  private static List<String> rows(String sql) {
    List<String> printed = new ArrayList<>();
    try (QueryResult result = session.sql(sql)) {
      for (List<Object> row : result.rows()) {
        List<String> cells = new ArrayList<>();
        for (Object cell : row) {
          cells.add(print(cell));
        }
        printed.add(String.join(" ", cells));
      }
    }
    return printed;
  }

  private static String print(Object cell) {
    if (cell instanceof OffsetDateTime time) {
      OffsetDateTime utc = time.withOffsetSameInstant(ZoneOffset.UTC);
      return utc.toLocalDate().toString().equals("2026-01-01")
          ? utc.toLocalTime().toString().substring(0, 5)
          : utc.toString();
    }
    return String.valueOf(cell);
  }

  private static Instant at(String time) {
    return Instant.parse("2026-01-01T" + time + "Z");
  }
}
