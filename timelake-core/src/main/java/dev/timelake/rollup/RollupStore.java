package dev.timelake.rollup;

import dev.timelake.AlreadyExistsException;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.ConflictException;
import dev.timelake.NotFoundException;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import dev.timelake.time.CalendarGrid;
import dev.timelake.time.FixedGrid;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Creates and drops rollup tables, and lists a raw table's rollups. A rollup is an ordinary
 * Timelake table (time column: the bucket; series key: the grouping columns; dedup on; no
 * insertion-time column) whose properties hold its definition; the raw table lists it in {@code
 * timelake.rollups}.
 */
public final class RollupStore {
  private static final long HOUR_MICROS = 3_600_000_000L;

  /** Attempts to update a raw table's list of rollups against concurrent updates. */
  private static final int MAX_LIST_UPDATES = 10;

  private RollupStore() {}

  /** Creates the rollup table for {@code definition}; it starts empty (refresh fills it). */
  public static Rollup create(LakeCatalog catalog, RollupDefinition definition) {
    if (catalog.exists(definition.name())) {
      throw new AlreadyExistsException(
          "Cannot create rollup " + definition.name() + ": a table of that name exists");
    }
    LoadedTable raw = catalog.require(definition.source());
    TableDefinition.Builder table = TableDefinition.builder(definition.name());
    for (String key : definition.keys()) {
      table.column(raw.contract().column(key).asRequired());
    }
    table.column(Column.required(definition.bucketColumn(), ColumnType.TIMESTAMPTZ));
    for (StoredAggregate aggregate : definition.aggregates()) {
      ColumnType type =
          Aggregates.of(aggregate.call()).storedType(aggregate.call(), raw.contract());
      table.column(Column.nullable(aggregate.name(), type));
    }
    table.timeColumn(definition.bucketColumn());
    if (!definition.keys().isEmpty()) {
      table.seriesKey(definition.keys().toArray(String[]::new));
    }
    table.withoutIngestTime();
    table.option("chunk", definition.grid().longestMicros() < HOUR_MICROS ? "day" : "month");
    for (Map.Entry<String, String> option : definition.options().entrySet()) {
      table.option(optionName(option.getKey()), option.getValue());
    }
    LoadedTable created = catalog.create(table.build());
    try {
      org.apache.iceberg.UpdateProperties properties =
          created
              .iceberg()
              .updateProperties()
              .set(Settings.ROLLUP_SOURCE.propertyKey(), definition.source().toString())
              .set(Settings.ROLLUP_ORIGIN.propertyKey(), Long.toString(definition.originMicros()))
              .set(Settings.ROLLUP_AGGREGATES.propertyKey(), definition.aggregatesJson())
              .set(Settings.ROLLUP_DEFINITION.propertyKey(), definition.selectSql());
      if (!definition.filter().isEmpty()) {
        properties.set(Settings.ROLLUP_FILTER.propertyKey(), definition.filter());
      }
      if (definition.grid() instanceof CalendarGrid calendar) {
        properties
            .set(Settings.ROLLUP_BUCKET.propertyKey(), calendar.width())
            .set(Settings.ROLLUP_TIME_ZONE.propertyKey(), calendar.zoneName());
      } else {
        FixedGrid fixed = (FixedGrid) definition.grid();
        properties.set(Settings.ROLLUP_BUCKET.propertyKey(), Durations.format(fixed.width()));
      }
      properties.commit();
      updateListed(raw, definition.name(), true);
    } catch (RuntimeException e) {
      catalog.drop(definition.name());
      throw e;
    }
    return Rollup.of(catalog.require(definition.name())).orElseThrow();
  }

  /** Drops a rollup table and removes it from its raw table's list. */
  public static boolean drop(LakeCatalog catalog, TableName name) {
    LoadedTable table = catalog.load(name).orElse(null);
    if (table == null) {
      return false;
    }
    Rollup rollup =
        Rollup.of(table)
            .orElseThrow(
                () ->
                    TimelakeException.validation(
                        "Cannot drop rollup %s: it is a table, not a rollup (use DROP TABLE)",
                        name));
    catalog.load(rollup.source()).ifPresent(raw -> updateListed(raw, name, false));
    return catalog.drop(name);
  }

  /**
   * The commit that removes every row of a rollup and records that it reflects nothing: routing
   * stops using it and its next refresh rebuilds it from the raw table.
   */
  public static org.apache.iceberg.DeleteFiles emptying(LoadedTable rollup, String operation) {
    var delete = rollup.deleteEveryRow(operation);
    delete.set(dev.timelake.table.SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT, "-1");
    delete.set(dev.timelake.table.SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE, "-1");
    return delete;
  }

  /** The rollup {@code name}; throws naming it when it does not exist or is not a rollup. */
  public static Rollup require(LakeCatalog catalog, TableName name) {
    LoadedTable table =
        catalog
            .load(name)
            .orElseThrow(() -> new NotFoundException("Rollup " + name + " does not exist"));
    return Rollup.of(table)
        .orElseThrow(() -> TimelakeException.validation("%s is a table, not a rollup", name));
  }

  /** The rollups of a raw table that still exist, each at its current snapshot. */
  public static List<Rollup> rollupsOf(LakeCatalog catalog, LoadedTable raw) {
    List<Rollup> rollups = new ArrayList<>();
    for (TableName name : listed(raw)) {
      catalog.load(name).flatMap(Rollup::of).ifPresent(rollups::add);
    }
    return rollups;
  }

  /** The rollups of a raw table that still exist, each pinned in {@code tables}. */
  public static List<Rollup> rollupsOf(PinnedTables tables, TableContract raw) {
    List<Rollup> rollups = new ArrayList<>();
    for (TableName name : listed(raw)) {
      tables.find(name).flatMap(Rollup::of).ifPresent(rollups::add);
    }
    return rollups;
  }

  /** True when the raw table lists rollups (they may have been dropped since). */
  public static boolean listsRollups(TableContract raw) {
    return !listed(raw).isEmpty();
  }

  private static Set<TableName> listed(LoadedTable raw) {
    return listed(raw.contract());
  }

  private static Set<TableName> listed(TableContract raw) {
    Set<TableName> names = new LinkedHashSet<>();
    for (String name : Settings.splitList(raw.settings().get(Settings.ROLLUPS.name()))) {
      names.add(TableName.parse(name));
    }
    return names;
  }

  /**
   * Lists or unlists {@code name} in the raw table's {@code timelake.rollups}. Iceberg retries a
   * property update by applying the same value again, which would drop a name another process added
   * meanwhile; so the list is read back after each commit until it says what it should.
   */
  private static void updateListed(LoadedTable raw, TableName name, boolean listed) {
    for (int attempt = 0; attempt < MAX_LIST_UPDATES; attempt++) {
      raw.iceberg().refresh();
      Set<TableName> names = new LinkedHashSet<>();
      for (String entry :
          Settings.splitList(raw.iceberg().properties().get(Settings.ROLLUPS.propertyKey()))) {
        names.add(TableName.parse(entry));
      }
      if (names.contains(name) == listed) {
        return;
      }
      if (listed) {
        names.add(name);
      } else {
        names.remove(name);
      }
      raw.iceberg()
          .updateProperties()
          .set(
              Settings.ROLLUPS.propertyKey(),
              String.join(",", names.stream().map(TableName::toString).toList()))
          .commit();
    }
    throw new ConflictException(
        "Cannot "
            + (listed ? "list" : "unlist")
            + " rollup "
            + name
            + " in "
            + raw.name()
            + ": concurrent updates of its rollups won "
            + MAX_LIST_UPDATES
            + " times; retry");
  }

  private static String optionName(String option) {
    return switch (option.toLowerCase(Locale.ROOT).replace('-', '_')) {
      case "chunk_interval" -> "chunk";
      case "refresh_interval" -> "rollup-refresh-interval";
      case "refresh_lag" -> "rollup-refresh-lag";
      case "follow_deletes" -> "rollup-follow-deletes";
      default -> option;
    };
  }
}
