package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.RollupInfo;
import dev.timelake.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Lists rollups: of one raw table, or of every table. */
@Command(
    name = "ls",
    description = {
      "Lists rollups with their source, bucket, grouping columns, stored aggregates, the raw"
          + " snapshot they reflect and their size. Without TABLE, every table's rollups."
    },
    footer = {"%nExamples:", "  timelake rollup ls iot.readings", "  timelake rollup ls"})
final class RollupListCommand extends RollupSubcommand {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "TABLE",
      description = "The raw table (namespace.table); every table when omitted.")
  private String table;

  @Override
  int run() {
    try (Lake lake = main().openLake()) {
      List<TableName> tables = table == null ? lake.tables() : List.of(TableName.parse(table));
      List<RollupInfo> rollups = new ArrayList<>();
      for (TableName name : tables) {
        if (table != null || lake.table(name).settings().containsKey("rollups")) {
          rollups.addAll(lake.rollups(name));
        }
      }
      if (rollups.isEmpty()) {
        out().println(table == null ? "No rollups." : "No rollups of " + table + ".");
      }
      for (RollupInfo rollup : rollups) {
        out()
            .printf(
                "%s: %s of %s by (%s)%s; %s; reflects raw snapshot %s; %,d rows in %d files%n",
                rollup.name(),
                rollup.bucket(),
                rollup.source(),
                String.join(", ", rollup.keys()),
                rollup.filter().isEmpty() ? "" : " where " + rollup.filter(),
                aggregates(rollup.aggregates()),
                rollup.reflectsSnapshot() < 0 ? "none" : rollup.reflectsSnapshot(),
                rollup.rows(),
                rollup.files());
      }
    }
    return 0;
  }

  private static String aggregates(Map<String, String> aggregates) {
    List<String> parts = new ArrayList<>();
    aggregates.forEach((name, call) -> parts.add(name + " = " + call));
    return String.join(", ", parts);
  }
}
