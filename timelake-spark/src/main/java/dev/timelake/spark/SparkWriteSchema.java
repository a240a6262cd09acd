package dev.timelake.spark;

import static java.util.Objects.requireNonNull;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Whether a DataFrame's columns fit a table, decided from the two schemas before any row is
 * written: every column of the DataFrame is a column of the table (names match as Spark and
 * Timelake match them, ignoring case) and has the column's Spark type or one that widens to it
 * without loss; every required column is there; the insertion time is not, since the append sets
 * it. Nulls in required columns are found later, row by row, by the append itself.
 *
 * @param table the table written to, for messages
 * @param columns the table's columns, the insertion-time column included
 * @param ingestTimeColumn the insertion-time column, if the table has one
 */
record SparkWriteSchema(TableName table, List<Column> columns, Optional<String> ingestTimeColumn) {
  /** Spark types that go into a column of the kind without loss, besides the column's own. */
  private static final Map<ColumnType.Kind, Set<DataType>> WIDENINGS =
      Map.of(
          ColumnType.Kind.INTEGER, Set.of(DataTypes.ByteType, DataTypes.ShortType),
          ColumnType.Kind.BIGINT,
              Set.of(DataTypes.ByteType, DataTypes.ShortType, DataTypes.IntegerType),
          ColumnType.Kind.FLOAT, Set.of(DataTypes.ByteType, DataTypes.ShortType),
          ColumnType.Kind.DOUBLE,
              Set.of(
                  DataTypes.ByteType,
                  DataTypes.ShortType,
                  DataTypes.IntegerType,
                  DataTypes.FloatType));

  SparkWriteSchema {
    requireNonNull(table, "table is null");
    columns = List.copyOf(columns);
    requireNonNull(ingestTimeColumn, "ingestTimeColumn is null");
  }

  /**
   * A DataFrame column and the table column it fills.
   *
   * @param field the DataFrame's column, as the DataFrame spells it
   * @param column the table's column, as the table spells it
   */
  record Match(String field, String column) {
    Match {
      requireNonNull(field, "field is null");
      requireNonNull(column, "column is null");
    }
  }

  /**
   * The table's columns the DataFrame fills, in table order.
   *
   * @throws dev.timelake.ValidationException naming the table and the first column that does not
   *     fit, and how to make it fit
   */
  List<Match> matches(StructType input) {
    Map<String, StructField> byName = new HashMap<>();
    for (StructField field : input.fields()) {
      if (byName.put(lower(field.name()), field) != null) {
        throw rejected("column '%s' appears twice in the DataFrame", field.name());
      }
    }
    Map<String, Column> known = new HashMap<>();
    columns.forEach(column -> known.put(lower(column.name()), column));
    for (StructField field : input.fields()) {
      Column column = known.get(lower(field.name()));
      if (column == null) {
        throw rejected(
            "the DataFrame has column '%s', which the table does not have (columns are matched"
                + " by name; the table has %s)",
            field.name(), columnNames());
      }
      if (isIngestTime(column)) {
        throw rejected(
            "the DataFrame has column '%s', the insertion time, which the append sets (drop it"
                + " from the DataFrame)",
            field.name());
      }
    }
    List<Match> matches = new ArrayList<>();
    for (Column column : columns) {
      StructField field = byName.get(lower(column.name()));
      if (field == null && !column.isNullable() && !isIngestTime(column)) {
        throw rejected(
            "required column '%s' is missing from the DataFrame (columns: %s)",
            column.name(), columnNames());
      }
      if (field != null) {
        requireFits(column, field);
        matches.add(new Match(field.name(), column.name()));
      }
    }
    return matches;
  }

  private void requireFits(Column column, StructField field) {
    DataType expected = sparkType(column.type());
    DataType given = field.dataType();
    if (sameType(expected, given)
        || WIDENINGS.getOrDefault(column.type().kind(), Set.of()).contains(given)) {
      return;
    }
    if (column.type().kind() == ColumnType.Kind.TIMESTAMPTZ
        && given.equals(DataTypes.TimestampNTZType)) {
      throw rejected(
          "column '%s' is TIMESTAMP_NTZ in the DataFrame but TIMESTAMPTZ in the table; a"
              + " timestamp without time zone names no instant (convert it, e.g. CAST(%s AS"
              + " TIMESTAMP), which reads it in the session time zone)",
          column.name(), field.name());
    }
    throw rejected(
        "column '%s' is %s in the DataFrame but %s in the table, which takes %s (cast the column)",
        column.name(), given.sql(), column.type().sql(), accepted(column.type()));
  }

  /** The Spark types a column takes, its own first, as Spark SQL spells them. */
  private static String accepted(ColumnType type) {
    List<String> names = new ArrayList<>();
    names.add(sparkType(type).sql());
    WIDENINGS.getOrDefault(type.kind(), Set.of()).stream()
        .map(DataType::sql)
        .sorted()
        .forEach(names::add);
    return String.join(" or ", names);
  }

  /**
   * The Spark type whose Parquet values DuckDB reads as the column's type: what Spark's reader of
   * the table gives. An unsigned column is stored as DECIMAL(20,0) and arrives as one.
   */
  static DataType sparkType(ColumnType type) {
    return switch (type.kind()) {
      case BOOLEAN -> DataTypes.BooleanType;
      case INTEGER -> DataTypes.IntegerType;
      case BIGINT -> DataTypes.LongType;
      case UBIGINT ->
          DataTypes.createDecimalType(
              ColumnType.UNSIGNED_STORAGE.precision(), ColumnType.UNSIGNED_STORAGE.scale());
      case FLOAT -> DataTypes.FloatType;
      case DOUBLE -> DataTypes.DoubleType;
      case DECIMAL -> DataTypes.createDecimalType(type.precision(), type.scale());
      case VARCHAR -> DataTypes.StringType;
      case DATE -> DataTypes.DateType;
      case TIMESTAMP -> DataTypes.TimestampNTZType;
      case TIMESTAMPTZ -> DataTypes.TimestampType;
      case BLOB -> DataTypes.BinaryType;
      case LIST -> DataTypes.createArrayType(sparkType(type.element()), true);
      case STRUCT -> {
        List<StructField> fields = new ArrayList<>();
        for (ColumnType.Field field : type.fields()) {
          fields.add(DataTypes.createStructField(field.name(), sparkType(field.type()), true));
        }
        yield DataTypes.createStructType(fields);
      }
    };
  }

  /**
   * Equal types, nullability and metadata aside; nested types field by field (names exactly, as
   * Timelake compares nested types), since their values are not converted.
   */
  private static boolean sameType(DataType expected, DataType given) {
    if (expected instanceof StructType struct && given instanceof StructType other) {
      if (struct.fields().length != other.fields().length) {
        return false;
      }
      for (int i = 0; i < struct.fields().length; i++) {
        StructField a = struct.fields()[i];
        StructField b = other.fields()[i];
        if (!a.name().equals(b.name()) || !sameType(a.dataType(), b.dataType())) {
          return false;
        }
      }
      return true;
    }
    if (expected instanceof ArrayType list && given instanceof ArrayType other) {
      return sameType(list.elementType(), other.elementType());
    }
    return expected.equals(given);
  }

  private boolean isIngestTime(Column column) {
    return ingestTimeColumn.filter(column.name()::equals).isPresent();
  }

  private String columnNames() {
    return columns.stream()
        .filter(column -> !isIngestTime(column))
        .map(Column::name)
        .collect(Collectors.joining(", "));
  }

  private static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  private TimelakeException rejected(String format, Object... args) {
    return TimelakeException.validation(
        "Cannot append to %s from Spark: %s", table, String.format(Locale.ROOT, format, args));
  }
}
