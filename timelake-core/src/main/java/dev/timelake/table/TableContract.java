package dev.timelake.table;

import static java.util.Objects.requireNonNull;

import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * What Timelake knows about a table, read from its {@code timelake.*} properties and schema: the
 * time column, series key, chunk, insertion-time column, every table-level setting, and for a table
 * whose schema changed the field id of each column. Immutable.
 */
public record TableContract(
    TableName name,
    List<Column> columns,
    Optional<String> timeColumn,
    List<String> seriesKey,
    Chunk chunk,
    Optional<String> ingestTimeColumn,
    Map<String, String> settings,
    Map<String, Integer> evolvedFieldIds) {

  /** The newest table format this version of Timelake reads and writes. */
  public static final int FORMAT_VERSION = 2;

  public TableContract {
    requireNonNull(name, "name is null");
    columns = List.copyOf(columns);
    requireNonNull(timeColumn, "timeColumn is null");
    seriesKey = List.copyOf(seriesKey);
    requireNonNull(chunk, "chunk is null");
    requireNonNull(ingestTimeColumn, "ingestTimeColumn is null");
    settings = Map.copyOf(settings);
    evolvedFieldIds = Map.copyOf(evolvedFieldIds);
  }

  /** A contract of a table whose schema never changed. */
  public TableContract(
      TableName name,
      List<Column> columns,
      Optional<String> timeColumn,
      List<String> seriesKey,
      Chunk chunk,
      Optional<String> ingestTimeColumn,
      Map<String, String> settings) {
    this(name, columns, timeColumn, seriesKey, chunk, ingestTimeColumn, settings, Map.of());
  }

  /** Reads the contract of an Iceberg table; refuses tables of a newer format. */
  public static TableContract of(TableName name, Table table) {
    Map<String, String> properties = table.properties();
    int format =
        Integer.parseInt(properties.getOrDefault(Settings.FORMAT_VERSION.propertyKey(), "1"));
    if (format > FORMAT_VERSION) {
      throw TimelakeException.validation(
          "Cannot open %s: its table format version %d is newer than this Timelake supports (%d);"
              + " upgrade Timelake",
          name, format, FORMAT_VERSION);
    }
    Map<String, String> settings = new TreeMap<>();
    properties.forEach(
        (key, value) -> {
          if (key.startsWith(Setting.PREFIX)) {
            settings.put(key.substring(Setting.PREFIX.length()), value);
          }
        });
    return new TableContract(
        name,
        columnsOf(table.schema()),
        Optional.ofNullable(settings.get(Settings.TIME_COLUMN.name())),
        Settings.splitList(settings.get(Settings.SERIES_KEY.name())),
        Chunk.parse(settings.getOrDefault(Settings.CHUNK.name(), "day")),
        Optional.ofNullable(settings.get(Settings.INGEST_TIME_COLUMN.name())),
        settings,
        table.schemas().size() > 1 ? fieldIds(table.schema()) : Map.of());
  }

  /** The field id of each top-level column, by name. */
  private static Map<String, Integer> fieldIds(Schema schema) {
    Map<String, Integer> ids = new java.util.LinkedHashMap<>();
    for (Types.NestedField field : schema.columns()) {
      ids.put(field.name(), field.fieldId());
    }
    return ids;
  }

  /**
   * True when the table's schema changed since it was created (a column was added): its older data
   * files lack columns, so they are read by field id, the missing columns as NULL ({@code
   * evolvedFieldIds} holds the current ids; empty otherwise).
   */
  public boolean hasEvolvedSchema() {
    return !evolvedFieldIds.isEmpty();
  }

  private static List<Column> columnsOf(Schema schema) {
    List<Column> columns = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      Column column =
          Column.nullable(field.name(), TypeMapping.fromIceberg(field.type(), field.name()));
      columns.add(field.isRequired() ? column.asRequired() : column);
    }
    return columns;
  }

  /**
   * How the rows are partitioned: by the chunk for a timestamp time column, by {@code
   * partition-width} for a BIGINT logical clock.
   */
  public Partitioning partitioning() {
    if (hasLogicalClock()) {
      return new Partitioning.Truncate(
          Long.parseLong(setting(Settings.PARTITION_WIDTH).orElseThrow()));
    }
    return new Partitioning.Time(chunk);
  }

  /** True when the time column is a BIGINT logical clock in application-defined units. */
  public boolean hasLogicalClock() {
    return timeColumn
        .map(
            time ->
                columns.stream()
                    .anyMatch(
                        c ->
                            c.name().equals(time)
                                && c.type().kind() == dev.timelake.ColumnType.Kind.BIGINT))
        .orElse(false);
  }

  /** True for a time-series table, false for a plain (dimension) table. */
  public boolean isTimeSeries() {
    return timeColumn.isPresent();
  }

  /** The key of a row, (series key…, time); empty for plain tables. */
  public List<String> keyColumns() {
    if (timeColumn.isEmpty()) {
      return List.of();
    }
    List<String> key = new ArrayList<>(seriesKey);
    key.add(timeColumn.get());
    return key;
  }

  /** The column names in schema order. */
  public List<String> columnNames() {
    return columns.stream().map(Column::name).toList();
  }

  /** The column of that name; throws naming the table when it does not exist. */
  public Column column(String columnName) {
    return columns.stream()
        .filter(c -> c.name().equals(columnName))
        .findFirst()
        .orElseThrow(
            () -> TimelakeException.validation("Table %s has no column '%s'", name, columnName));
  }

  /** The table's value of a setting, else the setting's default. */
  public Optional<String> setting(Setting setting) {
    return Optional.ofNullable(settings.get(setting.name())).or(setting::defaultValue);
  }

  /** A boolean setting's table value, else its default. */
  public boolean isEnabled(Setting setting) {
    return Boolean.parseBoolean(setting(setting).orElse("false"));
  }

  /**
   * True when the table has an index granularity: each series holds at most one row per interval
   * (the intervals: {@code dev.timelake.index.IndexIntervals.of(contract)}).
   */
  public boolean hasIndexGranularity() {
    return settings.containsKey(Settings.INDEX_GRANULARITY.name());
  }

  /**
   * True when a second row of a series in one index interval replaces the first rather than fails
   * the append ({@code on-conflict = replace}): copies are then keyed by (series key…, interval),
   * and the newest write per pair wins on read by the same rule as copies of an exact key.
   */
  public boolean replacesWithinInterval() {
    return hasIndexGranularity()
        && "replace".equals(setting(Settings.ON_CONFLICT).orElse("error"))
        && deduplicates();
  }

  /**
   * True when the column was declared UBIGINT: stored as DECIMAL(20,0), it takes unsigned input
   * only, from 0 to 2^64 − 1.
   */
  public boolean isUnsigned(String columnName) {
    return Settings.splitList(settings.get(Settings.UNSIGNED_COLUMNS.name())).contains(columnName);
  }

  /** True when copies of a key are removed (time-series table with dedup on). */
  public boolean deduplicates() {
    return isTimeSeries() && isEnabled(Settings.DEDUP);
  }
}
