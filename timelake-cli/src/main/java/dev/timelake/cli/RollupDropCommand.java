package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.NotFoundException;
import dev.timelake.TableName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Drops a rollup. */
@Command(
    name = "drop",
    description = {"Drops a rollup and its files; its raw table no longer lists it."},
    footer = {"%nExample:", "  timelake rollup drop iot.readings_1h"})
final class RollupDropCommand extends RollupSubcommand {
  @Parameters(index = "0", paramLabel = "ROLLUP", description = "The rollup (namespace.name).")
  private String name;

  @Option(names = "--if-exists", description = "Do nothing when the rollup does not exist.")
  private boolean ifExists;

  @Override
  int run() {
    try (Lake lake = main().openLake()) {
      if (lake.dropRollup(TableName.parse(name))) {
        out().println("Dropped rollup " + name);
      } else if (ifExists) {
        out().println("Rollup " + name + " does not exist");
      } else {
        throw new NotFoundException("Cannot drop rollup " + name + ": it does not exist");
      }
    }
    return 0;
  }
}
