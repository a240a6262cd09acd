package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ErrorCode;
import dev.timelake.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code rollup} commands: create, list, refresh (and its dry run), drop, and their errors. */
class RollupCommandsTest {
  private static final String HOURLY =
      "SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, max(value), count(*)"
          + " FROM iot.r GROUP BY device, bucket";

  @TempDir static Path directory;
  private static CliRunner cli;

  @BeforeAll
  static void createTable() throws IOException {
    cli = new CliRunner(directory.resolve("warehouse"));
    assertOk(cli.createReadings("iot.r"));
    Path csv = directory.resolve("r.csv");
    Files.writeString(
        csv,
        "device,time,value\na,2026-01-01T10:00:00Z,1.5\na,2026-01-01T10:30:00Z,2.5\n"
            + "b,2026-01-01T11:00:00Z,4.0\n");
    assertOk(cli.run("import", "iot.r", csv.toString()));
  }

  private static Run assertOk(Run run) {
    assertThat(run.status()).as(run.err()).isZero();
    return run;
  }

  @Test
  void createsListsRefreshesAndDropsARollup() throws IOException {
    Run created =
        assertOk(
            cli.run(
                "rollup", "create", "iot.r_1h", "--as", HOURLY, "--with", "refresh_interval=off"));
    assertThat(created.out()).startsWith("Created rollup iot.r_1h (2 rows, ");
    assertThat(assertOk(cli.run("rollup", "ls", "iot.r")).out())
        .startsWith(
            "iot.r_1h: 1h of iot.r by (device); max_value = max(value), count = count(*);"
                + " reflects raw snapshot ")
        .endsWith("; 2 rows in 1 files\n");
    Path late = directory.resolve("late.csv");
    Files.writeString(late, "device,time,value\nb,2026-01-01T11:20:00Z,9.0\n");
    assertOk(cli.run("import", "iot.r", late.toString()));
    assertThat(assertOk(cli.run("rollup", "refresh", "iot.r_1h", "--dry-run")).out())
        .contains("iot.r_1h window 1 of 1: {[2026-01-01T11:00:00Z, 2026-01-01T12:00:00Z)}");
    assertThat(assertOk(cli.run("rollup", "refresh", "iot.r_1h")).out())
        .startsWith("Refreshed rollup iot.r_1h: 1 rows in 1 windows, ");
    Run routed =
        assertOk(
            cli.run(
                "sql",
                "--explain",
                "-c",
                "SELECT time_bucket(INTERVAL '1 day', time) AS day, max(value) AS m FROM iot.r"
                    + " GROUP BY day"));
    assertThat(routed.out()).contains("9.0");
    assertThat(routed.err()).contains("routed to rollup iot.r_1h");
    assertThat(assertOk(cli.run("ls", "iot")).out()).contains("iot.r_1h  rollup of iot.r\n");
    Run refused = cli.run("drop", "iot.r");
    assertThat(refused.status()).isNotZero();
    assertThat(refused.err())
        .contains("Cannot drop iot.r: the rollups iot.r_1h are computed from it")
        .contains("timelake drop iot.r --cascade");
    assertThat(assertOk(cli.run("rollup", "drop", "iot.r_1h")).out())
        .isEqualTo("Dropped rollup iot.r_1h\n");
    assertThat(assertOk(cli.run("rollup", "ls")).out()).isEqualTo("No rollups.\n");
  }

  @Test
  void errorsNameWhatIsWrong() {
    Run bad =
        cli.run(
            "rollup",
            "create",
            "iot.bad",
            "--as",
            "SELECT device, time_bucket(INTERVAL '1 month', time, 'Europe/Atlantis') AS b,"
                + " max(value) FROM iot.r GROUP BY device, b");
    assertThat(bad.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(bad.err())
        .contains(
            "Cannot create rollup iot.bad: time_bucket(INTERVAL '1 month', time,"
                + " 'Europe/Atlantis'): unknown time zone 'Europe/Atlantis' (a name of the IANA"
                + " time zone database, such as 'Europe/Berlin')");
    Run option = cli.run("rollup", "create", "iot.bad", "--as", HOURLY, "--with", "retention");
    assertThat(option.err())
        .contains("Cannot create rollup iot.bad: --with retention is not KEY=VALUE");
    Run missing = cli.run("rollup", "refresh", "iot.nope");
    assertThat(missing.status()).isEqualTo(ErrorCode.NOT_FOUND.exitStatus());
    assertThat(missing.err()).contains("Rollup iot.nope does not exist");
    assertThat(cli.run("rollup", "drop", "iot.nope").err())
        .contains("Cannot drop rollup iot.nope: it does not exist");
    assertThat(assertOk(cli.run("rollup", "drop", "iot.nope", "--if-exists")).out())
        .isEqualTo("Rollup iot.nope does not exist\n");
  }

  @Test
  void helpExplainsEachCommand() {
    assertThat(assertOk(cli.run("rollup", "--help")).out())
        .contains("Materialized rollups")
        .contains("create")
        .contains("refresh");
    assertThat(assertOk(cli.run("rollup", "create", "--help")).out()).contains("--with");
  }

  @Test
  void signalAggregatesRunInTheShellAndPrintForPlainDuckdb() {
    Run twa =
        assertOk(
            cli.run(
                "sql",
                "--format",
                "csv",
                "-c",
                "SELECT device, time_weighted_mean(time, value) AS twa, integral(time, value,"
                    + " '1 minute') AS area, gap_count(time, '20 minutes') AS gaps FROM iot.r"
                    + " GROUP BY device ORDER BY device"));
    assertThat(twa.out()).isEqualTo("device,twa,area,gaps\na,2.0,60.0,1\nb,4.0,0.0,0\n");
    Run script = assertOk(cli.run("functions"));
    assertThat(script.out())
        .contains("CREATE OR REPLACE MACRO time_weighted_mean(")
        .contains("CREATE OR REPLACE MACRO m4(");
  }
}
