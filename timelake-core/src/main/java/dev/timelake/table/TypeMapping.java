package dev.timelake.table;

import dev.timelake.ColumnType;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/** Maps Timelake column types to Iceberg types and back. */
public final class TypeMapping {
  private TypeMapping() {}

  /**
   * The Iceberg type that stores a column of {@code type}; nested fields and elements take their
   * ids from {@code nextId} (Iceberg assigns fresh ones when it creates the table).
   */
  public static Type toIceberg(ColumnType type, IntSupplier nextId) {
    return switch (type.kind()) {
      case STRUCT -> {
        List<Types.NestedField> fields = new ArrayList<>();
        for (ColumnType.Field field : type.fields()) {
          fields.add(
              Types.NestedField.optional(
                  nextId.getAsInt(), field.name(), toIceberg(field.type(), nextId)));
        }
        yield Types.StructType.of(fields);
      }
      case LIST -> Types.ListType.ofOptional(nextId.getAsInt(), toIceberg(type.element(), nextId));
      case BOOLEAN -> Types.BooleanType.get();
      case INTEGER -> Types.IntegerType.get();
      case BIGINT -> Types.LongType.get();
      case UBIGINT ->
          Types.DecimalType.of(
              ColumnType.UNSIGNED_STORAGE.precision(), ColumnType.UNSIGNED_STORAGE.scale());
      case FLOAT -> Types.FloatType.get();
      case DOUBLE -> Types.DoubleType.get();
      case DECIMAL -> Types.DecimalType.of(type.precision(), type.scale());
      case VARCHAR -> Types.StringType.get();
      case DATE -> Types.DateType.get();
      case TIMESTAMP -> Types.TimestampType.withoutZone();
      case TIMESTAMPTZ -> Types.TimestampType.withZone();
      case BLOB -> Types.BinaryType.get();
    };
  }

  /** The column type of an Iceberg type; nested and exotic types are rejected by name. */
  public static ColumnType fromIceberg(Type type, String column) {
    return switch (type.typeId()) {
      case BOOLEAN -> ColumnType.BOOLEAN;
      case INTEGER -> ColumnType.INTEGER;
      case LONG -> ColumnType.BIGINT;
      case FLOAT -> ColumnType.FLOAT;
      case DOUBLE -> ColumnType.DOUBLE;
      case DECIMAL -> {
        Types.DecimalType decimal = (Types.DecimalType) type;
        yield ColumnType.decimal(decimal.precision(), decimal.scale());
      }
      case STRING -> ColumnType.VARCHAR;
      case DATE -> ColumnType.DATE;
      case TIMESTAMP ->
          ((Types.TimestampType) type).shouldAdjustToUTC()
              ? ColumnType.TIMESTAMPTZ
              : ColumnType.TIMESTAMP;
      case BINARY -> ColumnType.BLOB;
      case STRUCT -> {
        List<ColumnType.Field> fields = new ArrayList<>();
        for (Types.NestedField field : type.asStructType().fields()) {
          fields.add(
              new ColumnType.Field(
                  field.name(), fromIceberg(field.type(), column + "." + field.name())));
        }
        yield ColumnType.struct(fields);
      }
      case LIST ->
          ColumnType.list(fromIceberg(type.asListType().elementType(), column + ".element"));
      default ->
          throw TimelakeException.validation(
              "Column '%s' has Iceberg type %s, which Timelake does not support yet", column, type);
    };
  }
}
