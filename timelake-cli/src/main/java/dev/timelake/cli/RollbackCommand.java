package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Makes an earlier snapshot of a table current again. */
@Command(
    name = "rollback",
    description =
        "Makes an earlier snapshot of a table current again: the table reads as it did then (its"
            + " rollups are rebuilt by their next refresh). `timelake info TABLE` lists the"
            + " snapshots it keeps; a snapshot a rollback left can be made current again.",
    footer = {
      "%nExamples:",
      "  timelake rollback iot.readings --to 5349271093381429021",
      "  timelake rollback iot.readings --before 2026-12-03T07:00:00Z"
    })
final class RollbackCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @ArgGroup(multiplicity = "1")
  private Target target;

  /** Where to: a snapshot, or the newest one at or before a time. */
  static final class Target {
    @Option(names = "--to", paramLabel = "SNAPSHOT", description = "The snapshot id.")
    Long snapshot;

    @Option(
        names = "--before",
        paramLabel = "TIME",
        description =
            "The newest snapshot committed at or before TIME (ISO-8601 with an offset, e.g."
                + " 2026-12-03T07:00:00Z).")
    String before;
  }

  @Override
  int run() {
    TableName name = TableName.parse(table);
    try (Lake lake = main.openLake()) {
      Table loaded = lake.table(name);
      long from = loaded.snapshotId().orElse(-1);
      Table rolledBack =
          target.snapshot != null
              ? loaded.rollbackTo(target.snapshot)
              : loaded.rollbackToTime(instant(target.before));
      out()
          .println(
              "Rolled back "
                  + name
                  + " from snapshot "
                  + from
                  + " to snapshot "
                  + rolledBack.snapshotId().orElse(-1));
    }
    return 0;
  }

  private static Instant instant(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw TimelakeException.validation(
          "Invalid --before '%s': give a time with its offset, e.g. 2026-12-03T07:00:00Z", text);
    }
  }
}
