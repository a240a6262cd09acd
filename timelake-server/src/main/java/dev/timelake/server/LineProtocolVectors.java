package dev.timelake.server;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Table;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Line-protocol points as Arrow vectors for an append, and each field's value as the Java value of
 * the column it goes into: exactly, or not at all (the planner refuses a value that does not fit,
 * so building the vectors never meets one).
 */
final class LineProtocolVectors {
  private static final long MAX_EXACT_DOUBLE = 1L << 53;

  private LineProtocolVectors() {}

  /** The field's value as the column's Java value; null when it does not fit exactly. */
  static Object convert(LineProtocol.Field field, ColumnType column) {
    Object value = field.value();
    return switch (column.kind()) {
      case DOUBLE ->
          switch (field.type()) {
            case DOUBLE -> value;
            case BIGINT -> exactDouble(BigInteger.valueOf((Long) value));
            case UBIGINT -> exactDouble((BigInteger) value);
            default -> null;
          };
      case FLOAT ->
          field.type() == LineProtocol.FieldType.DOUBLE
                  && (double) (float) (double) (Double) value == (Double) value
              ? (float) (double) (Double) value
              : null;
      case BIGINT ->
          switch (field.type()) {
            case BIGINT -> value;
            case UBIGINT ->
                ((BigInteger) value).bitLength() < 64 ? ((BigInteger) value).longValue() : null;
            default -> null;
          };
      case INTEGER -> {
        BigInteger integer = integer(field);
        yield integer != null && integer.bitLength() < 32 ? integer.intValue() : null;
      }
      case DECIMAL -> {
        BigInteger integer = integer(field);
        yield integer != null
                && column.scale() == 0
                && integer.abs().toString().length() <= column.precision()
            ? new BigDecimal(integer)
            : null;
      }
      case VARCHAR -> field.type() == LineProtocol.FieldType.VARCHAR ? value : null;
      case BOOLEAN -> field.type() == LineProtocol.FieldType.BOOLEAN ? value : null;
      default -> null;
    };
  }

  private static BigInteger integer(LineProtocol.Field field) {
    return switch (field.type()) {
      case BIGINT -> BigInteger.valueOf((Long) field.value());
      case UBIGINT -> (BigInteger) field.value();
      default -> null;
    };
  }

  private static Double exactDouble(BigInteger value) {
    return value.abs().compareTo(BigInteger.valueOf(MAX_EXACT_DOUBLE)) <= 0
        ? value.doubleValue()
        : null;
  }

  /**
   * {@code points} as Arrow vectors for {@code table}, one per column of the table (columns no
   * point fills are all null); the values were checked against these columns when planned.
   */
  static VectorSchemaRoot vectors(
      Table table, List<LineProtocol.Point> points, BufferAllocator allocator) {
    return vectors(table, points, null, allocator);
  }

  /**
   * Like {@link #vectors(Table, List, BufferAllocator)}, with each point's insertion time in µs
   * ({@code ingestMicros[i]} for point i) in the table's insertion-time column, when it has one.
   */
  static VectorSchemaRoot vectors(
      Table table,
      List<LineProtocol.Point> points,
      long[] ingestMicros,
      BufferAllocator allocator) {
    VectorSchemaRoot root = vectors(table, points, allocator, ingestMicros != null);
    if (ingestMicros != null && table.ingestTimeColumn().isPresent()) {
      TimeStampMicroTZVector ingest =
          (TimeStampMicroTZVector) root.getVector(table.ingestTimeColumn().get());
      for (int row = 0; row < points.size(); row++) {
        ingest.set(row, ingestMicros[row]);
      }
    }
    return root;
  }

  private static VectorSchemaRoot vectors(
      Table table, List<LineProtocol.Point> points, BufferAllocator allocator, boolean ingest) {
    // Only the columns the points fill: the append reads the others as null, whatever their type.
    java.util.Set<String> filled = new java.util.HashSet<>(List.of(LineProtocolWriter.TIME_COLUMN));
    if (ingest) {
      table.ingestTimeColumn().ifPresent(filled::add);
    }
    for (LineProtocol.Point point : points) {
      filled.addAll(point.tags().keySet());
      point.fields().forEach(field -> filled.add(field.name()));
    }
    List<Column> columns =
        table.columns().stream().filter(column -> filled.contains(column.name())).toList();
    Map<String, Integer> index = new java.util.HashMap<>();
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (Column column : columns) {
        index.put(column.name(), vectors.size());
        FieldVector vector =
            dev.timelake.write.ArrowColumns.vector(column.name(), column.type(), allocator);
        vectors.add(vector);
        vector.setInitialCapacity(points.size());
        vector.allocateNew();
      }
      return fill(vectors, index, columns, points);
    } catch (RuntimeException | OutOfMemoryError e) {
      // The allocator outlives the request: whatever this request took goes back.
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  private static VectorSchemaRoot fill(
      List<FieldVector> vectors,
      Map<String, Integer> index,
      List<Column> columns,
      List<LineProtocol.Point> points) {
    int count = points.size();
    TimeStampMicroTZVector time =
        (TimeStampMicroTZVector) vectors.get(index.get(LineProtocolWriter.TIME_COLUMN));
    // Parsed names are shared Strings: look each up once per batch, not once per point.
    java.util.IdentityHashMap<String, Integer> positions = new java.util.IdentityHashMap<>();
    java.util.IdentityHashMap<String, byte[]> utf8 = new java.util.IdentityHashMap<>();
    // (tag values come from the parser's name cache too, so most are shared as well)
    for (int row = 0; row < count; row++) {
      LineProtocol.Point point = points.get(row);
      time.set(row, point.micros());
      for (Map.Entry<String, String> tag : point.tags().entrySet()) {
        int position = positions.computeIfAbsent(tag.getKey(), index::get);
        byte[] bytes =
            utf8.computeIfAbsent(tag.getValue(), v -> v.getBytes(StandardCharsets.UTF_8));
        ((VarCharVector) vectors.get(position)).setSafe(row, bytes);
      }
      for (LineProtocol.Field field : point.fields()) {
        int position = positions.computeIfAbsent(field.name(), index::get);
        FieldVector vector = vectors.get(position);
        Object value = convert(field, columns.get(position).type());
        if (value == null) {
          throw new IllegalStateException(
              "field " + field.name() + " does not fit its column, which planning refuses");
        }
        dev.timelake.write.ArrowColumns.set(vector, row, value);
      }
    }
    for (FieldVector vector : vectors) {
      vector.setValueCount(count); // the insertion-time column, if any, is set by the caller
    }
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(count);
    return root;
  }
}
