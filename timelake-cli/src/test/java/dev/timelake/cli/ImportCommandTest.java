package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ErrorCode;
import dev.timelake.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code timelake import}: delimiters, integer times, empty and ragged files, its report. */
class ImportCommandTest {
  @TempDir Path directory;
  private CliRunner cli;

  @BeforeEach
  void createReadings() {
    cli = new CliRunner(directory.resolve("warehouse"));
    Run created = cli.createReadings("iot.readings");
    assertThat(created.status()).as(created.err()).isZero();
  }

  @Test
  void importsSemicolonSeparatedValuesAndTheDelimiterGiven() throws IOException {
    Path semicolons = write("semi.csv", "device;time;value\n\"a;1\";2026-01-01T10:00:00Z;1.5\n");
    Path pipes = write("pipes.txt.csv", "device|time|value\nb,2;2026-01-01T10:00:00Z;2.5\n");

    Run found = cli.run("import", "iot.readings", semicolons.toString());
    Run given = cli.run("import", "iot.readings", pipes.toString(), "--delimiter", ";");

    assertThat(found.status()).as(found.err()).isZero();
    assertThat(given.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(given.err())
        .isEqualTo(
            "error: Cannot append to iot.readings: cannot read "
                + pipes
                + ": line 2 has 3 fields, expected 1 like the header row (delimiter ';'); quote"
                + " values that hold the delimiter\n");
    assertThat(rows()).isEqualTo("device,value\na;1,1.5\n");
  }

  @Test
  void readsIntegerTimesInTheFormatGivenAndNamesTheFlagWithoutIt() throws IOException {
    Path epoch = write("epoch.csv", "device,time,value\na,1767261600000,1.5\n");

    Run refused = cli.run("import", "iot.readings", epoch.toString());
    Run imported = cli.run("import", "iot.readings", epoch.toString(), "--time-format", "epoch-ms");

    assertThat(refused.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(refused.err())
        .isEqualTo(
            "error: Cannot append to iot.readings: cannot read "
                + epoch
                + ": line 2, column time: '1767261600000' is not a valid TIMESTAMPTZ (integers in"
                + " the time column need their unit: timelake import --time-format"
                + " epoch-s|epoch-ms|epoch-us|epoch-ns, Append.timeFromEpoch in Java)\n");
    assertThat(imported.status()).as(imported.err()).isZero();
    assertThat(
            cli.run("sql", "--format", "csv", "-c", "SELECT time::VARCHAR AS t FROM iot.readings")
                .out())
        .isEqualTo("t\n2026-01-01 10:00:00+00\n");
  }

  @Test
  void refusesAnUnknownTimeFormatNamingTheAcceptedOnes() throws IOException {
    Path csv = write("r.csv", "device,time,value\n");

    Run run = cli.run("import", "iot.readings", csv.toString(), "--time-format", "epoch-days");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .contains("Invalid value for option '--time-format': expected one of [")
        .contains("epoch-s, ", "epoch-ms, ", "epoch-us, ", "epoch-ns]")
        .contains("but was 'epoch-days'");
  }

  @Test
  void importsNothingFromAnEmptyFileAndSaysSo() throws IOException {
    Path empty = write("empty.csv", "");
    Path header = write("header.csv", "device,time,value\n");

    Run one = cli.run("import", "iot.readings", empty.toString());
    Run both = cli.run("import", "iot.readings", empty.toString(), header.toString());

    assertThat(one.status()).as(one.err()).isZero();
    assertThat(one.out())
        .isEqualTo("Nothing imported into iot.readings: " + empty + " holds no rows\n");
    assertThat(both.out())
        .isEqualTo("Nothing imported into iot.readings: the files hold no rows\n");
  }

  @Test
  void refusesARaggedLineNamingIt() throws IOException {
    Path csv =
        write(
            "ragged.csv",
            "device,time,value\na,2026-01-01T10:00:00Z,1\nb,2026-01-01T10:00:00Z,2,3\n");

    Run run = cli.run("import", "iot.readings", csv.toString());

    assertThat(run.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(run.err())
        .isEqualTo(
            "error: Cannot append to iot.readings: cannot read "
                + csv
                + ": line 3 has 4 fields, expected 3 like the header row (delimiter ','); quote"
                + " values that hold the delimiter\n");
  }

  @Test
  void reportsTheRowsThatMayReplaceStoredOnes() throws IOException {
    Path first =
        write(
            "first.csv", "device,time,value\na,2026-01-01T10:00:00Z,1\na,2026-01-01T11:00:00Z,2\n");
    Path again =
        write(
            "again.csv", "device,time,value\na,2026-01-01T10:00:00Z,3\na,2026-01-01T12:00:00Z,4\n");

    Run imported = cli.run("import", "iot.readings", first.toString());
    Run resent = cli.run("import", "iot.readings", again.toString());

    assertThat(imported.out()).doesNotContain("not newer");
    assertThat(resent.out())
        .startsWith("Imported 2 rows into iot.readings: 0 copies dropped, 2 files written,")
        .endsWith(
            " (1 row is not newer than stored data: each replaces a stored row with the same key,"
                + " if there is one)\n");
  }

  @Test
  void helpExplainsDelimitersConversionsAndTimeFormats() {
    Run help = cli.run("import", "--help");

    assertThat(help.out())
        .contains("--delimiter=CHAR")
        .contains("the one of , ; tab | the header row holds most")
        .contains("--time-format=FORMAT")
        .contains("epoch-s, epoch-ms,")
        .contains("TIMESTAMP into TIMESTAMPTZ (read as UTC)");
  }

  @Test
  void progressShowsRowsRateAndTimeLeft() {
    assertThat(ImportProgress.status("reading a.csv", 0, 1_000_000_000L, 0, 100))
        .isEqualTo("reading a.csv");
    assertThat(ImportProgress.status("reading b.csv", 1_200_000, 3_000_000_000L, 25, 100))
        .isEqualTo("reading b.csv: 1,200,000 rows, 400,000 rows/s, about 9 s left");
    assertThat(ImportProgress.status("wrote 1 of 2 files", 6_000_000, 600_000_000_000L, 100, 100))
        .isEqualTo("wrote 1 of 2 files: 6,000,000 rows, 10,000 rows/s");
  }

  private String rows() {
    return cli.run(
            "sql", "--format", "csv", "-c", "SELECT device, value FROM iot.readings ORDER BY 1")
        .out();
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(directory.resolve(name), text);
  }
}
