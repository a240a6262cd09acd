package dev.timelake.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Materialized rollups: list, create, refresh, verify and drop them. */
@Command(
    name = "rollup",
    description = {
      "Materialized rollups: per-bucket aggregates of a time-series table, refreshed"
          + " incrementally and used by queries on the raw table with exact answers.",
      "Queries grouped by a bucket that is a whole multiple of a rollup's (or by no bucket, over"
          + " a time range), by some of its keys, are answered from the widest rollup that can, the"
          + " rest from raw data. EXPLAIN shows each decision."
    },
    subcommands = {
      RollupListCommand.class,
      RollupCreateCommand.class,
      RollupRefreshCommand.class,
      RollupVerifyCommand.class,
      RollupDropCommand.class
    },
    footer = {
      "%nExamples:",
      "  timelake rollup create iot.readings_1h --as \"SELECT device, time_bucket(INTERVAL '1"
          + " hour', time) AS bucket, avg(value), max(value), count(*) FROM iot.readings GROUP BY"
          + " device, bucket\" --with refresh_interval=5m",
      "  timelake rollup ls iot.readings",
      "  timelake rollup refresh iot.readings_1h --dry-run",
      "  timelake rollup verify iot.readings_1h --sample 100"
    })
final class RollupCommand {
  @ParentCommand Main main;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;
}
