package dev.timelake.write;

import dev.timelake.Column;
import dev.timelake.QueryFailedException;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.table.TableContract;
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
 * protocol so that the tier commits them alike; and how many rows a commit would write of them
 * (those less copies of a key). Instants and dates are read as numbers (µs, days), which is exact;
 * the insertion-time column is left unset, for the tier to set.
 *
 * @param batch the rows, the caller's to close
 * @param rowsLessCopies the rows less copies of a key within them
 */
public record StagedBatch(VectorSchemaRoot batch, long rowsLessCopies) {
  private static final String INFINITE = "__tl_infinite";
  private static final String KEPT = "__tl_kept";

  /**
   * The rows of {@code stageTable}'s {@code columns}, plus the table's insertion-time column unset,
   * and the rows less copies, in one statement; empty when a value has no such number (an infinite
   * instant or date).
   */
  static Optional<StagedBatch> read(
      EngineConnection connection,
      String stageTable,
      TableContract contract,
      List<Column> columns,
      BufferAllocator allocator) {
    List<String> items = new ArrayList<>();
    List<String> infinite = new ArrayList<>();
    for (Column column : columns) {
      String name = SqlText.identifier(column.name());
      switch (column.type().kind()) {
        case TIMESTAMP, TIMESTAMPTZ -> {
          items.add("epoch_us(" + name + ")"); // NULL for an infinite one: checked apart
          infinite.add("NOT isfinite(" + name + ")");
        }
        case DATE -> {
          items.add("CAST(" + name + " - DATE '1970-01-01' AS BIGINT)");
          infinite.add("NOT isfinite(" + name + ")");
        }
        default -> items.add(name);
      }
    }
    items.add(
        (infinite.isEmpty() ? "false" : "coalesce(" + String.join(" OR ", infinite) + ", false)")
            + " AS "
            + INFINITE);
    String keys = dev.timelake.index.RowKeys.list(contract);
    items.add(
        (contract.deduplicates()
                ? "(SELECT count(*) FROM (SELECT DISTINCT " + keys + " FROM " + stageTable + "))"
                : "count(*) OVER ()")
            + " AS "
            + KEPT);
    List<FieldVector> vectors = new ArrayList<>();
    int rows = 0;
    long kept = 0;
    try (ResultSet result =
        connection.query(
            "SELECT " + String.join(", ", items) + " FROM " + stageTable + " ORDER BY rowid")) {
      for (Column column : columns) {
        vectors.add(ArrowColumns.vector(column.name(), column.type(), allocator));
      }
      vectors.forEach(FieldVector::allocateNew);
      while (result.next()) {
        if (result.getBoolean(columns.size() + 1)) {
          vectors.forEach(FieldVector::close);
          return Optional.empty();
        }
        kept = result.getLong(columns.size() + 2);
        for (int c = 0; c < columns.size(); c++) {
          ArrowColumns.set(vectors.get(c), rows, value(result, c + 1, columns.get(c)));
        }
        rows++;
      }
      for (FieldVector vector : vectors) {
        vector.setValueCount(rows);
      }
      Optional<String> insertionTime = contract.ingestTimeColumn();
      if (insertionTime.isPresent()) {
        TimeStampMicroTZVector unset =
            new TimeStampMicroTZVector(insertionTime.get(), allocator, "UTC");
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
    return Optional.of(new StagedBatch(root, kept));
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
