package dev.timelake.write;

import dev.timelake.ColumnType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Arrow vectors for a table's columns built from Java values, as an append reads them: one vector
 * type per column type, and the Java value each takes ({@code Boolean}, {@code Integer}, {@code
 * Long}, {@code Float}, {@code Double}, {@code BigDecimal}, {@code String}, {@code LocalDate}, and
 * {@code Long} µs since 1970 for TIMESTAMP and TIMESTAMPTZ, whose instants are UTC).
 */
public final class ArrowColumns {
  private ArrowColumns() {}

  /**
   * An empty vector for column {@code name} of {@code type}.
   *
   * @throws IllegalStateException for a type not built from Java values (lists, structs, blobs,
   *     unsigned integers)
   */
  public static FieldVector vector(String name, ColumnType type, BufferAllocator allocator) {
    return switch (type.kind()) {
      case BOOLEAN -> new BitVector(name, allocator);
      case INTEGER -> new IntVector(name, allocator);
      case BIGINT -> new BigIntVector(name, allocator);
      case FLOAT -> new Float4Vector(name, allocator);
      case DOUBLE -> new Float8Vector(name, allocator);
      case DECIMAL -> new DecimalVector(name, allocator, type.precision(), type.scale());
      case VARCHAR -> new VarCharVector(name, allocator);
      case DATE -> new DateDayVector(name, allocator);
      case TIMESTAMP -> new TimeStampMicroVector(name, allocator);
      case TIMESTAMPTZ -> new TimeStampMicroTZVector(name, allocator, "UTC");
      default ->
          throw new IllegalStateException(
              "Column '" + name + "' is " + type.sql() + ", which is not built from Java values");
    };
  }

  /** Sets row {@code row} of {@code vector} to {@code value} (null: NULL), growing it as needed. */
  public static void set(FieldVector vector, int row, Object value) {
    if (value == null) {
      vector.setNull(row);
    } else if (vector instanceof Float8Vector v) {
      v.setSafe(row, (Double) value);
    } else if (vector instanceof Float4Vector v) {
      v.setSafe(row, (Float) value);
    } else if (vector instanceof BigIntVector v) {
      v.setSafe(row, (Long) value);
    } else if (vector instanceof IntVector v) {
      v.setSafe(row, (Integer) value);
    } else if (vector instanceof BitVector v) {
      v.setSafe(row, (Boolean) value ? 1 : 0);
    } else if (vector instanceof DecimalVector v) {
      v.setSafe(row, (BigDecimal) value);
    } else if (vector instanceof VarCharVector v) {
      v.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
    } else if (vector instanceof DateDayVector v) {
      v.setSafe(row, (int) ((LocalDate) value).toEpochDay());
    } else if (vector instanceof TimeStampMicroTZVector v) {
      v.setSafe(row, (Long) value);
    } else if (vector instanceof TimeStampMicroVector v) {
      v.setSafe(row, (Long) value);
    } else {
      throw new IllegalStateException("no setter for " + vector.getField());
    }
  }
}
