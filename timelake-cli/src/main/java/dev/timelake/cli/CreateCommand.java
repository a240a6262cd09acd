package dev.timelake.cli;

import dev.timelake.Chunk;
import dev.timelake.Lake;
import dev.timelake.TableDefinition;
import dev.timelake.table.Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Creates a table from a column list and options. */
@Command(
    name = "create",
    sortOptions = false,
    description = {
      "Creates a table.",
      "With --time-column it is a time-series table: partitioned by time, each file sorted by"
          + " (series key…, time), copies of a reading removed on read (latest write wins)."
    },
    footer = {
      "%nExample:",
      "  timelake create iot.readings --columns \"tag VARCHAR, time TIMESTAMPTZ, value DOUBLE\" \\",
      "      --time-column time --series-key tag --chunk day",
      "  timelake create market.bars --columns \"symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE\" \\",
      "      --index-column ts --entity symbol --index-granularity 1m",
      "%nOptions by --option: any create- or table-level setting; see `timelake settings`."
    })
final class CreateCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Option(
      names = "--columns",
      required = true,
      paramLabel = "COLUMNS",
      description = "Comma-separated `name TYPE [NOT NULL]`, e.g. \"tag VARCHAR, value DOUBLE\".")
  private String columns;

  @Option(
      names = {"--time-column", "--index-column"},
      paramLabel = "COLUMN",
      description =
          "The time column, the table's ordered index: TIMESTAMPTZ or TIMESTAMP, or BIGINT for a"
              + " logical clock (partitioned by --option partition-width=N); makes a time-series"
              + " table.")
  private String timeColumn;

  @Option(
      names = {"--series-key", "--entity"},
      paramLabel = "COLUMN",
      split = ",",
      description =
          "Ordered columns identifying one series (entity columns), comma-separated or repeated.")
  private List<String> seriesKey = List.of();

  @Option(
      names = "--index-granularity",
      paramLabel = "WIDTH",
      description =
          "At most one row per series and interval of this width: 1m, 15 minutes, 1h, 1d. A"
              + " second row fails the append (see --on-conflict).")
  private String indexGranularity;

  @Option(
      names = "--on-conflict",
      paramLabel = "ACTION",
      description =
          "With --index-granularity, a second row of a series in one interval: error (default)"
              + " fails the append, replace keeps the newest write.")
  private String onConflict;

  @Option(
      names = "--chunk",
      paramLabel = "SIZE",
      description = "Time partition size: hour, day (default) or month.")
  private String chunk;

  @Option(
      names = "--no-ingest-time",
      description = "Create no _ingest_ts insertion-time column (dedup then keeps any one copy).")
  private boolean noIngestTime;

  @Option(
      names = "--option",
      paramLabel = "KEY=VALUE",
      description = "A table setting, e.g. --option compression-codec=snappy (repeatable).")
  private Map<String, String> options = new LinkedHashMap<>();

  @Override
  int run() {
    TableDefinition.Builder definition = TableDefinition.builder(table);
    ColumnList.parse(columns).forEach(definition::column);
    if (timeColumn != null) {
      definition.timeColumn(timeColumn);
    }
    if (!seriesKey.isEmpty()) {
      definition.seriesKey(seriesKey.stream().map(String::strip).toArray(String[]::new));
    }
    if (indexGranularity != null) {
      definition.indexGranularity(indexGranularity);
    }
    if (onConflict != null) {
      definition.onConflict(onConflict);
    }
    if (chunk != null) {
      definition.chunk(Chunk.parse(chunk));
    }
    if (noIngestTime) {
      definition.withoutIngestTime();
    }
    options.forEach((key, value) -> definition.option(Settings.require(key).name(), value));
    TableDefinition built = definition.build();
    try (Lake lake = main.openLake()) {
      lake.createTable(built);
    }
    out().println("Created table " + built.name());
    return 0;
  }
}
