package dev.timelake.spark;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A table's Iceberg schema as a Spark schema whose fields carry their Parquet field ids, so that
 * Spark's Parquet reader matches columns by id (renamed columns and files written before a column
 * was added read right) when {@code spark.sql.parquet.fieldId.read.enabled} is on.
 */
final class SparkSchemas {
  /** The key under which Spark's Parquet reader and writer look for a field id. */
  static final String FIELD_ID = "parquet.field.id";

  private SparkSchemas() {}

  static StructType of(TableName table, String schemaJson) {
    Schema schema = SchemaParser.fromJson(schemaJson);
    return struct(table, schema.asStruct());
  }

  private static StructType struct(TableName table, Types.StructType struct) {
    List<StructField> fields = new ArrayList<>();
    for (Types.NestedField field : struct.fields()) {
      Metadata id = new MetadataBuilder().putLong(FIELD_ID, field.fieldId()).build();
      fields.add(new StructField(field.name(), type(table, field.name(), field.type()), true, id));
    }
    return new StructType(fields.toArray(StructField[]::new));
  }

  private static DataType type(TableName table, String column, Type type) {
    return switch (type.typeId()) {
      case BOOLEAN -> DataTypes.BooleanType;
      case INTEGER -> DataTypes.IntegerType;
      case LONG -> DataTypes.LongType;
      case FLOAT -> DataTypes.FloatType;
      case DOUBLE -> DataTypes.DoubleType;
      case DATE -> DataTypes.DateType;
      case STRING -> DataTypes.StringType;
      case BINARY, FIXED -> DataTypes.BinaryType;
      case DECIMAL -> {
        Types.DecimalType decimal = (Types.DecimalType) type;
        yield DataTypes.createDecimalType(decimal.precision(), decimal.scale());
      }
      case TIMESTAMP ->
          ((Types.TimestampType) type).shouldAdjustToUTC()
              ? DataTypes.TimestampType
              : DataTypes.TimestampNTZType;
      case STRUCT -> struct(table, type.asStructType());
      case LIST -> {
        Types.ListType list = type.asListType();
        yield DataTypes.createArrayType(type(table, column, list.elementType()), true);
      }
      case MAP -> {
        Types.MapType map = type.asMapType();
        yield DataTypes.createMapType(
            type(table, column, map.keyType()), type(table, column, map.valueType()), true);
      }
      default ->
          throw TimelakeException.validation(
              "Cannot read %s in Spark: column '%s' has type %s, which Timelake for Spark does not"
                  + " read yet",
              table, column, type);
    };
  }
}
