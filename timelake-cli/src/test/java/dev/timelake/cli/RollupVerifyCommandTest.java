package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ErrorCode;
import dev.timelake.TableName;
import dev.timelake.catalog.Catalogs;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.cli.CliRunner.Run;
import dev.timelake.table.SnapshotSummaries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code timelake rollup verify}: an exact rollup exits 0 with one summary line; a rollup missing a
 * cell exits 1 and names it; samples, unknown rollups and help.
 */
class RollupVerifyCommandTest {
  private static final String HOURLY =
      "SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, max(value), avg(value),"
          + " count(*) FROM iot.r GROUP BY device, bucket";
  private static final String SUMMARY =
      "Verified rollup iot.r_1h against raw snapshot \\d+%s: %s cells, %s \\(took \\d+ ms\\)\n";

  @TempDir Path directory;

  private static Run assertOk(Run run) {
    assertThat(run.status()).as(run.err()).isZero();
    return run;
  }

  private CliRunner readingsWithHourlyRollup() throws IOException {
    CliRunner cli = new CliRunner(directory.resolve("warehouse"));
    assertOk(cli.createReadings("iot.r"));
    Path csv = directory.resolve("r.csv");
    Files.writeString(
        csv,
        "device,time,value\na,2026-01-01T10:00:00Z,1.5\na,2026-01-01T10:30:00Z,2.5\n"
            + "a,2026-01-01T10:30:00Z,3.5\nb,2026-01-01T11:00:00Z,4.0\n"
            + "a,2026-01-01T11:10:00Z,0.1\n");
    assertOk(cli.run("import", "iot.r", csv.toString()));
    assertOk(
        cli.run("rollup", "create", "iot.r_1h", "--as", HOURLY, "--with", "refresh_interval=off"));
    return cli;
  }

  private void importLate(CliRunner cli) throws IOException {
    Path late = directory.resolve("late.csv");
    Files.writeString(late, "device,time,value\nc,2026-01-01T10:20:00Z,9.0\n");
    assertOk(cli.run("import", "iot.r", late.toString()));
  }

  /** What a broken refresh would do: record the raw table's newest snapshot, computing nothing. */
  private void recordNewestRawSnapshot() {
    try (LakeCatalog catalog =
        new LakeCatalog(
            Catalogs.openEmbedded(directory.resolve("warehouse")),
            "test catalog",
            directory.resolve("tmp"))) {
      Snapshot raw = catalog.require(TableName.parse("iot.r")).iceberg().currentSnapshot();
      catalog
          .require(TableName.parse("iot.r_1h"))
          .iceberg()
          .newAppend()
          .set(SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT, Long.toString(raw.snapshotId()))
          .set(SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE, Long.toString(raw.sequenceNumber()))
          .commit();
    }
  }

  @Test
  void anExactRollupExitsZeroEvenWithRawDataNewerThanItsRefresh() throws IOException {
    CliRunner cli = readingsWithHourlyRollup();

    assertThat(assertOk(cli.run("rollup", "verify", "iot.r_1h")).out())
        .matches(String.format(SUMMARY, "", "3", "0 mismatches"));
    importLate(cli);
    assertThat(assertOk(cli.run("rollup", "verify", "iot.r_1h")).out())
        .matches(String.format(SUMMARY, "", "3", "0 mismatches"));
    assertThat(
            assertOk(cli.run("rollup", "verify", "iot.r_1h", "--sample", "1", "--seed", "7")).out())
        .matches(
            String.format(
                SUMMARY, " \\(1 of 2 buckets sampled with --seed 7\\)", "[12]", "0 mismatches"));
  }

  @Test
  void aMissingCellExitsOneAndIsNamed() throws IOException {
    CliRunner cli = readingsWithHourlyRollup();
    importLate(cli);
    recordNewestRawSnapshot();

    Run run = cli.run("rollup", "verify", "iot.r_1h");

    assertThat(run.status()).as(run.err()).isEqualTo(1);
    assertThat(run.out())
        .matches(String.format(SUMMARY, "", "4", "1 mismatch").replace("\n", "\n(?s:.*)"))
        .endsWith(
            "Mismatches:\n  device='c', bucket=2026-01-01T10:00:00Z: missing from the rollup;"
                + " raw data has rows there\n");
  }

  @Test
  void statesNotComparedAreNamed() throws IOException {
    CliRunner cli = readingsWithHourlyRollup();
    assertOk(
        cli.run(
            "rollup",
            "create",
            "iot.r_shape",
            "--as",
            "SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, m4(time, value) AS"
                + " shape, last_value(value ORDER BY time) AS closing FROM iot.r GROUP BY device,"
                + " bucket",
            "--with",
            "refresh_interval=off"));

    assertThat(assertOk(cli.run("rollup", "verify", "iot.r_shape")).out())
        .startsWith("Verified rollup iot.r_shape against raw snapshot ")
        .contains(": 3 cells, 0 mismatches (took ")
        .endsWith(" ms)\nNot compared (merged states): shape\n");
  }

  @Test
  void unknownRollupsAndBadSamplesAreRefused() throws IOException {
    CliRunner cli = readingsWithHourlyRollup();

    Run missing = cli.run("rollup", "verify", "iot.nope");
    assertThat(missing.status()).isEqualTo(ErrorCode.NOT_FOUND.exitStatus());
    assertThat(missing.err()).contains("Rollup iot.nope does not exist");
    Run table = cli.run("rollup", "verify", "iot.r");
    assertThat(table.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(table.err()).contains("iot.r is a table, not a rollup");
    Run zero = cli.run("rollup", "verify", "iot.r_1h", "--sample", "0");
    assertThat(zero.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(zero.err())
        .contains("Invalid rollup verification sample: 0 buckets (expected at least 1)");
    assertThat(assertOk(cli.run("rollup", "verify", "--help")).out())
        .contains("--sample")
        .contains("--seed")
        .contains("timelake rollup verify iot.readings_1h --sample 100 --seed 42");
    assertThat(assertOk(cli.run("rollup", "--help")).out()).contains("verify");
  }
}
