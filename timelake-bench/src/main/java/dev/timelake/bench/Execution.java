package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One run of one query in one configuration.
 *
 * @param rows rows returned
 * @param nanos wall-clock time from sending the query to reading its last row
 * @param answer the rows, when they were kept for comparison
 * @param explanation what Timelake did (empty for plain DuckDB)
 * @param routed true when Timelake answered from a rollup
 */
record Execution(
    long rows, long nanos, Optional<Answer> answer, List<String> explanation, boolean routed) {
  Execution {
    requireNonNull(answer, "answer is null");
    explanation = List.copyOf(explanation);
  }

  /** A result being read row by row: a JDBC result set or a Timelake query result. */
  interface Cursor<E extends Exception> {
    boolean next() throws E;

    /** The value of column {@code index}, counted from 0. */
    Object value(int index) throws E;
  }

  /**
   * Reads every row of {@code cursor} (each value fetched, as a client would), keeping them when
   * {@code keepRows}; the time counts from {@code startedNanos} to the last row.
   */
  static <E extends Exception> Execution read(
      Cursor<E> cursor,
      int columns,
      boolean keepRows,
      long startedNanos,
      Supplier<List<String>> explanation,
      BooleanSupplier routed)
      throws E {
    List<List<Object>> rows = keepRows ? new ArrayList<>() : null;
    long count = 0;
    while (cursor.next()) {
      List<Object> row = keepRows ? new ArrayList<>(columns) : null;
      for (int i = 0; i < columns; i++) {
        Object value = cursor.value(i);
        if (row != null) {
          row.add(value);
        }
      }
      if (rows != null) {
        rows.add(row);
      }
      count++;
    }
    long nanos = System.nanoTime() - startedNanos;
    return new Execution(
        count,
        nanos,
        rows == null ? Optional.empty() : Optional.of(new Answer(rows)),
        explanation.get(),
        routed.getAsBoolean());
  }
}
