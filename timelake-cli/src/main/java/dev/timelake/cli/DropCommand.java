package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Drops a table and deletes its files. */
@Command(
    name = "drop",
    description = "Drops a table and deletes its files.",
    footer = {
      "%nExamples:",
      "  timelake drop iot.readings --if-exists",
      "  timelake drop iot.readings --cascade   # also its rollups"
    })
final class DropCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Option(names = "--if-exists", description = "Succeed when the table does not exist.")
  private boolean ifExists;

  @Option(
      names = "--cascade",
      description =
          "Drop the rollups computed from the table too (without it, such a table is"
              + " refused).")
  private boolean cascade;

  @Override
  int run() {
    TableName name = TableName.parse(table);
    try (Lake lake = main.openLake()) {
      if (cascade ? lake.dropTableWithRollups(name) : lake.dropTable(name)) {
        out().println("Dropped table " + name);
      } else if (ifExists) {
        out().println("Table " + name + " does not exist");
      } else {
        throw TimelakeException.notFound("Cannot drop %s: it does not exist", name);
      }
    }
    return 0;
  }
}
