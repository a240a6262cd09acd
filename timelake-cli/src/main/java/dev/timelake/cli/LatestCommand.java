package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Prints the newest row of every series of a time-series table. */
@Command(
    name = "latest",
    description = {
      "Prints the newest row of every series.",
      "Newest by the time column, copies removed as on every read. For a time-series table without"
          + " series key: its newest row."
    },
    footer = {"%nExample:", "  timelake latest iot.readings --format json"})
final class LatestCommand extends LakeCommand {
  @Mixin private SessionSettingOptions sessionSettings;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "table (default), csv, json (JSON Lines) or markdown.")
  private OutputFormat format = OutputFormat.TABLE;

  @Override
  int run() {
    try (Lake lake = main.openLake(sessionSettings.settings)) {
      Table target = lake.table(table);
      String sql = sql(target);
      try (Session session = main.openSession(lake, sessionSettings.settings);
          QueryResult result = session.sql(sql)) {
        StatementRunner.print(result, format.printer(out()));
      }
    }
    return 0;
  }

  /** The query of the newest row per series, with every name quoted. */
  static String sql(Table table) {
    String time =
        SqlText.identifier(
            table
                .timeColumn()
                .orElseThrow(
                    () ->
                        TimelakeException.validation(
                            "Cannot show the latest rows of %s: latest needs a time-series table"
                                + " (it has no time column)",
                            table.name())));
    String from =
        "SELECT * FROM "
            + SqlText.identifier(table.name().namespace())
            + "."
            + SqlText.identifier(table.name().name());
    List<String> seriesKey = table.seriesKey();
    if (seriesKey.isEmpty()) {
      return from + " ORDER BY " + time + " DESC LIMIT 1";
    }
    String key = seriesKey.stream().map(SqlText::identifier).collect(Collectors.joining(", "));
    return from
        + " QUALIFY row_number() OVER (PARTITION BY "
        + key
        + " ORDER BY "
        + time
        + " DESC) = 1 ORDER BY "
        + key;
  }
}
