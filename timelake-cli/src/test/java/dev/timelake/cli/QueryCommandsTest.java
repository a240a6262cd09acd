package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ErrorCode;
import dev.timelake.Lake;
import dev.timelake.TableInfo;
import dev.timelake.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands that read one table, created and imported once for the class. */
class QueryCommandsTest {
  /** The imported rows: tag, time, value, note. */
  private static final List<List<String>> ROWS =
      List.of(
          List.of("a", "2026-01-01T10:00:00Z", "1.5", "hello, world"),
          List.of("a", "2026-01-01T11:00:00Z", "2.5", ""),
          List.of("b", "2026-01-02T10:00:00.250Z", "3.0", "say \"hi\""),
          List.of("b", "2026-01-01T09:00:00Z", "4.0", "line\nbreak"));

  @TempDir static Path directory;
  private static CliRunner cli;

  @BeforeAll
  static void createAndImport() throws IOException {
    cli = new CliRunner(directory.resolve("warehouse"));
    Run created =
        cli.run(
            "create",
            "iot.readings",
            "--columns",
            "tag VARCHAR, time TIMESTAMPTZ, value DOUBLE, note VARCHAR",
            "--time-column",
            "time",
            "--series-key",
            "tag");
    assertThat(created.status()).as(created.err()).isZero();
    assertThat(created.out()).isEqualTo("Created table iot.readings\n");
    Path csv = directory.resolve("readings.csv");
    StringBuilder text = new StringBuilder("tag,time,value,note\n");
    for (List<String> row : ROWS) {
      text.append(row.stream().map(CsvPrinter::field).collect(Collectors.joining(",")))
          .append('\n');
    }
    Files.writeString(csv, text);
    Run imported = cli.run("import", "iot.readings", csv.toString(), "--batch-id", "b1");
    assertThat(imported.status()).as(imported.err()).isZero();
    long days = ROWS.stream().map(row -> row.get(1).substring(0, 10)).distinct().count();
    assertThat(imported.out())
        .startsWith(
            "Imported 4 rows into iot.readings: 0 copies dropped, "
                + days
                + " files written, snapshot ");
  }

  @Test
  void printsCsvWithQuotedFieldsAndUtcTimestamps() {
    Run run =
        cli.run(
            "sql",
            "--format",
            "csv",
            "-c",
            "SELECT tag, time, value, note FROM iot.readings ORDER BY tag, time");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            """
            tag,time,value,note
            a,2026-01-01T10:00:00Z,1.5,"hello, world"
            a,2026-01-01T11:00:00Z,2.5,
            b,2026-01-01T09:00:00Z,4.0,"line
            break"
            b,2026-01-02T10:00:00.250Z,3.0,"say ""hi\"""
            """);
  }

  @Test
  void printsJsonLines() {
    Run run =
        cli.run(
            "sql",
            "--format",
            "json",
            "-c",
            "SELECT tag, time, value, note, value > 2 AS high FROM iot.readings"
                + " WHERE tag = 'b' ORDER BY time");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            """
            {"tag":"b","time":"2026-01-01T09:00:00Z","value":4.0,"note":"line\\nbreak","high":true}
            {"tag":"b","time":"2026-01-02T10:00:00.250Z","value":3.0,"note":"say \\"hi\\"","high":true}
            """);
  }

  @Test
  void printsAnAlignedTableWithRowCount() {
    Run run =
        cli.run(
            "sql",
            "-c",
            "SELECT tag, count(*) AS n, NULL AS nothing FROM iot.readings GROUP BY tag ORDER BY tag");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            """
             tag | n | nothing
            -----+---+---------
             a   | 2 | NULL
             b   | 2 | NULL
            (2 rows)
            """);
  }

  @Test
  void runsSeveralStatementsSplitOutsideQuotes() {
    Run run =
        cli.run(
            "sql",
            "--format",
            "csv",
            "-c",
            "SELECT 'x;y' AS \"a;b\"; SELECT count(*) AS n FROM iot.readings;");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("a;b\nx;y\nn\n4\n");
  }

  @Test
  void printsTheExplanationToStderr() {
    Run run =
        cli.run(
            "sql",
            "--explain",
            "--format",
            "csv",
            "-c",
            "SELECT count(*) AS n FROM iot.readings WHERE time >= '2026-01-02'");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("n\n1\n");
    assertThat(run.err()).contains("DuckDB SQL: ");
  }

  @Test
  void runsStatementsAndShellCommandsFromPipedInput() {
    Run run =
        cli.runWithInput(
            """
            .format csv
            SELECT tag,
                   count(*) AS n
            FROM iot.readings
            GROUP BY tag ORDER BY tag;
            .format json
            SELECT 1 AS one; SET timelake.read_dedup = false;
            .quit
            SELECT 'not run';
            """,
            "sql");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo("tag,n\na,2\nb,2\n{\"one\":1}\nSET timelake.read_dedup = false\n");
  }

  @Test
  void stopsPipedInputAtTheFirstError() {
    Run run = cli.runWithInput("SELECT 1 AS one;\nSELECT * FROM iot.nothing;\nSELECT 2;\n", "sql");

    assertThat(run.status()).as(run.err()).isEqualTo(ErrorCode.NOT_FOUND.exitStatus());
    assertThat(run.out()).isEqualTo(" one\n-----\n   1\n(1 row)\n");
    assertThat(run.err())
        .startsWith("error: Table iot.nothing does not exist in warehouse ")
        .endsWith(" (tables in iot: iot.readings)\n");
  }

  @Test
  void latestPrintsTheNewestRowOfEachSeries() {
    Run run = cli.run("latest", "iot.readings", "--format", "csv");

    Map<String, List<String>> newest =
        ROWS.stream()
            .collect(
                Collectors.toMap(
                    row -> row.get(0),
                    Function.identity(),
                    (x, y) -> Instant.parse(x.get(1)).isAfter(Instant.parse(y.get(1))) ? x : y));
    List<String> expected =
        newest.keySet().stream()
            .sorted()
            .map(tag -> tag + "," + newest.get(tag).get(1) + "," + newest.get(tag).get(2))
            .toList();
    assertThat(run.status()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0)).startsWith("tag,time,value,note");
    assertThat(lines.subList(1, lines.size()))
        .map(line -> String.join(",", List.of(line.split(",")).subList(0, 3)))
        .isEqualTo(expected);
  }

  @Test
  void infoDescribesColumnsPartitionsAndSnapshots() {
    Run run = cli.run("info", "iot.readings");

    assertThat(run.status()).as(run.err()).isZero();
    TableInfo info;
    try (Lake lake = Lake.open(directory.resolve("warehouse"))) {
      info = lake.table("iot.readings").info();
    }
    assertThat(run.out())
        .startsWith("Table iot.readings (time-series)\n")
        .containsPattern("\\n time +\\| TIMESTAMPTZ +\\| not null +\\| time\\n")
        .containsPattern("\\n tag +\\| VARCHAR +\\| not null +\\| series key\\n")
        .containsPattern("\\n _ingest_ts +\\| TIMESTAMPTZ .*\\| insertion time\\n")
        .containsPattern("\\n time-column +\\| time +\\| table\\n")
        .containsPattern("\\n read-dedup +\\| true +\\| default\\n");
    for (TableInfo.PartitionInfo partition : info.partitions()) {
      assertThat(run.out())
          .containsPattern(
              "\\n "
                  + partition.label()
                  + " +\\| +"
                  + partition.files()
                  + " \\| +"
                  + partition.rows()
                  + " \\| ");
    }
    assertThat(run.out())
        .containsPattern("\\n total +\\| +" + info.files() + " \\| +" + info.rows() + " \\| ");
    TableInfo.SnapshotInfo last =
        info.snapshots().stream()
            .max(Comparator.comparingLong(TableInfo.SnapshotInfo::sequenceNumber))
            .orElseThrow();
    assertThat(run.out())
        .containsPattern(
            "\\n +"
                + last.id()
                + " \\| +"
                + last.sequenceNumber()
                + " \\| "
                + DateTimeFormatter.ISO_INSTANT.format(last.committedAt())
                + " \\| append +\\| +4 \\| +\\| b1 +\\| *\\n");
  }

  @Test
  void importSkipsABatchAlreadyCommitted() throws IOException {
    Path csv = directory.resolve("again.csv");
    Files.writeString(csv, "tag,time,value,note\nc,2026-01-03T00:00:00Z,9.0,x\n");

    Run run = cli.run("import", "iot.readings", csv.toString(), "--batch-id", "b1");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("Skipped: batch b1 was already committed to iot.readings\n");
  }

  @Test
  void listsTablesWithTheirKind() {
    Run run = cli.run("ls");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("iot.readings  time-series\n");
    assertThat(cli.run("ls", "other").out()).isEmpty();
  }
}
