package dev.timelake.write;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What a write-ahead tier takes (see {@link dev.timelake.HeldWrites}): rows of columns whose types
 * Timelake builds as Arrow vectors itself, for a table without a logical clock or an index
 * granularity (whose checks need committed data), at most {@link #MAX_ROWS} of them per write.
 */
public final class HeldColumns {
  /**
   * The most rows one held write takes: more is a bulk load, which gains nothing from a tier and is
   * better committed at once than held in memory first.
   */
  public static final int MAX_ROWS = 100_000;

  private HeldColumns() {}

  /** Every column of {@code table} but its insertion-time column, when a tier takes them. */
  public static Optional<List<Column>> of(TableContract table) {
    return of(table, List.of());
  }

  /**
   * The columns {@code names} name (every one but the insertion-time column when empty), when a
   * tier takes them; empty for an unknown, repeated or insertion-time column too.
   */
  public static Optional<List<Column>> of(TableContract table, List<String> names) {
    if (table.hasLogicalClock() || table.hasIndexGranularity()) {
      return Optional.empty();
    }
    List<Column> columns = new ArrayList<>();
    if (names.isEmpty()) {
      for (Column column : table.columns()) {
        if (!table.ingestTimeColumn().map(column.name()::equals).orElse(false)) {
          columns.add(column);
        }
      }
    } else {
      for (String name : names) {
        Optional<Column> column =
            table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
        boolean ingest = table.ingestTimeColumn().map(n -> n.equalsIgnoreCase(name)).orElse(false);
        if (column.isEmpty() || ingest || columns.contains(column.get())) {
          return Optional.empty();
        }
        columns.add(column.get());
      }
    }
    for (Column column : columns) {
      if (!built(column.type()) || table.isUnsigned(column.name())) {
        return Optional.empty();
      }
    }
    return Optional.of(columns);
  }

  /**
   * A batch of {@code rows} for {@code columns} of {@code table}, each value as {@link
   * ArrowColumns#set} takes it (null for NULL), plus the insertion-time column unset, for the tier
   * to set.
   */
  public static VectorSchemaRoot batch(
      TableContract table,
      List<Column> columns,
      List<List<Object>> rows,
      BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (int c = 0; c < columns.size(); c++) {
        Column column = columns.get(c);
        FieldVector vector = ArrowColumns.vector(column.name(), column.type(), allocator);
        vectors.add(vector);
        vector.setInitialCapacity(rows.size());
        vector.allocateNew();
        for (int r = 0; r < rows.size(); r++) {
          ArrowColumns.set(vector, r, rows.get(r).get(c));
        }
        vector.setValueCount(rows.size());
      }
      if (table.ingestTimeColumn().isPresent()) {
        TimeStampMicroTZVector ingest =
            new TimeStampMicroTZVector(table.ingestTimeColumn().get(), allocator, "UTC");
        vectors.add(ingest);
        ingest.allocateNew(rows.size());
        ingest.setValueCount(rows.size());
      }
    } catch (RuntimeException | OutOfMemoryError e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(rows.size());
    return root;
  }

  private static boolean built(ColumnType type) {
    return switch (type.kind()) {
      case BOOLEAN, INTEGER, BIGINT, FLOAT, DOUBLE, VARCHAR, DATE, TIMESTAMP, TIMESTAMPTZ -> true;
      default -> false;
    };
  }
}
