package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calendar buckets, gap filling and filtered rollups from the command line: a rollup of Berlin's
 * local days made with {@code rollup create}, local months and gap-filled local days answered from
 * it with {@code sql --explain} saying so, and a filtered rollup's implication named.
 */
class CalendarCommandsTest {
  @TempDir static Path directory;
  private static CliRunner cli;

  /** Hourly readings of two devices over Berlin's spring clock change and its month's end. */
  @BeforeAll
  static void createTableAndRollups() throws IOException {
    cli = new CliRunner(directory.resolve("warehouse"));
    assertOk(cli.createReadings("iot.r"));
    StringBuilder csv = new StringBuilder("device,time,value\n");
    Instant start = Instant.parse("2026-03-27T00:00:00Z");
    for (int hour = 0; hour < 24 * 8; hour++) {
      for (String device : new String[] {"a", "b"}) {
        // Device b is silent on Berlin's 30 March: a local day for the gap fill to fill.
        boolean silent = device.equals("b") && hour >= 3 * 24 - 2 && hour < 4 * 24 - 2;
        if (!silent) {
          csv.append(device)
              .append(',')
              .append(start.plusSeconds(3600L * hour))
              .append(',')
              .append(hour % 7)
              .append('\n');
        }
      }
    }
    Path file = directory.resolve("r.csv");
    Files.writeString(file, csv);
    assertOk(cli.run("import", "iot.r", file.toString()));
    assertOk(
        cli.run(
            "rollup",
            "create",
            "iot.r_berlin_day",
            "--as",
            "SELECT device, time_bucket(INTERVAL '1 day', time, 'Europe/Berlin') AS day,"
                + " avg(value), count(*) FROM iot.r GROUP BY device, day",
            "--with",
            "refresh_interval=off"));
    assertOk(
        cli.run(
            "rollup",
            "create",
            "iot.r_a_1h",
            "--as",
            "SELECT device, time_bucket(INTERVAL '1 hour', time) AS hour, max(value)"
                + " FROM iot.r WHERE device = 'a' GROUP BY device, hour",
            "--with",
            "refresh_interval=off"));
  }

  private static Run assertOk(Run run) {
    assertThat(run.status()).as(run.err()).isZero();
    return run;
  }

  @Test
  void rollupListShowsTheLocalDaysAndTheFilter() {
    assertThat(assertOk(cli.run("rollup", "ls", "iot.r")).out())
        .contains("iot.r_berlin_day: 1 day in Europe/Berlin of iot.r by (device)")
        .contains(
            "iot.r_a_1h: 1h of iot.r by (device) where (device = 'a'); max_value = max(value)");
  }

  @Test
  void localMonthsAreAnsweredFromTheLocalDays() {
    Run months =
        assertOk(
            cli.run(
                "sql",
                "--explain",
                "--format",
                "csv",
                "-c",
                "SET TimeZone = 'Europe/Berlin'; SELECT device, time_bucket(INTERVAL '1 month',"
                    + " time, 'Europe/Berlin') AS m, count(*) AS n FROM iot.r GROUP BY ALL"
                    + " ORDER BY ALL"));
    assertThat(months.err()).contains("routed to rollup iot.r_berlin_day");
    // March in Berlin ends at 22:00 UTC on the 31st: 4 days and 22 hours of hourly readings.
    assertThat(months.out())
        .isEqualTo(
            "SET\n"
                + "device,m,n\n"
                + "a,2026-03-01T00:00:00+01:00,118\n"
                + "a,2026-04-01T00:00:00+02:00,74\n"
                + "b,2026-03-01T00:00:00+01:00,94\n"
                + "b,2026-04-01T00:00:00+02:00,74\n");
  }

  @Test
  void gapFilledLocalDaysCarryTheLastValueForward() {
    String query =
        "SELECT device, time_bucket_gapfill(INTERVAL '1 day', time, 'Europe/Berlin') AS day,"
            + " locf(avg(value)) AS v, count(*) AS n FROM iot.r WHERE time >= TIMESTAMPTZ"
            + " '2026-03-28 23:00:00+00' AND time < TIMESTAMPTZ '2026-03-31 22:00:00+00'"
            + " AND device = 'b' GROUP BY device, day ORDER BY day";
    Run filled = assertOk(cli.run("sql", "--explain", "--format", "csv", "-c", query));
    assertThat(filled.err()).contains("routed to rollup iot.r_berlin_day");
    // Local days of 23, 24 and 24 hours; device b is silent on the second.
    assertThat(filled.out())
        .isEqualTo(
            "device,day,v,n\n"
                + "b,2026-03-28T23:00:00Z,3.217391304347826,23\n"
                + "b,2026-03-29T22:00:00Z,3.217391304347826,\n"
                + "b,2026-03-30T22:00:00Z,3.125,24\n");
  }

  @Test
  void aFilteredRollupAnswersOnlyQueriesThatImplyItsWhere() {
    String hourly =
        "SELECT time_bucket(INTERVAL '1 hour', time) AS h, max(value) FROM iot.r WHERE %s"
            + " GROUP BY h";
    Run implied = assertOk(cli.run("sql", "--explain", "-c", hourly.formatted("device = 'a'")));
    assertThat(implied.err()).contains("routed to rollup iot.r_a_1h");
    Run notImplied =
        assertOk(cli.run("sql", "--explain", "-c", hourly.formatted("device IN ('a', 'b')")));
    assertThat(notImplied.err())
        .doesNotContain("routed to rollup iot.r_a_1h")
        .contains("device = 'a'");
  }
}
