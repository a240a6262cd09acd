package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Prints how much of a range each series of a table with an index granularity covers. */
@Command(
    name = "coverage",
    description = {
      "Prints, per series, how many of a range's index intervals hold a row: covered, expected,"
          + " missing, the covered ratio and the longest gap (in intervals).",
      "Answered from the table's coverage, without reading data files. Needs a table created with"
          + " an index granularity."
    },
    footer = {
      "%nExample:",
      "  timelake coverage market.bars --from 2026-01-01 --to 2026-02-01 --entity symbol=NVDA"
    })
class CoverageCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  String table;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "TIME",
      description =
          "Start of the range (inclusive), e.g. 2026-01-01 or 2026-01-01T09:30:00Z; an integer for"
              + " a BIGINT logical clock.")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "TIME",
      description = "End of the range (exclusive).")
  String to;

  @Option(
      names = "--entity",
      paramLabel = "COLUMN=VALUE",
      description = "Only the series whose entity column has this value (repeatable).")
  Map<String, String> entities = new LinkedHashMap<>();

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "table (default), csv, json (JSON Lines) or markdown.")
  OutputFormat format = OutputFormat.TABLE;

  @Override
  int run() {
    try (Lake lake = main.openLake()) {
      Table target = lake.table(table);
      for (String column : entities.keySet()) {
        if (!target.seriesKey().contains(column)) {
          throw TimelakeException.validation(
              "Table %s has no entity column '%s' (entity columns: %s)",
              target.name(),
              column,
              target.seriesKey().isEmpty() ? "none" : String.join(", ", target.seriesKey()));
        }
      }
      try (Session session = main.openSession(lake, Map.of());
          QueryResult result = session.sql(sql(target))) {
        StatementRunner.print(result, format.printer(out()));
      }
    }
    return 0;
  }

  /** The table function call and its arguments after the table and range. */
  String function() {
    return "timelake_coverage";
  }

  List<String> extraArguments() {
    return List.of();
  }

  List<String> order(Table target) {
    return target.seriesKey();
  }

  private String sql(Table target) {
    List<String> arguments = new ArrayList<>();
    arguments.add(SqlText.literal(target.name().toString()));
    arguments.add(SqlText.literal(from));
    arguments.add(SqlText.literal(to));
    arguments.addAll(extraArguments());
    StringBuilder sql =
        new StringBuilder("SELECT * FROM ")
            .append(function())
            .append('(')
            .append(String.join(", ", arguments))
            .append(')');
    List<String> filters = new ArrayList<>();
    entities.forEach(
        (column, value) ->
            filters.add(SqlText.identifier(column) + " = " + SqlText.literal(value)));
    if (!filters.isEmpty()) {
      sql.append(" WHERE ").append(String.join(" AND ", filters));
    }
    List<String> order = order(target);
    if (!order.isEmpty()) {
      sql.append(" ORDER BY ").append(SqlText.identifiers(order));
    }
    return sql.toString();
  }
}
