package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.RefreshReport;
import dev.timelake.TableName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Brings a rollup up to date, or shows what that would do. */
@Command(
    name = "refresh",
    description = {
      "Recomputes the buckets of a rollup that raw data committed since its last refresh"
          + " touches — only the (keys, bucket) cells the new files hold — from the table's other"
          + " rollups where they are up to date, else from raw data."
    },
    footer = {
      "%nExamples:",
      "  timelake rollup refresh iot.readings_1h",
      "  timelake rollup refresh iot.readings_1h --dry-run --explain"
    })
final class RollupRefreshCommand extends RollupSubcommand {
  @Parameters(index = "0", paramLabel = "ROLLUP", description = "The rollup (namespace.name).")
  private String name;

  @Option(names = "--dry-run", description = "Print the refresh's plan; change nothing.")
  private boolean dryRun;

  @Option(names = "--explain", description = "Print what the refresh did, window by window.")
  private boolean explain;

  @Override
  int run() {
    try (Lake lake = main().openLake()) {
      TableName rollup = TableName.parse(name);
      if (dryRun) {
        lake.refreshPlan(rollup).forEach(out()::println);
        return 0;
      }
      RefreshReport report = lake.refreshRollup(rollup);
      out()
          .printf(
              "Refreshed rollup %s: %d rows in %d windows%s, %d ms; reflects raw snapshot %d%n",
              report.rollup(),
              report.rowsWritten(),
              report.windows(),
              report.rebuilt() ? " (rebuilt)" : "",
              report.took().toMillis(),
              report.reflectsSnapshot());
      if (explain) {
        report.explanation().forEach(out()::println);
      }
    }
    return 0;
  }
}
