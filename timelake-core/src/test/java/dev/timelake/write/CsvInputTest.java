package dev.timelake.write;

import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.readings;
import static dev.timelake.TestTables.snapshots;
import static dev.timelake.TestTables.utc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.AppendResult;
import dev.timelake.CsvInput;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.ValidationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** How CSV files are read: delimiters, empty files, and errors that name the file's lines. */
class CsvInputTest {
  private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
  private static final Instant T2 = Instant.parse("2026-01-01T10:01:00Z");

  @TempDir static Path warehouse;
  @TempDir Path files;
  private static Lake lake;
  private Table table;

  @BeforeAll
  static void openLake() {
    lake = Lake.open(warehouse);
  }

  @AfterAll
  static void closeLake() {
    lake.close();
  }

  /** {@code csv.<test>(device VARCHAR, time TIMESTAMPTZ, value DOUBLE)}. */
  @BeforeEach
  void createTable(TestInfo test) {
    table =
        lake.createTable(readings("csv." + test.getTestMethod().orElseThrow().getName()).build());
  }

  @Test
  void findsSemicolonTabAndPipeDelimitersFromTheHeaderRow() throws IOException {
    for (String delimiter : List.of(";", "\t", "|")) {
      Path csv =
          write(
              "readings.csv",
              String.join(delimiter, "device", "time", "value")
                  + "\n"
                  + String.join(delimiter, "\"a" + delimiter + "1\"", "2026-01-01 10:00:00Z", "1.5")
                  + "\n");

      table.newAppend().fromCsv(csv).commit();
    }

    assertThat(contents())
        .containsExactly(
            List.of("a\t1", utc(T1), 1.5),
            List.of("a;1", utc(T1), 1.5),
            List.of("a|1", utc(T1), 1.5));
  }

  @Test
  void readsWithTheDelimiterGivenInsteadOfTheOneFound() throws IOException {
    Path csv = write("readings.csv", "device;time;value\na,b;2026-01-01 10:00:00Z;1.5\n");

    assertThatThrownBy(
            () -> table.newAppend().fromCsv(CsvInput.of(csv).withDelimiter(",")).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageEndingWith(
            "line 2 has 2 fields, expected 1 like the header row (delimiter ','); quote values that"
                + " hold the delimiter");
    table.newAppend().fromCsv(csv).commit();

    assertThat(contents()).containsExactly(List.of("a,b", utc(T1), 1.5));
  }

  @Test
  void importsNoRowsFromAnEmptyFileOrAHeaderAlone() throws IOException {
    Path empty = write("empty.csv", "");
    Path header = write("header.csv", "device,time,value\n");

    AppendResult result = table.newAppend().fromCsv(empty).fromCsv(header).commit();

    assertThat(result.outcome()).isEqualTo(AppendResult.Outcome.EMPTY);
    assertThat(snapshots(table)).isZero();
  }

  @Test
  void refusesARowWithTooFewFieldsNamingItsLine() throws IOException {
    Path csv =
        write(
            "short.csv",
            "device,time,value\n"
                + "a,2026-01-01 10:00:00Z,1.5\n"
                + "a,2026-01-01 10:01:00Z,2.5\n"
                + "a,2026-01-01 10:02:00Z\n");

    assertRefused(
        csv,
        "line 4 has 2 fields, expected 3 like the header row (delimiter ','); quote values that"
            + " hold the delimiter");
  }

  @Test
  void refusesARowWithTooManyFieldsNamingItsLine() throws IOException {
    Path csv =
        write(
            "long.csv",
            "device,time,value\n\"a\nb\",2026-01-01 10:00:00Z,1.5\na,2026-01-01 10:01:00Z,2,5\n");

    assertRefused(
        csv,
        "line 4 has 4 fields, expected 3 like the header row (delimiter ','); quote values that"
            + " hold the delimiter");
  }

  @Test
  void namesTheLineOfAValueThatDoesNotConvertCountingTheHeaderAndQuotedLineBreaks()
      throws IOException {
    Path csv =
        write(
            "bad.csv",
            "device,time,value\n\"a\nb\",2026-01-01 10:00:00Z,1.5\nc,2026-01-01 10:01:00Z,oops\n");

    assertRefused(csv, "line 4, column value: 'oops' is not a valid DOUBLE");
  }

  @Test
  void namesTheLineOfAValueInAFileWithoutHeaderRow() throws IOException {
    Path csv = write("data.csv", "a,2026-01-01 10:00:00Z,1.5\nb,2026-01-01 10:01:00Z,oops\n");
    CsvInput input =
        CsvInput.of(csv).withColumns(List.of("device", "time", "value")).describedAs("the data");

    assertThatThrownBy(() -> table.newAppend().fromCsv(input).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot append to %s: cannot read the data: line 2, column value: 'oops' is not a"
                + " valid DOUBLE",
            table.name());
  }

  @Test
  void refusesAnUnknownColumnWithoutQuotingInternalSql() throws IOException {
    Path csv = write("colour.csv", "device,time,colour\na,2026-01-01 10:00:00Z,red\n");

    assertRefused(
        csv,
        "",
        "Cannot append to "
            + table.name()
            + ": "
            + csv
            + " has column 'colour', which the table does not have (columns: device, time, value,"
            + " _ingest_ts)");
  }

  @Test
  void refusesAnIntegerTimeNamingTheFlagThatGivesItsUnit() throws IOException {
    Path csv = write("epoch.csv", "device,time,value\na,1767261600,1.5\n");

    assertRefused(
        csv,
        "line 2, column time: '1767261600' is not a valid TIMESTAMPTZ (integers in the time column"
            + " need their unit: timelake import --time-format epoch-s|epoch-ms|epoch-us|epoch-ns,"
            + " Append.timeFromEpoch in Java)");
  }

  @Test
  void readsAnIntegerTimeInTheUnitGiven() throws IOException {
    Path seconds = write("s.csv", "device,time,value\na,1767261600,1.5\n");
    Path millis = write("ms.csv", "device,time,value\nb,1767261660000,2.5\n");

    table.newAppend().fromCsv(seconds).timeFromEpoch(ChronoUnit.SECONDS).commit();
    table.newAppend().fromCsv(millis).timeFromEpoch(ChronoUnit.MILLIS).commit();

    assertThat(contents()).containsExactly(List.of("a", utc(T1), 1.5), List.of("b", utc(T2), 2.5));
  }

  private void assertRefused(Path csv, String reason) {
    assertRefused(
        csv, reason, "Cannot append to " + table.name() + ": cannot read " + csv + ": " + reason);
  }

  private void assertRefused(Path csv, String reason, String message) {
    assertThatThrownBy(() -> table.newAppend().fromCsv(csv).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessage(message)
        .message()
        .doesNotContain("__tl", "SELECT", "read_csv");
    assertThat(snapshots(table)).isZero();
  }

  private List<List<Object>> contents() {
    return query(
        lake, "SELECT device, time, value FROM " + table.name() + " ORDER BY device, time");
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(files.resolve(name), text);
  }
}
