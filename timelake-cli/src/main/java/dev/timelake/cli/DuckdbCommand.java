package dev.timelake.cli;

import dev.timelake.Lake;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Prints a DuckDB view over a table's current files, with Timelake's dedup. */
@Command(
    name = "duckdb",
    description = {
      "Prints a DuckDB statement: a view over the table's current data files that removes copies"
          + " of a reading exactly as Timelake's reader does (latest _ingest_ts, then commit"
          + " order). Paste it into duckdb. It reflects the current snapshot; print it again"
          + " after appends or maintenance."
    },
    footer = {"%nExample:", "  timelake duckdb iot.readings | duckdb my.db"})
final class DuckdbCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Override
  int run() {
    try (Lake lake = main.openLake()) {
      out().println(lake.table(table).duckdbView());
    }
    return 0;
  }
}
