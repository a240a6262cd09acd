package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RollupVerification;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TestTables;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Local days, weeks, months, quarters and years of time zones with clock changes inside the data
 * (Europe/Berlin and America/New_York in March, Australia/Lord_Howe's half hour in April) answered
 * from rollups whose buckets nest inside them — a UTC quarter-hour rollup, Berlin's local days and
 * months — and refused where they do not; each query gives what it gives with routing off, after
 * late rows and copies landed in buckets the rollups hold.
 */
class CalendarRoutingTest {
  private static final Instant T0 = Instant.parse("2025-02-20T00:00:00Z");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void createTablesAndRollups() {
    lake = Lake.open(warehouse);
    Table raw = lake.createTable(TestTables.tagReadings("c.r").build());
    Random random = new Random(42);
    var append = raw.newAppend();
    for (int i = 0; i < 60 * 24 * 6; i++) {
      Double value = i % 97 == 0 ? null : (double) random.nextInt(1000);
      append.row("t" + (i % 3), T0.plusSeconds(i * 600L + random.nextInt(600)), value);
    }
    // Three days around Europe/Berlin's and America/New_York's autumn clock changes: Berlin's
    // 02:00-03:00 repeats on 2025-10-26 (00:00-02:00 UTC), New York's 01:00-02:00 on 2025-11-02.
    for (String day : List.of("2025-10-25", "2025-11-01")) {
      Instant from = Instant.parse(day + "T00:00:00Z");
      for (int i = 0; i < 3 * 24 * 6; i++) {
        append.row("t" + (i % 3), from.plusSeconds(i * 600L + i % 3), (double) (i % 50));
      }
    }
    append.commit();
    session = lake.newSession();
    sql(
        "CREATE MATERIALIZED ROLLUP c.r_15m AS SELECT tag, time_bucket(INTERVAL '15 minutes',"
            + " time) AS bucket, avg(value), max(value), min(value), sum(value), count(*),"
            + " count(value) FROM c.r GROUP BY tag, bucket WITH (refresh_interval = 'off')");
    sql(
        "CREATE MATERIALIZED ROLLUP c.r_berlin_day AS SELECT tag, time_bucket(INTERVAL '1 day',"
            + " time, 'Europe/Berlin') AS day, avg(value), max(value), min(value), sum(value),"
            + " count(*), count(value) FROM c.r GROUP BY tag, day WITH (refresh_interval = 'off')");
    sql(
        "CREATE MATERIALIZED ROLLUP c.r_berlin_month AS SELECT tag, time_bucket(INTERVAL '1"
            + " month', time, 'Europe/Berlin') AS month, avg(value), max(value), min(value),"
            + " sum(value), count(*), count(value) FROM c.r GROUP BY ALL WITH (refresh_interval ="
            + " 'off')");
    // Late rows and copies after the refresh, around Berlin's clock change (2025-03-30 01:00 UTC)
    // and New York's (2025-03-09 07:00 UTC): their buckets are read from raw data.
    var late = raw.newAppend();
    late.row("t0", Instant.parse("2025-03-30T00:59:59Z"), 5000.0);
    late.row("t1", Instant.parse("2025-03-30T01:00:00Z"), -5000.0);
    late.row("t2", Instant.parse("2025-03-09T06:30:00Z"), 7.5);
    // A late row and a copy in Berlin's doubled hour, one in New York's.
    late.row("t0", Instant.parse("2025-10-26T00:30:00Z"), 900.0);
    late.row("t1", Instant.parse("2025-10-26T01:30:00Z"), -900.0);
    late.row("t0", Instant.parse("2025-10-26T00:00:00Z"), 901.0);
    late.row("t2", Instant.parse("2025-11-02T05:30:00Z"), 902.0);
    late.commit();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, time_bucket(INTERVAL '1 month', time, 'Europe/Berlin') AS m, avg(value),"
            + " max(value), count(*) FROM c.r GROUP BY ALL ORDER BY ALL",
        "SELECT date_trunc('month', time AT TIME ZONE 'Europe/Berlin') AS m, sum(value),"
            + " count(value) FROM c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '3 months', time, 'Europe/Berlin') AS q, min(value) FROM"
            + " c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 day', time, 'America/New_York') AS d, avg(value),"
            + " count(*) FROM c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 day', time, 'Australia/Lord_Howe') AS d, max(value)"
            + " FROM c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, date_trunc('week', time AT TIME ZONE 'Asia/Kolkata') AS w, avg(value) FROM"
            + " c.r GROUP BY ALL ORDER BY ALL",
        "SELECT time_bucket(INTERVAL '1 month', time) AS m, avg(value) FROM c.r GROUP BY ALL ORDER"
            + " BY ALL",
        "SELECT tag, date_trunc('quarter', time) AS q, count(*) FROM c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 day', time, 'Europe/Berlin') AS d, avg(value) FROM c.r"
            + " WHERE time >= TIMESTAMPTZ '2025-03-10 00:00:00+01' AND time < TIMESTAMPTZ"
            + " '2025-04-05 13:00:00+00' GROUP BY ALL ORDER BY ALL",
        "SELECT tag, date_trunc('month', time AT TIME ZONE 'America/New_York') AS m, max(value)"
            + " FROM c.r WHERE tag IN ('t0', 't2') GROUP BY ALL ORDER BY ALL"
      })
  void answersLocalCalendarBucketsFromRollupsThatNestInThem(String query) {
    assertThat(compare(query)).as(query).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, date_trunc('hour', time AT TIME ZONE 'Europe/Berlin') AS h, max(value) FROM"
            + " c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '7 days', time, 'Pacific/Apia') AS w, max(value) FROM"
            + " c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 month', time, TIMESTAMPTZ '2025-01-15 00:00:00+00')"
            + " AS m, max(value) FROM c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 day', time, 'Mars/Olympus_Mons') AS d, max(value) FROM"
            + " c.r GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 day 2 hours', time, 'Europe/Berlin') AS d,"
            + " max(value) FROM c.r GROUP BY ALL ORDER BY ALL"
      })
  void leavesBucketsThatNoRollupNestsInToRawData(String query) {
    assertThat(compare(query)).as(query).isFalse();
  }

  @Test
  void fillsTheGapsOfLocalDaysFromRollups() {
    String query =
        "SELECT tag, time_bucket_gapfill(INTERVAL '1 day', time, 'Europe/Berlin') AS d,"
            + " locf(avg(value)) AS v, count(*) AS n FROM c.r WHERE time >= TIMESTAMPTZ"
            + " '2025-03-20 00:00:00+01' AND time < TIMESTAMPTZ '2025-11-05 00:00:00+01' GROUP BY"
            + " tag, d ORDER BY tag, d";
    assertThat(compare(query)).as(query).isTrue();
  }

  @Test
  void aSessionsTimeZoneBucketsDateTruncInItsLocalTime() {
    try {
      sql("SET TimeZone = 'Asia/Kolkata'");
      assertThat(
              compare(
                  "SELECT tag, date_trunc('day', time) AS d, avg(value) FROM c.r GROUP BY ALL"
                      + " ORDER BY ALL"))
          .isTrue();
      assertThat(
              compare(
                  "SELECT tag, date_trunc('hour', time) AS h, avg(value) FROM c.r GROUP BY ALL"
                      + " ORDER BY ALL"))
          .isFalse();
      sql("SET TimeZone = 'Europe/Berlin'");
      assertThat(
              compare(
                  "SELECT tag, date_trunc('month', time) AS m, max(value) FROM c.r GROUP BY ALL"
                      + " ORDER BY ALL"))
          .isTrue();
    } finally {
      sql("SET TimeZone = 'UTC'");
    }
  }

  @Test
  void explainsWhyALocalDayIsNotAnsweredByBucketsItDoesNotNestIn() {
    session.set("rollup-routing", "true");
    try (QueryResult result =
        session.sql(
            "SELECT tag, time_bucket(INTERVAL '1 day', time, 'Europe/Berlin') AS d,"
                + " max(value) FROM c.r GROUP BY ALL")) {
      String plan = String.join("\n", result.explanation());
      assertThat(plan).contains("c.r_berlin_day");
    }
    try (QueryResult result =
        session.sql(
            "SELECT tag, time_bucket(INTERVAL '1 day', time, 'Asia/Kolkata') AS d,"
                + " max(value) FROM c.r GROUP BY ALL")) {
      String plan = String.join("\n", result.explanation());
      assertThat(plan)
          .contains(
              "c.r_berlin_day: the query's 1 day in Asia/Kolkata buckets are not whole multiples"
                  + " of its 1 day in Europe/Berlin buckets in the query's range");
    }
  }

  @Test
  void calendarRollupsHoldWhatTheirDefinitionGivesOverRawData() {
    lake.refreshRollup(TableName.parse("c.r_berlin_month"));
    lake.refreshRollup(TableName.parse("c.r_berlin_day"));
    for (String name : List.of("c.r_berlin_day", "c.r_berlin_month")) {
      RollupVerification verification =
          lake.verifyRollup(TableName.parse(name), RollupVerification.Options.allBuckets());
      assertThat(verification.isExact()).as(name + ": " + verification).isTrue();
    }
    assertThat(lake.rollup(TableName.parse("c.r_berlin_month")).bucket())
        .isEqualTo("1 month in Europe/Berlin");
  }

  @Test
  void refusesCalendarBucketsItCannotKeepNamingWhatIsWrong() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE MATERIALIZED ROLLUP c.bad AS SELECT tag, time_bucket(INTERVAL '1 day',"
                        + " time, 'Europe/Atlantis') AS d, max(value) FROM c.r GROUP BY ALL"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("unknown time zone 'Europe/Atlantis'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE MATERIALIZED ROLLUP c.bad AS SELECT tag, time_bucket(INTERVAL '1 month',"
                        + " time, TIMESTAMPTZ '2025-01-15 00:00:00+00') AS d, max(value) FROM c.r"
                        + " GROUP BY ALL"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("months and years are bucketed from January 2000");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE MATERIALIZED ROLLUP c.bad AS SELECT tag, date_trunc('day', time AT TIME"
                        + " ZONE 'America/Havana') AS d, max(value) FROM c.r GROUP BY ALL"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("time_bucket(INTERVAL '1 day', time, 'America/Havana')");
    assertThat(lake.tables()).doesNotContain(TableName.parse("c.bad"));
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
