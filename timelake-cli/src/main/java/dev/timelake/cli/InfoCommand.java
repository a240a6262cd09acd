package dev.timelake.cli;

import dev.timelake.Column;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableInfo;
import dev.timelake.TableInfo.PartitionInfo;
import dev.timelake.TableInfo.SnapshotInfo;
import dev.timelake.table.Level;
import dev.timelake.table.Setting;
import dev.timelake.table.Settings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Describes a table: schema, settings, partitions and snapshot history. */
@Command(
    name = "info",
    description = {
      "Describes a table.",
      "Columns and their roles, settings, partitions (files, rows, bytes, files in overlap groups) and the snapshot"
          + " history."
    },
    footer = {"%nExample:", "  timelake info iot.readings"})
final class InfoCommand extends LakeCommand {
  static final String BATCH_ID_SUMMARY = "timelake.batch-id";
  static final String ADDED_RECORDS_SUMMARY = "added-records";
  static final String DELETED_RECORDS_SUMMARY = "deleted-records";

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Override
  int run() {
    try (Lake lake = main.openLake()) {
      Table loaded = lake.table(table);
      TableInfo info = loaded.info();
      PrintStream out = out();
      out.println(
          "Table "
              + info.name()
              + " ("
              + (loaded.timeColumn().isPresent() ? "time-series" : "plain")
              + ")");
      out.println("Location: " + info.location());
      out.println(
          "Current snapshot: "
              + (loaded.snapshotId().isPresent()
                  ? Long.toString(loaded.snapshotId().getAsLong())
                  : "none"));
      hotTier(lake, loaded.name()).ifPresent(out::println);
      section("Columns", List.of("column", "type", "null", "role"), columns(loaded));
      section("Settings", List.of("setting", "value", "source"), settings(info.settings()));
      section(
          "Partitions",
          List.of("partition", "files", "rows", "bytes", "overlapping files"),
          partitions(info));
      section(
          "Snapshots",
          List.of(
              "snapshot",
              "sequence",
              "committed at",
              "operation",
              "rows added",
              "rows removed",
              "batch id",
              "user"),
          snapshots(info));
    }
    return 0;
  }

  /**
   * What a server's hot tier held of the table when it last said so (it says so every second while
   * it holds rows): acknowledged writes not yet in the table.
   */
  static java.util.Optional<String> hotTier(Lake lake, dev.timelake.TableName table) {
    return dev.timelake.server.HotTierStatus.read(lake)
        .flatMap(
            status -> {
              var held = status.tables().get(table);
              if (held == null) {
                return java.util.Optional.empty();
              }
              long age =
                  java.time.Duration.between(status.at(), java.time.Instant.now()).toSeconds();
              return java.util.Optional.of(
                  String.format(
                      java.util.Locale.ROOT,
                      "Hot tier: %,d %s answered by the server and not yet committed (the"
                          + " oldest %.1f s old)%s",
                      held.rows(),
                      held.rows() == 1 ? "row" : "rows",
                      held.oldest().toMillis() / 1000.0,
                      age <= 5
                          ? ""
                          : " as of "
                              + age
                              + " s ago: is the server still running? It commits"
                              + " them when it starts again"));
            });
  }

  private void section(String title, List<String> columns, List<List<Object>> rows) {
    out().println();
    out().println(title);
    RowPrinter printer = TablePrinter.forReport(out());
    printer.header(columns);
    rows.forEach(printer::row);
    printer.finish();
  }

  private static List<List<Object>> columns(Table table) {
    List<List<Object>> rows = new ArrayList<>();
    for (Column column : table.columns()) {
      rows.add(
          List.of(
              column.name(),
              unsigned(table, column.name())
                  ? "UBIGINT (stored as " + column.type().sql() + ")"
                  : column.type().sql(),
              column.isNullable() ? "nullable" : "not null",
              role(table, column.name())));
    }
    return rows;
  }

  private static boolean unsigned(Table table, String column) {
    return Settings.splitList(table.settings().get(Settings.UNSIGNED_COLUMNS.name()))
        .contains(column);
  }

  private static String role(Table table, String column) {
    if (table.timeColumn().filter(column::equals).isPresent()) {
      return "time";
    }
    int position = table.seriesKey().indexOf(column);
    if (position >= 0) {
      return table.seriesKey().size() == 1 ? "series key" : "series key " + (position + 1);
    }
    if (table.ingestTimeColumn().filter(column::equals).isPresent()) {
      return "insertion time";
    }
    return "";
  }

  /** Stored settings, then the defaults of table-level settings the table does not set. */
  private static List<List<Object>> settings(Map<String, String> stored) {
    List<List<Object>> rows = new ArrayList<>();
    new TreeMap<>(stored).forEach((name, value) -> rows.add(List.of(name, value, "table")));
    for (Setting setting : Settings.all()) {
      if (setting.allows(Level.TABLE)
          && !stored.containsKey(setting.name())
          && setting.defaultValue().isPresent()) {
        rows.add(List.of(setting.name(), setting.defaultValue().get(), "default"));
      }
    }
    return rows;
  }

  private static List<List<Object>> partitions(TableInfo info) {
    List<List<Object>> rows = new ArrayList<>();
    for (PartitionInfo partition : info.partitions()) {
      rows.add(
          List.of(
              partition.label(),
              partition.files(),
              partition.rows(),
              bytes(partition.bytes()),
              partition.overlappingFiles()));
    }
    rows.add(
        List.of(
            "total",
            info.files(),
            info.rows(),
            bytes(info.bytes()),
            info.partitions().stream().mapToInt(PartitionInfo::overlappingFiles).sum()));
    return rows;
  }

  private static List<List<Object>> snapshots(TableInfo info) {
    List<List<Object>> rows = new ArrayList<>();
    for (SnapshotInfo snapshot : info.snapshots()) {
      List<Object> row = new ArrayList<>();
      row.add(snapshot.id());
      row.add(snapshot.sequenceNumber());
      row.add(snapshot.committedAt());
      // Timelake's name of what wrote it (a delete and a compaction are both Iceberg's replace).
      row.add(
          snapshot.isExternal()
              ? snapshot.operation() + " (another engine)"
              : snapshot.summary().get("timelake.operation"));
      row.add(count(snapshot, ADDED_RECORDS_SUMMARY));
      row.add(count(snapshot, DELETED_RECORDS_SUMMARY));
      row.add(snapshot.summary().get(BATCH_ID_SUMMARY));
      // Who wrote it, when a server's client did; embedded writers record no user.
      row.add(snapshot.summary().get(dev.timelake.table.SnapshotSummaries.USER));
      rows.add(row);
    }
    return rows;
  }

  /** A row count of Iceberg's snapshot summary, or null when it has none. */
  private static Long count(SnapshotInfo snapshot, String key) {
    String value = snapshot.summary().get(key);
    return value == null ? null : Long.valueOf(value);
  }

  /** A byte count for people: {@code 812 B}, {@code 1.6 KiB}, {@code 2.0 MiB}. */
  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
