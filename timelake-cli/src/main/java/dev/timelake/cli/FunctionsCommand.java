package dev.timelake.cli;

import dev.timelake.signal.SignalFunctions;
import picocli.CommandLine.Command;

/** Prints the signal aggregates as DuckDB macros, for plain DuckDB sessions. */
@Command(
    name = "functions",
    description = {
      "Prints Timelake's signal aggregates (time_weighted_mean, integral, m4, gap_count,"
          + " gap_seconds, approx_percentile and their states time_weighted_state, gap_state and"
          + " percentile_sketch) as DuckDB CREATE MACRO statements.",
      "Timelake's own sessions have them already; run this script in plain DuckDB to get the same"
          + " functions there (docs/SPEC.md, section 7, defines them)."
    },
    footer = {
      "%nExample:",
      "  timelake functions > timelake-functions.sql",
      "  duckdb my.db -c \".read timelake-functions.sql\""
    })
final class FunctionsCommand extends LakeCommand {
  @Override
  int run() {
    out().print(SignalFunctions.script());
    out().flush();
    return 0;
  }
}
