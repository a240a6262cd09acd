package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.OptimizeReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Rewrites data files that mix series into one file per series. */
@Command(
    name = "optimize",
    description = {
      "Entity-layout optimization: rewrites each data file that holds rows of several series"
          + " into one file per series, keeping rows, schema and coverage. Not compaction (it"
          + " takes no target size); a second run does nothing.",
      "Prints what it did as key: value lines. Needs a table with entity columns (series key)."
    },
    footer = {"%nExample:", "  timelake optimize market.bars"})
final class OptimizeCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Override
  int run() {
    try (Lake lake = main.openLake()) {
      boolean interactive = main.streams().interactive();
      OptimizeReport report =
          lake.table(table)
              .newOptimize()
              .progress(
                  message -> {
                    if (interactive) {
                      err().println(message);
                    }
                  })
              .run();
      out().println(report.render());
    }
    return 0;
  }
}
