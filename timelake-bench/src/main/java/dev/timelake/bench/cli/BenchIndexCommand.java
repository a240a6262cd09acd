package dev.timelake.bench.cli;

import dev.timelake.Lake;
import dev.timelake.bench.IndexAppendBenchmark;
import dev.timelake.cli.Main;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Measures what the one-row-per-interval check costs an append. */
@Command(
    name = "index-append",
    description = {
      "Measures the ordered index's conflict check: hourly bars of many instruments appended to"
          + " a table with index_granularity = '1m' and to the same table without, turn by turn,"
          + " after the same history. Creates bench.bars_strict and bench.bars_free."
    },
    footer = {
      "%nExample:",
      "  timelake --warehouse ./bench-index bench index-append --instruments 1000 --hours 24"
    })
final class BenchIndexCommand implements Callable<Integer> {
  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(
      names = "--instruments",
      paramLabel = "N",
      description = "Series (one bar per minute each; default 1000).")
  private int instruments = 1000;

  @Option(
      names = "--history-hours",
      paramLabel = "N",
      description = "Hours loaded in one append before the hourly ones (default 168).")
  private int historyHours = 168;

  @Option(
      names = "--hours",
      paramLabel = "N",
      description = "Hourly appends measured per table (default 24).")
  private int hours = 24;

  @Option(
      names = "--optimize",
      description = "Then optimize the strict table's entity layout and report its throughput.")
  private boolean optimize;

  @Option(
      names = "--on-conflict",
      paramLabel = "ACTION",
      description =
          "The strict table's on_conflict: error (default) or replace (then each hour 1 % of the"
              + " series also resend their last bar, timed as corrections).")
  private String onConflict = "error";

  @Override
  public Integer call() {
    Main main = bench.main;
    try (Lake lake = main.openLake()) {
      IndexAppendBenchmark.Figures figures =
          IndexAppendBenchmark.run(
              lake,
              instruments,
              historyHours,
              hours,
              optimize,
              onConflict,
              message -> main.streams().err().println(message));
      main.streams().out().print(figures.render());
    }
    main.streams().out().flush();
    return 0;
  }
}
