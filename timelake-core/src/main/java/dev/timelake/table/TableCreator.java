package dev.timelake.table;

import dev.timelake.AlreadyExistsException;
import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TableDefinition;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * Validates a {@link TableDefinition} and creates the Iceberg table that carries its contract:
 * schema with Iceberg field ids, partition spec on the time column, sort order (series key…, time),
 * format v2 and the {@code timelake.*} properties.
 */
public final class TableCreator {
  /** The insertion-time column every time-series table gets unless created without it. */
  public static final String INGEST_TIME_COLUMN = "_ingest_ts";

  private static final Set<ColumnType.Kind> SERIES_KEY_KINDS =
      Set.of(
          ColumnType.Kind.VARCHAR,
          ColumnType.Kind.INTEGER,
          ColumnType.Kind.BIGINT,
          ColumnType.Kind.UBIGINT);

  private final TableDefinition definition;
  private final Map<String, String> options = new LinkedHashMap<>();

  private TableCreator(TableDefinition definition) {
    this.definition = definition;
    definition
        .options()
        .forEach(
            (key, value) -> {
              Setting setting = Settings.require(key);
              if (!setting.allows(Level.CREATE) && !setting.allows(Level.TABLE)) {
                throw TimelakeException.validation(
                    "Cannot create %s: setting '%s' cannot be set on a table (allowed: %s)",
                    definition.name(), setting.name(), setting.levelNames());
              }
              String canonical = setting.canonical(value);
              String earlier = options.put(setting.name(), canonical);
              if (earlier != null && !earlier.equals(canonical)) {
                throw TimelakeException.validation(
                    "Cannot create %s: setting '%s' is given twice, as '%s' and '%s' (index_column"
                        + " is another name for time_column, entity_columns for series_key)",
                    definition.name(), setting.name(), earlier, canonical);
              }
            });
  }

  /** Creates the table described by {@code definition} in {@code catalog}. */
  public static Table create(Catalog catalog, TableDefinition definition) {
    return create(catalog, definition, Optional.empty());
  }

  /**
   * Creates the table described by {@code definition} in {@code catalog}, in {@code location} when
   * given, else where the catalog places it.
   */
  public static Table create(
      Catalog catalog, TableDefinition definition, Optional<String> location) {
    definition.name().requireCreatable();
    return new TableCreator(definition).create(catalog, location);
  }

  private Table create(Catalog catalog, Optional<String> location) {
    Optional<String> timeColumn = Optional.ofNullable(options.get(Settings.TIME_COLUMN.name()));
    List<String> seriesKey = Settings.splitList(options.get(Settings.SERIES_KEY.name()));
    List<Column> columns = validatedColumns(timeColumn, seriesKey);
    Schema schema = schema(columns);
    PartitionSpec spec = partitionSpec(schema, timeColumn);
    SortOrder sortOrder = sortOrder(schema, timeColumn, seriesKey);
    Map<String, String> properties = properties(timeColumn, columns);
    TableIdentifier identifier =
        TableIdentifier.of(definition.name().namespace(), definition.name().name());
    ensureNamespace(catalog, identifier.namespace());
    if (catalog.tableExists(identifier)) {
      throw new AlreadyExistsException(
          "Cannot create " + definition.name() + ": it already exists");
    }
    try {
      var builder = catalog.buildTable(identifier, schema);
      location.ifPresent(builder::withLocation);
      return builder
          .withPartitionSpec(spec)
          .withSortOrder(sortOrder)
          .withProperties(properties)
          .create();
    } catch (org.apache.iceberg.exceptions.AlreadyExistsException e) {
      throw new AlreadyExistsException(
          "Cannot create " + definition.name() + ": it already exists", e);
    }
  }

  private List<Column> validatedColumns(Optional<String> timeColumn, List<String> seriesKey) {
    return storedUnsigned(declaredColumns(timeColumn, seriesKey));
  }

  /**
   * The columns with each UBIGINT one stored as DECIMAL(20,0), their names recorded in {@code
   * timelake.unsigned-columns}; an unsigned type inside a STRUCT or LIST is refused (nothing would
   * record it).
   */
  private List<Column> storedUnsigned(List<Column> declared) {
    List<Column> stored = new ArrayList<>();
    List<String> unsigned = new ArrayList<>();
    for (Column column : declared) {
      if (column.type().kind() == ColumnType.Kind.UBIGINT) {
        unsigned.add(column.name());
        Column decimal = Column.nullable(column.name(), ColumnType.UNSIGNED_STORAGE);
        stored.add(column.isNullable() ? decimal : decimal.asRequired());
      } else {
        if (column.type().isNested() && column.type().sql().contains("UBIGINT")) {
          throw TimelakeException.validation(
              "Cannot create %s: column '%s' has UBIGINT inside %s; unsigned integers are"
                  + " supported as top-level columns only (use DECIMAL(20,0) inside)",
              definition.name(), column.name(), column.type().sql());
        }
        stored.add(column);
      }
    }
    if (!unsigned.isEmpty()) {
      options.put(Settings.UNSIGNED_COLUMNS.name(), String.join(",", unsigned));
    }
    return stored;
  }

  private List<Column> declaredColumns(Optional<String> timeColumn, List<String> seriesKey) {
    String table = definition.name().toString();
    if (definition.columns().isEmpty()) {
      throw TimelakeException.validation("Cannot create %s: it has no columns", table);
    }
    Set<String> seen = new HashSet<>();
    for (Column column : definition.columns()) {
      if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
        throw TimelakeException.validation(
            "Cannot create %s: column '%s' is declared twice", table, column.name());
      }
    }
    if (timeColumn.isEmpty()) {
      for (Setting indexOnly : List.of(Settings.INDEX_GRANULARITY, Settings.ON_CONFLICT)) {
        if (options.containsKey(indexOnly.name())) {
          throw TimelakeException.validation(
              "Cannot create %s: %s needs an index column (set time_column or index_column)",
              table, indexOnly.sqlName().substring(Setting.PREFIX.length()));
        }
      }
      if (!seriesKey.isEmpty()) {
        throw TimelakeException.validation(
            "Cannot create %s: a series key needs a time column (set time_column)", table);
      }
      return definition.columns();
    }
    String time = timeColumn.get();
    List<Column> columns = new ArrayList<>();
    for (Column column : definition.columns()) {
      columns.add(keyed(column, time, seriesKey) ? column.asRequired() : column);
    }
    Column timeDef = find(columns, time, "time column");
    if (timeDef.type().kind() != ColumnType.Kind.TIMESTAMPTZ
        && timeDef.type().kind() != ColumnType.Kind.TIMESTAMP
        && timeDef.type().kind() != ColumnType.Kind.BIGINT) {
      throw TimelakeException.validation(
          "Cannot create %s: time column '%s' has type %s (expected TIMESTAMPTZ or TIMESTAMP, or"
              + " BIGINT for a logical clock)",
          table, time, timeDef.type());
    }
    validatePartitioning(timeDef);
    Set<String> keySeen = new HashSet<>();
    for (String key : seriesKey) {
      Column keyDef = find(columns, key, "series-key column");
      if (key.equals(time)) {
        throw TimelakeException.validation(
            "Cannot create %s: the time column '%s' cannot also be a series-key column",
            table, key);
      }
      if (!keySeen.add(key)) {
        throw TimelakeException.validation(
            "Cannot create %s: series-key column '%s' is listed twice", table, key);
      }
      if (!SERIES_KEY_KINDS.contains(keyDef.type().kind())) {
        throw TimelakeException.validation(
            "Cannot create %s: series-key column '%s' has type %s (expected VARCHAR, INTEGER,"
                + " BIGINT or UBIGINT)",
            table, key, keyDef.type());
      }
    }
    validateGranularity(time, timeDef);
    if (ingestTime() && seen.contains(INGEST_TIME_COLUMN)) {
      throw TimelakeException.validation(
          "Cannot create %s: column '%s' is reserved for the insertion time (create with"
              + " ingest_time = false to use it yourself)",
          table, INGEST_TIME_COLUMN);
    }
    if (ingestTime()) {
      columns.add(Column.required(INGEST_TIME_COLUMN, ColumnType.TIMESTAMPTZ));
    }
    return columns;
  }

  /**
   * Checks index_granularity against the index column's type and stores its canonical spelling;
   * on_conflict needs a granularity.
   */
  private void validateGranularity(String time, Column timeDef) {
    String text = options.get(Settings.INDEX_GRANULARITY.name());
    if (text == null) {
      if (options.containsKey(Settings.ON_CONFLICT.name())) {
        throw TimelakeException.validation(
            "Cannot create %s: on_conflict applies to a table with an index_granularity (set"
                + " index_granularity, e.g. '1m')",
            definition.name());
      }
      return;
    }
    IndexGranularity granularity;
    try {
      granularity = IndexGranularity.forColumn(timeDef.type(), text);
    } catch (InvalidGranularityException e) {
      throw e.in("Cannot create " + definition.name() + ", index column '" + time + "'");
    }
    options.put(Settings.INDEX_GRANULARITY.name(), granularity.toString());
    if ("replace".equals(options.get(Settings.ON_CONFLICT.name()))) {
      validateReplace(granularity);
    }
  }

  /**
   * {@code on_conflict = 'replace'} removes replaced rows through dedup, and compaction merges
   * copies partition by partition: each interval must lie inside one time partition.
   */
  private void validateReplace(IndexGranularity granularity) {
    if (!Boolean.parseBoolean(options.getOrDefault(Settings.DEDUP.name(), "true"))) {
      throw TimelakeException.validation(
          "Cannot create %s: on_conflict = 'replace' keeps the newest row per interval by"
              + " removing replaced rows on read, which dedup = false turns off (drop one of the"
              + " two settings)",
          definition.name());
    }
    if (granularity instanceof IndexGranularity.Count count) {
      long partitionWidth = partitionWidth();
      if (Long.compareUnsigned(count.width(), partitionWidth) > 0
          || partitionWidth % count.width() != 0) {
        throw TimelakeException.validation(
            "Cannot create %s: on_conflict = 'replace' needs every index interval inside one"
                + " partition, which holds for a granularity that divides the partition_width"
                + " (%d), and %s does not",
            definition.name(), partitionWidth, granularity);
      }
      return;
    }
    Chunk chunk = Chunk.parse(options.getOrDefault(Settings.CHUNK.name(), "day"));
    long partitionSeconds = chunk == Chunk.HOUR ? 3_600 : 86_400;
    long width = ((IndexGranularity.Time) granularity).widthSeconds();
    if (partitionSeconds % width != 0) {
      throw TimelakeException.validation(
          "Cannot create %s: on_conflict = 'replace' needs every index interval inside one time"
              + " partition (chunk %s), which holds for a granularity that divides %s, and %s"
              + " does not",
          definition.name(), chunk.label(), chunk == Chunk.HOUR ? "an hour" : "a day", granularity);
    }
  }

  /**
   * A BIGINT clock is partitioned by partition_width (Iceberg truncate), a timestamp by its chunk;
   * each table refuses the other's setting, and a clock's table refuses the time-based ones.
   */
  private void validatePartitioning(Column timeDef) {
    boolean clock = timeDef.type().kind() == ColumnType.Kind.BIGINT;
    if (!clock && options.containsKey(Settings.PARTITION_WIDTH.name())) {
      throw TimelakeException.validation(
          "Cannot create %s: partition_width applies to a BIGINT time column; time column '%s' is"
              + " %s, partitioned by chunk (hour, day or month)",
          definition.name(), timeDef.name(), timeDef.type());
    }
    if (clock) {
      for (Setting timeOnly : List.of(Settings.CHUNK, Settings.RETENTION)) {
        if (options.containsKey(timeOnly.name())) {
          throw TimelakeException.validation(
              "Cannot create %s: %s needs a timestamp time column; '%s' is a BIGINT logical clock"
                  + " (partition it with partition_width, in its own units)",
              definition.name(),
              timeOnly.sqlName().substring(Setting.PREFIX.length()),
              timeDef.name());
        }
      }
      // Stored even when defaulted: its presence marks the clock for the steps after this one.
      options.putIfAbsent(
          Settings.PARTITION_WIDTH.name(), Settings.PARTITION_WIDTH.defaultValue().orElseThrow());
      new Partitioning.Truncate(partitionWidth());
    }
  }

  /** The validated partition width of a logical clock's table. */
  private long partitionWidth() {
    return Long.parseLong(options.get(Settings.PARTITION_WIDTH.name()));
  }

  private static boolean keyed(Column column, String time, List<String> seriesKey) {
    return column.name().equals(time) || seriesKey.contains(column.name());
  }

  private Column find(List<Column> columns, String name, String role) {
    return columns.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                TimelakeException.validation(
                    "Cannot create %s: %s '%s' is not a column (columns: %s)",
                    definition.name(),
                    role,
                    name,
                    String.join(", ", definition.columns().stream().map(Column::name).toList())));
  }

  private boolean ingestTime() {
    return Boolean.parseBoolean(options.getOrDefault(Settings.INGEST_TIME.name(), "true"))
        && options.containsKey(Settings.TIME_COLUMN.name());
  }

  private static Schema schema(List<Column> columns) {
    List<Types.NestedField> fields = new ArrayList<>();
    int id = 1;
    // Nested fields number after the top-level columns, which keep ids 1…n.
    int[] nestedId = {columns.size()};
    for (Column column : columns) {
      fields.add(
          Types.NestedField.of(
              id++,
              column.isNullable(),
              column.name(),
              TypeMapping.toIceberg(column.type(), () -> ++nestedId[0])));
    }
    return new Schema(fields);
  }

  private PartitionSpec partitionSpec(Schema schema, Optional<String> timeColumn) {
    if (timeColumn.isEmpty()) {
      return PartitionSpec.unpartitioned();
    }
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    if (options.containsKey(Settings.PARTITION_WIDTH.name())) {
      return builder.truncate(timeColumn.get(), Math.toIntExact(partitionWidth())).build();
    }
    Chunk chunk = Chunk.parse(options.getOrDefault(Settings.CHUNK.name(), "day"));
    return switch (chunk) {
      case HOUR -> builder.hour(timeColumn.get()).build();
      case DAY -> builder.day(timeColumn.get()).build();
      case MONTH -> builder.month(timeColumn.get()).build();
    };
  }

  private static SortOrder sortOrder(Schema schema, Optional<String> time, List<String> seriesKey) {
    if (time.isEmpty()) {
      return SortOrder.unsorted();
    }
    SortOrder.Builder builder = SortOrder.builderFor(schema);
    seriesKey.forEach(builder::asc);
    return builder.asc(time.get()).build();
  }

  private Map<String, String> properties(Optional<String> timeColumn, List<Column> columns) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, "2");
    // One metadata file per commit would pile up under minute appends; keep the last few.
    properties.put(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
    properties.put(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "20");
    // Concurrent appenders retry on conflicts; bounded waits keep a losing writer responsive.
    properties.put(TableProperties.COMMIT_NUM_RETRIES, "8");
    properties.put(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2000");
    properties.put(
        Settings.FORMAT_VERSION.propertyKey(), Integer.toString(TableContract.FORMAT_VERSION));
    options.forEach(
        (name, value) -> {
          if (!name.equals(Settings.INGEST_TIME.name())) {
            properties.put(Setting.PREFIX + name, value);
          }
        });
    if (timeColumn.isPresent()) {
      if (!options.containsKey(Settings.PARTITION_WIDTH.name())) {
        properties.putIfAbsent(Settings.CHUNK.propertyKey(), "day");
      }
      if (ingestTime()) {
        properties.put(Settings.INGEST_TIME_COLUMN.propertyKey(), INGEST_TIME_COLUMN);
      }
    }
    properties.put(
        TableProperties.PARQUET_COMPRESSION,
        options.getOrDefault(Settings.COMPRESSION_CODEC.name(), "zstd"));
    return properties;
  }

  /** Creates the namespace unless it exists (or the catalog has none). */
  public static void ensureNamespace(Catalog catalog, Namespace namespace) {
    if (catalog instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(namespace)) {
      try {
        namespaces.createNamespace(namespace);
      } catch (org.apache.iceberg.exceptions.AlreadyExistsException e) {
        // Another process created it first; that is what we wanted.
      }
    }
  }
}
