package dev.timelake.cli;

import dev.timelake.Table;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Prints the runs of index intervals without a row, per series. */
@Command(
    name = "gaps",
    description = {
      "Prints, per series, each run of index intervals in a range that holds no row: its start,"
          + " end (exclusive) and length in intervals.",
      "Answered from the table's coverage, without reading data files. Needs a table created with"
          + " an index granularity."
    },
    footer = {
      "%nExample:",
      "  timelake gaps market.bars --from 2026-01-01 --to 2026-02-01 --min-intervals 5"
    })
final class GapsCommand extends CoverageCommand {
  @Option(
      names = "--min-intervals",
      paramLabel = "N",
      description = "Only gaps at least N intervals long (default 1).")
  private long minIntervals = 1;

  @Override
  String function() {
    return "timelake_gaps";
  }

  @Override
  List<String> extraArguments() {
    return List.of("min_intervals := " + minIntervals);
  }

  @Override
  List<String> order(Table target) {
    List<String> order = new ArrayList<>(target.seriesKey());
    order.add("gap_start");
    return order;
  }
}
