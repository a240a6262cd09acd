package dev.timelake.server;

import dev.timelake.AlreadyExistsException;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Appends line-protocol points to the lake: one table per measurement in the request's namespace,
 * created on first write as a time-series table (time column {@code time}, the tags as VARCHAR
 * columns and the series key, the fields as columns of their line-protocol type), fields and tags
 * it has not seen added as nullable columns. Every point is checked against its table before
 * anything is created or committed, so a rejected request changes nothing; each table's points are
 * one append whose batch id is a digest of the request, so a client that resends a request after a
 * lost answer appends nothing twice.
 */
final class LineProtocolWriter {
  /** The time column of tables this writer creates. */
  static final String TIME_COLUMN = "time";

  /** Unsigned 64-bit fields: Iceberg has no unsigned type, DECIMAL(20, 0) holds every value. */
  static final ColumnType UNSIGNED = ColumnType.decimal(20, 0);

  private static final long MAX_EXACT_DOUBLE = 1L << 53;

  private final Lake lake;
  private final BufferAllocator allocator;

  LineProtocolWriter(Lake lake, BufferAllocator allocator) {
    this.lake = lake;
    this.allocator = allocator;
  }

  /** A request the writer refused: the reason names the line, field and types (HTTP 400). */
  static final class Rejected extends RuntimeException {
    Rejected(String message) {
      super(message);
    }
  }

  /** Writes {@code points} to tables of {@code namespace}; returns the rows appended. */
  long write(String namespace, List<LineProtocol.Point> points, byte[] body) {
    Map<String, List<LineProtocol.Point>> byMeasurement = new LinkedHashMap<>();
    for (LineProtocol.Point point : points) {
      byMeasurement.computeIfAbsent(point.measurement(), m -> new ArrayList<>()).add(point);
    }
    List<Batch> batches = new ArrayList<>();
    for (Map.Entry<String, List<LineProtocol.Point>> entry : byMeasurement.entrySet()) {
      batches.add(plan(tableName(namespace, entry.getKey()), entry.getValue()));
    }
    String digest = digest(namespace, body);
    long rows = 0;
    for (Batch batch : batches) {
      Table table = batch.prepare(lake);
      try (VectorSchemaRoot root = batch.vectors(allocator)) {
        rows +=
            table
                .newAppend()
                .batchId("line-protocol:" + digest + ":" + batch.name.name())
                .fromArrow(root)
                .commit()
                .rows();
      }
    }
    return rows;
  }

  private static TableName tableName(String namespace, String measurement) {
    try {
      return new TableName(namespace, measurement);
    } catch (TimelakeException | IllegalArgumentException e) {
      throw new Rejected(
          "Measurement '" + measurement + "' cannot name a table: " + e.getMessage());
    }
  }

  /**
   * The columns the points need, checked against the existing table (or chosen for a new one), and
   * every point's values checked against them.
   */
  private Batch plan(TableName name, List<LineProtocol.Point> points) {
    Optional<Table> existing = lake.findTable(name);
    Map<String, ColumnType> known = new LinkedHashMap<>();
    existing.ifPresent(table -> table.columns().forEach(c -> known.put(c.name(), c.type())));
    if (existing.isPresent() && !existing.get().timeColumn().orElse("").equals(TIME_COLUMN)) {
      throw new Rejected(
          "Table "
              + name
              + " is not a line-protocol table: its time column is "
              + existing.get().timeColumn().map(c -> "'" + c + "'").orElse("missing")
              + ", line protocol writes 'time'");
    }
    Map<String, ColumnType> added = new LinkedHashMap<>();
    TreeSet<String> tags = new TreeSet<>();
    for (LineProtocol.Point point : points) {
      for (String tag : point.tags().keySet()) {
        reserved(point, tag);
        tags.add(tag);
        ColumnType type = known.containsKey(tag) ? known.get(tag) : added.get(tag);
        if (type == null) {
          added.put(tag, ColumnType.VARCHAR);
        } else if (type.kind() != ColumnType.Kind.VARCHAR) {
          throw new Rejected(
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
        reserved(point, field.name());
        if (point.tags().containsKey(field.name())) {
          throw new Rejected(
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
    Map<String, ColumnType> columns = new LinkedHashMap<>();
    columns.put(TIME_COLUMN, ColumnType.TIMESTAMPTZ);
    columns.putAll(known);
    columns.putAll(added);
    columns.remove(dev.timelake.table.TableCreator.INGEST_TIME_COLUMN);
    return new Batch(name, existing.isEmpty(), List.copyOf(tags), columns, added, points);
  }

  private static void reserved(LineProtocol.Point point, String name) {
    if (name.equals(TIME_COLUMN)
        || name.equals(dev.timelake.table.TableCreator.INGEST_TIME_COLUMN)) {
      throw new Rejected(
          lineOf(point)
              + "'"
              + name
              + "' is a column Timelake sets itself (the point's timestamp and insertion time);"
              + " rename the tag or field");
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
      case UBIGINT -> UNSIGNED;
      case VARCHAR -> ColumnType.VARCHAR;
      case BOOLEAN -> ColumnType.BOOLEAN;
    };
  }

  /** Fails unless the field's value fits the column exactly. */
  private static void check(
      TableName table, LineProtocol.Point point, LineProtocol.Field field, ColumnType column) {
    if (convert(field, column) == null) {
      throw new Rejected(
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

  private static String digest(String namespace, byte[] body) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(namespace.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      return HexFormat.of().formatHex(sha.digest(body), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /** One table's points and the columns they fill. */
  private record Batch(
      TableName name,
      boolean create,
      List<String> tags,
      Map<String, ColumnType> columns,
      Map<String, ColumnType> added,
      List<LineProtocol.Point> points) {

    /** Creates the table or adds its new columns; the table as it now is. */
    Table prepare(Lake lake) {
      if (create) {
        TableDefinition.Builder definition = TableDefinition.builder(name);
        definition.column(Column.required(TIME_COLUMN, ColumnType.TIMESTAMPTZ));
        added.forEach(definition::column);
        definition.timeColumn(TIME_COLUMN);
        if (!tags.isEmpty()) {
          definition.seriesKey(tags.toArray(String[]::new));
        }
        try {
          return lake.createTable(definition.build());
        } catch (AlreadyExistsException e) {
          // Another request created it first; add what this one needs to that table.
          return addMissing(lake.table(name));
        }
      }
      return addMissing(lake.table(name));
    }

    private Table addMissing(Table table) {
      Table current = table;
      for (Map.Entry<String, ColumnType> column : added.entrySet()) {
        boolean present =
            current.columns().stream().anyMatch(c -> c.name().equals(column.getKey()));
        if (!present) {
          current = current.addColumn(column.getKey(), column.getValue());
        }
      }
      return current;
    }

    /** The points as Arrow vectors, one per column they fill. */
    VectorSchemaRoot vectors(BufferAllocator allocator) {
      List<String> names = new ArrayList<>(columns.keySet());
      List<FieldVector> vectors = new ArrayList<>();
      int count = points.size();
      for (String column : names) {
        FieldVector vector = vector(column, columns.get(column), allocator);
        vector.setInitialCapacity(count);
        vector.allocateNew();
        vectors.add(vector);
      }
      for (int row = 0; row < count; row++) {
        LineProtocol.Point point = points.get(row);
        ((TimeStampMicroTZVector) vectors.get(0)).set(row, point.micros());
        for (Map.Entry<String, String> tag : point.tags().entrySet()) {
          ((VarCharVector) vectors.get(names.indexOf(tag.getKey())))
              .setSafe(row, tag.getValue().getBytes(StandardCharsets.UTF_8));
        }
        for (LineProtocol.Field field : point.fields()) {
          int index = names.indexOf(field.name());
          set(vectors.get(index), row, convert(field, columns.get(field.name())));
        }
      }
      for (FieldVector vector : vectors) {
        vector.setValueCount(count);
      }
      VectorSchemaRoot root = new VectorSchemaRoot(vectors);
      root.setRowCount(count);
      return root;
    }

    private static FieldVector vector(String name, ColumnType type, BufferAllocator allocator) {
      return switch (type.kind()) {
        case TIMESTAMPTZ -> new TimeStampMicroTZVector(name, allocator, "UTC");
        case VARCHAR -> new VarCharVector(name, allocator);
        case DOUBLE -> new Float8Vector(name, allocator);
        case FLOAT -> new Float4Vector(name, allocator);
        case BIGINT -> new BigIntVector(name, allocator);
        case INTEGER -> new IntVector(name, allocator);
        case BOOLEAN -> new BitVector(name, allocator);
        case DECIMAL -> new DecimalVector(name, allocator, type.precision(), type.scale());
        default ->
            throw new Rejected(
                "Column '" + name + "' is " + type.sql() + ", which line protocol cannot fill");
      };
    }

    private static void set(FieldVector vector, int row, Object value) {
      if (vector instanceof Float8Vector v) {
        v.set(row, (Double) value);
      } else if (vector instanceof Float4Vector v) {
        v.set(row, (Float) value);
      } else if (vector instanceof BigIntVector v) {
        v.set(row, (Long) value);
      } else if (vector instanceof IntVector v) {
        v.set(row, (Integer) value);
      } else if (vector instanceof BitVector v) {
        v.set(row, (Boolean) value ? 1 : 0);
      } else if (vector instanceof DecimalVector v) {
        v.setSafe(row, (BigDecimal) value);
      } else if (vector instanceof VarCharVector v) {
        v.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
      } else {
        throw new IllegalStateException("no setter for " + vector.getClass());
      }
    }
  }
}
