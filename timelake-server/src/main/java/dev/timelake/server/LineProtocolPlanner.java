package dev.timelake.server;

import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Checks a line-protocol request against the lake before anything is written, and plans each
 * table's part of it ({@link LineProtocolBatch}): the table's name, the columns the points need
 * (the existing table's, or chosen for a new one), every point's tags, fields, values and time
 * checked against them. Reads the lake, changes nothing; a point that cannot be written is refused
 * with a {@link LineProtocolWriter.Rejected} naming its line.
 */
final class LineProtocolPlanner {
  /** The most tables one request may write: each is planned under its own lock. */
  static final int MAX_MEASUREMENTS = 1_000;

  /**
   * The longest namespace or measurement name: each is a folder name in the warehouse (at most 255
   * bytes on common file systems) and a catalog key; this leaves room to spare.
   */
  static final int MAX_NAME_LENGTH = 128;

  private final Lake lake;

  LineProtocolPlanner(Lake lake) {
    this.lake = lake;
  }

  /**
   * The points by table, in name order (the planning locks of several tables are always taken in
   * that order). Measurements that differ only in case are one table, as in SQL.
   */
  static Map<TableName, List<LineProtocol.Point>> byTable(
      String namespace, List<LineProtocol.Point> points) {
    Map<String, TableName> names = new java.util.HashMap<>();
    Map<TableName, List<LineProtocol.Point>> byTable = new java.util.TreeMap<>();
    for (LineProtocol.Point point : points) {
      TableName name = names.get(point.measurement());
      if (name == null) {
        name = tableName(namespace, point);
        names.put(point.measurement(), name);
      }
      byTable.computeIfAbsent(name, table -> new ArrayList<>()).add(point);
      if (byTable.size() > MAX_MEASUREMENTS) {
        throw new LineProtocolWriter.Rejected(
            lineOf(point)
                + "the request writes more than "
                + MAX_MEASUREMENTS
                + " measurements; at most "
                + MAX_MEASUREMENTS
                + " may be written at once");
      }
    }
    return byTable;
  }

  /**
   * The table {@code point}'s measurement names in {@code namespace}, which a line-protocol write
   * may create: a valid name, not reserved for DuckDB, PostgreSQL clients or Timelake, and short
   * enough to be a folder name.
   */
  private static TableName tableName(String namespace, LineProtocol.Point point) {
    TableName name;
    try {
      name = new TableName(namespace, point.measurement()).requireCreatable();
    } catch (TimelakeException e) {
      throw new LineProtocolWriter.Rejected(lineOf(point) + e.getMessage());
    }
    if (name.namespace().length() > MAX_NAME_LENGTH || name.name().length() > MAX_NAME_LENGTH) {
      boolean namespaceTooLong = name.namespace().length() > MAX_NAME_LENGTH;
      String part = namespaceTooLong ? name.namespace() : name.name();
      throw new LineProtocolWriter.Rejected(
          lineOf(point)
              + "Cannot create a table named after "
              + (namespaceTooLong ? "namespace '" : "measurement '")
              + (part.length() > 40 ? part.substring(0, 40) + "…" : part)
              + "': it is "
              + part.length()
              + " characters long, at most "
              + MAX_NAME_LENGTH
              + " are allowed");
    }
    return name;
  }

  /**
   * The columns the points need, checked against the existing table (or chosen for a new one), and
   * every point's values checked against them.
   */
  LineProtocolBatch plan(TableName name, List<LineProtocol.Point> points) {
    Optional<Table> existing = lake.findTable(name);
    existing.ifPresent(table -> requireTimeColumn(table, points.get(0)));
    requireStorableTimes(
        name, existing.map(Table::chunk).orElse(LineProtocolWriter.NEW_TABLE_CHUNK), points);
    Map<String, ColumnType> known = new LinkedHashMap<>();
    existing.ifPresent(table -> table.columns().forEach(c -> known.put(c.name(), c.type())));
    // The insertion-time column Timelake fills itself: a new table gets one, an existing one may
    // have none (then 'time' is the only name Timelake keeps for itself).
    String ingest =
        existing.isPresent()
            ? existing.get().ingestTimeColumn().orElse(LineProtocolWriter.TIME_COLUMN)
            : dev.timelake.table.TableCreator.INGEST_TIME_COLUMN;
    Map<String, ColumnType> added = new LinkedHashMap<>();
    Map<String, Integer> tagLines = new java.util.HashMap<>();
    // Column names are case-insensitive in SQL: 'Temp' and 'temp' cannot be two columns.
    Map<String, String> spellings = new java.util.HashMap<>();
    known
        .keySet()
        .forEach(column -> spellings.put(column.toLowerCase(java.util.Locale.ROOT), column));
    for (LineProtocol.Point point : points) {
      for (String tag : point.tags().keySet()) {
        reserved(point, tag, ingest);
        sameSpelling(name, point, tag, spellings);
        tagLines.merge(tag, 1, Integer::sum);
        ColumnType type = known.containsKey(tag) ? known.get(tag) : added.get(tag);
        if (type == null) {
          added.put(tag, ColumnType.VARCHAR);
        } else if (type.kind() != ColumnType.Kind.VARCHAR) {
          throw new LineProtocolWriter.Rejected(
              lineOf(point)
                  + "tag '"
                  + tag
                  + "' is text, but column "
                  + name
                  + "."
                  + tag
                  + " is "
                  + type.sql()
                  + "; send it as a field, or use another tag name");
        }
      }
      for (LineProtocol.Field field : point.fields()) {
        reserved(point, field.name(), ingest);
        sameSpelling(name, point, field.name(), spellings);
        if (point.tags().containsKey(field.name())) {
          throw new LineProtocolWriter.Rejected(
              lineOf(point) + "'" + field.name() + "' is both a tag and a field of this line");
        }
        ColumnType type =
            known.containsKey(field.name()) ? known.get(field.name()) : added.get(field.name());
        if (type == null) {
          added.put(field.name(), columnType(field.type()));
        } else {
          check(name, point, field, type);
        }
      }
    }
    if (existing.isPresent()) {
      requireEveryLineFills(name, existing.get(), points);
    }
    // A new table's series key: the tags every line has (a tag some lines lack is a column).
    List<String> seriesKey =
        new TreeSet<>(tagLines.keySet())
            .stream().filter(tag -> tagLines.get(tag) == points.size()).toList();
    Map<String, ColumnType> columns = new LinkedHashMap<>();
    columns.put(LineProtocolWriter.TIME_COLUMN, ColumnType.TIMESTAMPTZ);
    columns.putAll(known);
    columns.putAll(added);
    columns.remove(dev.timelake.table.TableCreator.INGEST_TIME_COLUMN);
    return new LineProtocolBatch(name, existing.isEmpty(), seriesKey, columns, added, points);
  }

  /**
   * Fails when {@code column} is already a column, or another name of this request, in another
   * case.
   */
  private static void sameSpelling(
      TableName table, LineProtocol.Point point, String column, Map<String, String> spellings) {
    String earlier = spellings.putIfAbsent(column.toLowerCase(java.util.Locale.ROOT), column);
    if (earlier != null && !earlier.equals(column)) {
      throw new LineProtocolWriter.Rejected(
          lineOf(point)
              + "'"
              + column
              + "' and '"
              + earlier
              + "' of "
              + table
              + " differ only in case, and column names are not case-sensitive; use one spelling");
    }
  }

  /** Fails naming the first line without a series-key tag or a value of a required column. */
  private static void requireEveryLineFills(
      TableName name, Table table, List<LineProtocol.Point> points) {
    String ingest = table.ingestTimeColumn().orElse("");
    List<String> required =
        table.columns().stream()
            .filter(column -> !column.isNullable())
            .map(Column::name)
            .filter(
                column -> !column.equals(LineProtocolWriter.TIME_COLUMN) && !column.equals(ingest))
            .toList();
    if (required.isEmpty()) {
      return;
    }
    for (LineProtocol.Point point : points) {
      for (String column : required) {
        if (!point.tags().containsKey(column)
            && point.fields().stream().noneMatch(field -> field.name().equals(column))) {
          throw new LineProtocolWriter.Rejected(
              lineOf(point)
                  + "no value for '"
                  + column
                  + "', which every row of "
                  + name
                  + " needs"
                  + (table.seriesKey().contains(column) ? " (a tag of its series key)" : ""));
        }
      }
    }
  }

  /** Fails for a tag or field named (in any case) like the time or insertion-time column. */
  private static void reserved(LineProtocol.Point point, String name, String ingest) {
    if (name.equalsIgnoreCase(LineProtocolWriter.TIME_COLUMN) || name.equalsIgnoreCase(ingest)) {
      throw new LineProtocolWriter.Rejected(
          lineOf(point)
              + "'"
              + name
              + "' is a column Timelake sets itself (the point's timestamp and insertion time);"
              + " rename the tag or field");
    }
  }

  /** Fails unless {@code table}'s time column is {@code time}, a TIMESTAMPTZ. */
  private static void requireTimeColumn(Table table, LineProtocol.Point first) {
    Optional<ColumnType> type =
        table.columns().stream()
            .filter(column -> column.name().equals(LineProtocolWriter.TIME_COLUMN))
            .map(Column::type)
            .findFirst();
    if (!table.timeColumn().orElse("").equals(LineProtocolWriter.TIME_COLUMN)) {
      throw new LineProtocolWriter.Rejected(
          lineOf(first)
              + "Table "
              + table.name()
              + " is not a line-protocol table: its time column is "
              + table.timeColumn().map(c -> "'" + c + "'").orElse("missing")
              + ", line protocol writes 'time'");
    }
    if (type.isEmpty() || type.get().kind() != ColumnType.Kind.TIMESTAMPTZ) {
      throw new LineProtocolWriter.Rejected(
          lineOf(first)
              + "Table "
              + table.name()
              + " is not a line-protocol table: its time column 'time' is "
              + type.map(ColumnType::sql).orElse("missing")
              + ", line protocol writes TIMESTAMPTZ");
    }
  }

  /**
   * Fails naming the first point whose time {@code table} cannot store: outside DuckDB's
   * TIMESTAMPTZ, or in a partition whose number (hours, days or months since 1970) does not fit in
   * 32 bits, as Iceberg's partition transforms need.
   */
  private static void requireStorableTimes(
      TableName table, Chunk chunk, List<LineProtocol.Point> points) {
    long earliest = Long.MAX_VALUE;
    long latest = Long.MIN_VALUE;
    for (LineProtocol.Point point : points) {
      earliest = Math.min(earliest, point.micros());
      latest = Math.max(latest, point.micros());
    }
    // Partition numbers grow with time: when the extremes fit, every point between them does.
    if (isStorable(chunk, earliest) && isStorable(chunk, latest)) {
      return;
    }
    for (LineProtocol.Point point : points) {
      if (!isStorable(chunk, point.micros())) {
        String time = Instant.EPOCH.plus(point.micros(), ChronoUnit.MICROS).toString();
        throw new LineProtocolWriter.Rejected(
            lineOf(point)
                + (point.micros() < LineProtocol.EARLIEST_MICROS
                        || point.micros() > LineProtocol.LATEST_MICROS
                    ? "time " + time + " is not within " + LineProtocol.STORABLE_TIMES
                    : "time "
                        + time
                        + " is beyond the "
                        + chunk.label()
                        + " partitions of "
                        + table
                        + " (their number since 1970 must fit in 32 bits)"));
      }
    }
  }

  private static boolean isStorable(Chunk chunk, long micros) {
    if (micros < LineProtocol.EARLIEST_MICROS || micros > LineProtocol.LATEST_MICROS) {
      return false;
    }
    try {
      dev.timelake.table.TimePartitions.ordinal(chunk, micros);
      return true;
    } catch (ArithmeticException | java.time.DateTimeException e) {
      return false;
    }
  }

  private static String lineOf(LineProtocol.Point point) {
    return "line " + point.line() + ": ";
  }

  /** The column type a new field gets. */
  private static ColumnType columnType(LineProtocol.FieldType type) {
    return switch (type) {
      case DOUBLE -> ColumnType.DOUBLE;
      case BIGINT -> ColumnType.BIGINT;
      case UBIGINT -> LineProtocolWriter.UNSIGNED;
      case VARCHAR -> ColumnType.VARCHAR;
      case BOOLEAN -> ColumnType.BOOLEAN;
    };
  }

  /** Fails unless the field's value fits the column exactly. */
  private static void check(
      TableName table, LineProtocol.Point point, LineProtocol.Field field, ColumnType column) {
    if (LineProtocolVectors.convert(field, column) == null) {
      throw new LineProtocolWriter.Rejected(
          lineOf(point)
              + "field '"
              + field.name()
              + "' is "
              + describe(field)
              + ", which column "
              + table
              + "."
              + field.name()
              + " ("
              + column.sql()
              + ") cannot hold exactly");
    }
  }

  private static String describe(LineProtocol.Field field) {
    String kind =
        switch (field.type()) {
          case DOUBLE -> "a float";
          case BIGINT -> "an integer";
          case UBIGINT -> "an unsigned integer";
          case VARCHAR -> "a string";
          case BOOLEAN -> "a boolean";
        };
    String value = String.valueOf(field.value());
    return kind + " (" + (value.length() > 40 ? value.substring(0, 40) + "…" : value) + ")";
  }
}
