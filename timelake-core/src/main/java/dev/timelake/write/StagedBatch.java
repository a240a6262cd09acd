package dev.timelake.write;

import dev.timelake.Column;
import dev.timelake.QueryFailedException;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Staged rows read back as an Arrow batch of {@link ArrowColumns}' vectors, in input order: what a
 * checked COPY hands to a write-ahead tier, built like the batches of held INSERTs and line
 * protocol so that the tier commits them alike. Instants and dates are read as numbers (µs, days),
 * which is exact; the insertion-time column is left unset, for the tier to set.
 */
final class StagedBatch {
  private StagedBatch() {}

  /**
   * The rows of {@code stageTable}'s {@code columns}, plus an unset {@code insertionTimeColumn};
   * empty when a value has no such number (an infinite instant or date).
   */
  static Optional<VectorSchemaRoot> read(
      EngineConnection connection,
      String stageTable,
      List<Column> columns,
      Optional<String> insertionTimeColumn,
      BufferAllocator allocator) {
    List<String> items = new ArrayList<>();
    List<String> finite = new ArrayList<>();
    for (Column column : columns) {
      String name = SqlText.identifier(column.name());
      switch (column.type().kind()) {
        case TIMESTAMP, TIMESTAMPTZ -> {
          items.add("epoch_us(" + name + ")");
          finite.add("NOT isfinite(" + name + ")");
        }
        case DATE -> {
          items.add("CAST(" + name + " - DATE '1970-01-01' AS BIGINT)");
          finite.add("NOT isfinite(" + name + ")");
        }
        default -> items.add(name);
      }
    }
    if (!finite.isEmpty()
        && ((Number)
                    connection.scalar(
                        "SELECT count(*) FROM "
                            + stageTable
                            + " WHERE "
                            + String.join(" OR ", finite)))
                .longValue()
            > 0) {
      return Optional.empty();
    }
    List<FieldVector> vectors = new ArrayList<>();
    int rows = 0;
    try (ResultSet result =
        connection.query(
            "SELECT " + String.join(", ", items) + " FROM " + stageTable + " ORDER BY rowid")) {
      for (Column column : columns) {
        vectors.add(ArrowColumns.vector(column.name(), column.type(), allocator));
      }
      vectors.forEach(FieldVector::allocateNew);
      while (result.next()) {
        for (int c = 0; c < columns.size(); c++) {
          ArrowColumns.set(vectors.get(c), rows, value(result, c + 1, columns.get(c)));
        }
        rows++;
      }
      for (FieldVector vector : vectors) {
        vector.setValueCount(rows);
      }
      if (insertionTimeColumn.isPresent()) {
        TimeStampMicroTZVector unset =
            new TimeStampMicroTZVector(insertionTimeColumn.get(), allocator, "UTC");
        vectors.add(unset);
        unset.allocateNew(rows);
        unset.setValueCount(rows);
      }
    } catch (SQLException e) {
      vectors.forEach(FieldVector::close);
      throw new QueryFailedException("Cannot read the staged rows: " + e.getMessage(), e);
    } catch (RuntimeException | OutOfMemoryError e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(rows);
    return Optional.of(root);
  }

  /** Column {@code index}'s value as {@link ArrowColumns#set} takes it for {@code column}. */
  private static Object value(ResultSet result, int index, Column column) throws SQLException {
    Object value =
        switch (column.type().kind()) {
          case BOOLEAN -> result.getBoolean(index);
          case INTEGER -> result.getInt(index);
          case BIGINT, TIMESTAMP, TIMESTAMPTZ -> result.getLong(index);
          case FLOAT -> result.getFloat(index);
          case DOUBLE -> result.getDouble(index);
          case DATE -> LocalDate.ofEpochDay(result.getLong(index));
          case VARCHAR -> result.getString(index);
          default ->
              throw new IllegalStateException(
                  "Column '" + column.name() + "' is " + column.type().sql() + ", not held");
        };
    return result.wasNull() ? null : value;
  }
}
