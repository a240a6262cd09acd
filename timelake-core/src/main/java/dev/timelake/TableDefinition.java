package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What to create: a table name, its columns and its options. Options are settings of level create
 * or table, by any accepted spelling ({@code time_column}, {@code series-key}, {@code chunk}, …).
 *
 * <pre>{@code
 * TableDefinition readings = TableDefinition.builder("iot.readings")
 *     .column("device", ColumnType.VARCHAR)
 *     .column("time", ColumnType.TIMESTAMPTZ)
 *     .column("value", ColumnType.DOUBLE)
 *     .timeColumn("time")
 *     .seriesKey("device")
 *     .build();
 * }</pre>
 */
public record TableDefinition(TableName name, List<Column> columns, Map<String, String> options) {

  public TableDefinition {
    requireNonNull(name, "name is null");
    columns = List.copyOf(columns);
    options = Map.copyOf(options);
  }

  /** Starts a definition for the table {@code name} ({@code ns.table} or {@code table}). */
  public static Builder builder(String name) {
    return new Builder(TableName.parse(name));
  }

  /** Starts a definition for the table {@code name}. */
  public static Builder builder(TableName name) {
    return new Builder(name);
  }

  /** Builds a {@link TableDefinition}. */
  public static final class Builder {
    private final TableName name;
    private final List<Column> columns = new ArrayList<>();
    private final Map<String, String> options = new LinkedHashMap<>();

    private Builder(TableName name) {
      this.name = requireNonNull(name, "name is null");
    }

    /** Adds a nullable column. */
    public Builder column(String column, ColumnType type) {
      columns.add(Column.nullable(column, type));
      return this;
    }

    /** Adds a column. */
    public Builder column(Column column) {
      columns.add(requireNonNull(column, "column is null"));
      return this;
    }

    /** Makes this a time-series table ordered by {@code column} (TIMESTAMPTZ). */
    public Builder timeColumn(String column) {
      return option("time-column", column);
    }

    /** Sets the ordered series key. */
    public Builder seriesKey(String... columnNames) {
      return option("series-key", String.join(",", columnNames));
    }

    /** The ordered index's column; another name for {@link #timeColumn}. */
    public Builder indexColumn(String column) {
      return timeColumn(column);
    }

    /** The entity columns that identify one series; another name for {@link #seriesKey}. */
    public Builder entityColumns(String... columnNames) {
      return seriesKey(columnNames);
    }

    /**
     * Allows at most one row per series and interval of this width ({@code "1m"}, {@code "15
     * minutes"}, {@code "1h"}, {@code "1d"}); a second one fails the append.
     */
    public Builder indexGranularity(String granularity) {
      return option("index-granularity", granularity);
    }

    /**
     * What a second row of a series in one index interval does: {@code "error"} (the default) fails
     * the append, {@code "replace"} keeps the newest write per series and interval.
     */
    public Builder onConflict(String action) {
      return option("on-conflict", action);
    }

    /** Sets the time partition size (default day). */
    public Builder chunk(Chunk chunk) {
      return option("chunk", chunk.label());
    }

    /** Creates the table without the {@code _ingest_ts} insertion-time column. */
    public Builder withoutIngestTime() {
      return option("ingest-time", "false");
    }

    /** Sets any create- or table-level setting. */
    public Builder option(String setting, String value) {
      options.put(
          requireNonNull(setting, "setting is null"), requireNonNull(value, "value is null"));
      return this;
    }

    public TableDefinition build() {
      return new TableDefinition(name, columns, options);
    }
  }
}
