package dev.timelake.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.bench.cli.CliRunner.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code timelake bench generate} and {@code bench run} on a few hours of the tiny plant. */
class BenchCommandTest {
  @TempDir Path directory;

  @Test
  void helpListsTheSubcommandsWithExamples() {
    Run bench = CliRunner.runWithoutWarehouse("", Map.of(), "bench", "--help");
    assertThat(bench.status()).isZero();
    assertThat(bench.out())
        .containsPattern("\\n  generate +[A-Z]")
        .containsPattern("\\n  run +[A-Z]")
        .contains("  timelake --warehouse ./bench-mini bench generate --scale mini");
    for (String command : new String[] {"generate", "run"}) {
      Run run = CliRunner.runWithoutWarehouse("", Map.of(), "bench", command, "--help");
      assertThat(run.status()).isZero();
      assertThat(run.out())
          .contains("Usage: timelake bench " + command)
          .contains("  timelake --warehouse ./bench-mini bench " + command + " --scale mini");
    }
  }

  @Test
  void indexAppendAndCoverageBenchmarksReportTheirFigures() {
    CliRunner cli = new CliRunner(directory.resolve("index"));
    Run append =
        cli.run(
            "bench",
            "index-append",
            "--instruments",
            "5",
            "--history-hours",
            "1",
            "--hours",
            "2",
            "--optimize");
    assertThat(append.status()).as(append.err()).isZero();
    assertThat(append.out())
        .contains("instruments 5; history 1 hours (300 rows)")
        .contains("hourly appends of 300 rows (2 each)")
        .contains("check overhead")
        .contains("optimize of the strict table: ")
        .contains("read every row");
    Run replace =
        new CliRunner(directory.resolve("replace"))
            .run(
                "bench",
                "index-append",
                "--instruments",
                "5",
                "--history-hours",
                "1",
                "--hours",
                "2",
                "--on-conflict",
                "replace");
    assertThat(replace.status()).as(replace.err()).isZero();
    assertThat(replace.out())
        .contains("on_conflict = 'replace': 2 hourly corrections of 1 rows")
        .contains("strict (on_conflict = replace)");
    Run coverage =
        new CliRunner(directory.resolve("coverage"))
            .run("bench", "coverage", "--instruments", "3", "--outages", "2");
    assertThat(coverage.status()).as(coverage.err()).isZero();
    assertThat(coverage.out())
        .contains("coverage: 3 series × 525,600 minutes, 2 outages each")
        .contains("SQL: timelake_gaps, every series");
  }

  @Test
  void generatesThePlantThenRunsTheChosenQueries() throws Exception {
    Path warehouse = directory.resolve("lake");
    CliRunner cli = new CliRunner(warehouse);

    Run generate = cli.run("bench", "generate", "--scale", "tiny", "--hours", "3");
    assertThat(generate.status()).as(generate.err()).isZero();
    assertThat(generate.out())
        .startsWith("hour 3/3, ")
        .contains("Generated the tiny plant (20 tags, 3 hours, seed 42) in warehouse ")
        .contains(" in 3 hourly appends (0 already there), ")
        .endsWith(" readings/s\n");
    assertThat(warehouse.resolve("iiot-generation.properties")).isRegularFile();

    Path results = directory.resolve("results");
    Run run =
        cli.run(
            "bench",
            "run",
            "--scale",
            "tiny",
            "--queries",
            "daily-stats,latest",
            "--runs",
            "1",
            "--no-warm-up",
            "--out",
            results.toString());
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("| daily-stats | ")
        .contains("| latest | ")
        .contains("min / median of 1 run, no warm-up")
        .doesNotContain("| gaps | 20 |")
        .contains("| bulk load (generation), earlier run | ")
        .contains(" questdb | questdb-views |")
        .contains("| QuestDB: bulk load (read_parquet");
    assertThat(run.err()).contains("Results written to " + results);
    assertThat(Files.readString(results.resolve("results.md"))).isEqualTo(run.out());
    assertThat(results.resolve("results.json")).isRegularFile();
    assertThat(results.resolve("queries.svg")).isRegularFile();

    String[] queriesOnly = {
      "bench",
      "run",
      "--scale",
      "tiny",
      "--queries",
      "latest",
      "--runs",
      "1",
      "--no-warm-up",
      "--queries-only",
      "--without-questdb",
      "--configurations",
      "timelake,duckdb",
      "--out",
      directory.resolve("again").toString()
    };
    Run first = cli.run(queriesOnly);
    Run second = cli.run(queriesOnly);
    assertThat(first.status()).as(first.err()).isZero();
    assertThat(first.out())
        .contains("| latest | ")
        .doesNotContain("maintain after the load")
        .doesNotContain("create 1-minute rollup")
        .doesNotContain("After `maintain`")
        .doesNotContain("questdb");
    assertThat(dataLine(second.out())).isEqualTo(dataLine(first.out()));
  }

  /** The report's line on the table's rows and files. */
  private static String dataLine(String markdown) {
    return markdown.lines().filter(l -> l.startsWith("iiot.readings: ")).findFirst().orElseThrow();
  }

  @Test
  void writesPlainParquetInsteadOfALake() {
    Path parquet = directory.resolve("parquet");
    Run run =
        new CliRunner(directory.resolve("unused"))
            .run(
                "bench",
                "generate",
                "--scale",
                "tiny",
                "--hours",
                "1",
                "--plain-parquet",
                parquet.toString());

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains("Wrote the tiny plant (20 tags, 1 hour, seed 42) to ");
    assertThat(parquet.resolve("tags.parquet")).isRegularFile();
    assertThat(parquet.resolve("readings-2026-01-01.parquet")).isRegularFile();
    assertThat(directory.resolve("unused")).doesNotExist();
  }

  @Test
  void rejectsAnUnknownQueryNamingTheKnownOnes() {
    Run run =
        new CliRunner(directory).run("bench", "run", "--scale", "tiny", "--queries", "fastest");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .startsWith("error: Unknown query 'fastest' (queries: daily-stats, six-hourly-totals,");
  }

  @Test
  void rejectsAnUnknownConfigurationNamingTheKnownOnes() {
    Run run =
        new CliRunner(directory)
            .run("bench", "run", "--scale", "tiny", "--configurations", "questdb,spark");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .startsWith("error: Unknown configuration 'spark' (configurations: timelake,")
        .contains("questdb-views)");
  }

  @Test
  void refusesAWarehouseOnObjectStorage() {
    Run run =
        CliRunner.runWithoutWarehouse(
            "", Map.of(), "--warehouse", "s3://plant/lake", "bench", "run", "--scale", "tiny");
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains("Cannot use warehouse s3://plant/lake here: this command needs a local folder");
  }

  @Test
  void rejectsAnUnknownScale() {
    Run run = new CliRunner(directory).run("bench", "generate", "--scale", "huge");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("error: Invalid scale 'huge' (expected tiny, mini, small)\n");
  }

  @Test
  void pgInsertsRefusesCopiesAndBatchesTogetherAndANegativeCopySize() {
    Run both =
        new CliRunner(directory).run("bench", "pg-inserts", "--copy", "100", "--batch", "10");
    assertThat(both.status()).isEqualTo(2);
    assertThat(both.err()).contains("--copy and --batch are ways to send rows: give one");

    Run negative = new CliRunner(directory).run("bench", "pg-inserts", "--copy", "-1");
    assertThat(negative.status()).isEqualTo(2);
    assertThat(negative.err()).contains("--copy at least 0");
  }

  @Test
  void appendsMeasuresHeldAndCommittedAppendsAndStoresEveryRow() {
    Run appends =
        new CliRunner(directory)
            .run(
                "bench",
                "appends",
                "--appends",
                "20",
                "--appends-without-tier",
                "2",
                "--rows",
                "3",
                "--queries",
                "3");
    assertThat(appends.status()).as(appends.err()).isZero();
    assertThat(appends.out())
        .contains("Append.commit (a snapshot each)")
        .contains("stored 306 of 306 rows")
        .contains("Append.holdIn(hot tier)")
        .contains("stored 360 of 360 rows")
        .contains("queries reading what is held")
        .contains("queries committing it first");

    Run bad = new CliRunner(directory).run("bench", "appends", "--rows", "0");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("--rows from 1 to 100000");
  }
}
