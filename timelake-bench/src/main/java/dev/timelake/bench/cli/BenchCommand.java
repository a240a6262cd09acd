package dev.timelake.bench.cli;

import dev.timelake.cli.Main;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** The IIoT benchmark: {@code bench generate} makes its data, {@code bench run} measures. */
@Command(
    name = "bench",
    description = {
      "The IIoT benchmark: generates a plant's readings and measures the benchmark's queries.",
      "Timelake (routing on and off) is measured side by side with plain DuckDB over the same"
          + " Parquet files and with DuckDB deduplicating them by QUALIFY."
    },
    subcommands = {
      BenchGenerateCommand.class,
      BenchRunCommand.class,
      BenchIndexCommand.class,
      BenchCoverageCommand.class,
      BenchLineProtocolCommand.class,
      BenchPgInsertsCommand.class,
      BenchAppendsCommand.class,
      BenchStorageCommand.class
    },
    footer = {
      "%nExample:",
      "  timelake --warehouse ./bench-mini bench generate --scale mini",
      "  timelake --warehouse ./bench-mini bench run --scale mini --runs 3"
    })
final class BenchCommand {
  @ParentCommand Main main;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;
}
