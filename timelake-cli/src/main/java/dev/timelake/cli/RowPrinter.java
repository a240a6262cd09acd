package dev.timelake.cli;

import java.util.List;

/**
 * Prints rows in one output format: {@link #header} once, {@link #row} per row, then {@link
 * #finish}. Values are the Java objects a query returns (see {@link Values}).
 */
interface RowPrinter {
  /** Starts the output with the column names. */
  void header(List<String> columns);

  /** Prints one row; {@code values} has one entry per column, nulls allowed. */
  void row(List<?> values);

  /** Ends the output and flushes it. */
  void finish();
}
