package dev.timelake.bench.cli;

import dev.timelake.bench.BenchmarkReport;
import dev.timelake.bench.BenchmarkRunner;
import dev.timelake.bench.Configuration;
import dev.timelake.bench.QueryFigures;
import dev.timelake.cli.Main;
import dev.timelake.cli.Progress;
import dev.timelake.iiot.IiotGenerator;
import dev.timelake.iiot.Scale;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Runs the IIoT benchmark on the warehouse's plant and writes its results. */
@Command(
    name = "run",
    description = {
      "Runs the IIoT benchmark's queries in every configuration, side by side: timelake (routing"
          + " off), timelake-routed (1-minute, hourly and daily rollups, routing on), duckdb"
          + " (plain DuckDB over the same data files, copies included) and duckdb-qualify (DuckDB"
          + " removing copies with QUALIFY).",
      "A warm-up pass (unless --no-warm-up), then --runs timed passes; timelake-routed is"
          + " measured only for the queries it routes (elsewhere it runs timelake's plan). Reports"
          + " min and median per query and"
          + " configuration, ratios against plain DuckDB, whether the answers agree, and the"
          + " loading, rollup and maintenance figures. Generates the plant first when"
          + " iiot.readings is missing. Writes results.md, results.json and queries.svg into the"
          + " results folder and prints the Markdown to stdout; exits 1 if Timelake, Timelake"
          + " routed and DuckDB with QUALIFY disagree."
    },
    footer = {
      "%nExamples:",
      "  timelake --warehouse ./bench-mini bench run --scale mini --runs 3",
      "  timelake bench run --scale tiny --queries daily-stats,gaps --runs 1 --out ./results"
    })
final class BenchRunCommand implements Callable<Integer> {
  private static final DateTimeFormatter FOLDER_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(
      names = "--scale",
      required = true,
      paramLabel = "SCALE",
      description = "tiny, mini or small: the plant in the warehouse (generated when missing).")
  private String scale;

  @Option(
      names = "--queries",
      split = ",",
      paramLabel = "NAME",
      description = "Only these queries, comma-separated (default: all).")
  private List<String> queries = new ArrayList<>();

  @Option(
      names = "--runs",
      paramLabel = "N",
      description = "Timed runs per query and configuration (default 3).")
  private int runs = 3;

  @Option(
      names = "--no-warm-up",
      description =
          "Time the first pass too instead of running a warm-up pass first: halves a large"
              + " scale's run, where each query reads gigabytes and the warm-up mostly repeats it.")
  private boolean noWarmUp;

  @Option(
      names = "--queries-only",
      description =
          "Measure the queries on the plant as it is and change nothing: no rollups created"
              + " (existing ones are used), no append, refresh or maintenance. For comparing two"
              + " builds on one plant.")
  private boolean queriesOnly;

  @Option(
      names = "--configurations",
      split = ",",
      paramLabel = "NAME",
      description =
          "Only these configurations, comma-separated: timelake, timelake-routed, duckdb,"
              + " duckdb-qualify, questdb, questdb-views (default: all; timelake always runs, the"
              + " others' answers are compared with it).")
  private List<String> configurations = new ArrayList<>();

  @Option(
      names = "--without-questdb",
      description =
          "Leave QuestDB out. By default the run starts QuestDB in a child JVM bound to 127.0.0.1"
              + " (PostgreSQL protocol only, in a temporary folder deleted afterwards), loads the"
              + " readings without copies into a table with DEDUP UPSERT KEYS(time, tag), builds"
              + " its materialized views and runs every query it can ask side by side (columns"
              + " questdb and questdb-views).")
  private boolean withoutQuestdb;

  @Option(
      names = "--memory-limit",
      paramLabel = "SIZE",
      description =
          "DuckDB's memory_limit for each of the run's three engines (Timelake's and two plain"
              + " DuckDB databases), e.g. 6GB (default: a third of the memory the JVM's heap"
              + " leaves, so that together they fit).")
  private String memoryLimit;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "The results folder (default: bench-results/<scale>-<yyyyMMdd-HHmmss>).")
  private Path out;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "The seed when the plant is generated (default 42).")
  private long seed = 42;

  @Override
  public Integer call() {
    Main main = bench.main;
    PrintStream err = main.streams().err();
    Scale plant = Scale.parse(scale);
    Progress progress = main.streams().interactive() ? new Progress(err) : null;
    BenchmarkRunner.Builder builder =
        BenchmarkRunner.builder()
            .plant(IiotGenerator.builder().scale(plant).seed(seed))
            .runs(runs)
            .progress(progress != null ? progress::show : err::println);
    if (!queries.isEmpty()) {
      builder.queries(queries);
    }
    if (noWarmUp) {
      builder.withoutWarmUp();
    }
    if (queriesOnly) {
      builder.queriesOnly();
    }
    if (!configurations.isEmpty()) {
      builder.configurations(configurations.stream().map(Configuration::parse).toList());
    }
    if (withoutQuestdb) {
      builder.withoutQuestdb();
    }
    if (memoryLimit != null) {
      builder.memoryLimit(memoryLimit);
    }
    Path folder =
        out != null
            ? out
            : Path.of(
                "bench-results", plant.label() + "-" + FOLDER_TIME.format(LocalDateTime.now()));
    BenchmarkReport report = builder.build().run(main.warehouse());
    if (progress != null) {
      progress.clear();
    }
    report.write(folder);
    main.streams().out().print(report.markdown());
    main.streams().out().flush();
    err.println("Results written to " + folder);
    if (!report.answersAgree()) {
      List<String> disagreeing =
          Stream.concat(report.queries().stream(), report.afterMaintenance().stream())
              .filter(q -> !q.answersAgree())
              .map(QueryFigures::query)
              .distinct()
              .toList();
      err.println(
          "error: answers disagree for "
              + String.join(", ", disagreeing)
              + " (Timelake, Timelake routed and DuckDB with QUALIFY must agree; see "
              + folder.resolve(BenchmarkReport.MARKDOWN_FILE)
              + ")");
      return 1;
    }
    return 0;
  }
}
