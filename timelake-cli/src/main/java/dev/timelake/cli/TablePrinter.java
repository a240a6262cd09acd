package dev.timelake.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * An aligned text table: a header, a rule, one line per row, numbers right-aligned; for query
 * results, null shown as {@code NULL} and a row count footer. Rows are buffered to measure the
 * columns.
 *
 * <pre>
 *  tag | value
 * -----+-------
 *  a   |   1.5
 * (1 row)
 * </pre>
 */
final class TablePrinter implements RowPrinter {
  private final PrintStream out;
  private final boolean countRows;
  private final String nullText;
  private List<String> columns = List.of();
  private final List<List<String>> rows = new ArrayList<>();
  private boolean[] numbers = new boolean[0];
  private boolean[] others = new boolean[0];

  private TablePrinter(PrintStream out, boolean countRows, String nullText) {
    this.out = out;
    this.countRows = countRows;
    this.nullText = nullText;
  }

  /** A query result: null shown as {@code NULL}, followed by {@code (N rows)}. */
  static TablePrinter forResults(PrintStream out) {
    return new TablePrinter(out, true, "NULL");
  }

  /** A section of a report: null shown as blank, no footer. */
  static TablePrinter forReport(PrintStream out) {
    return new TablePrinter(out, false, "");
  }

  @Override
  public void header(List<String> columns) {
    this.columns = List.copyOf(columns);
    this.numbers = new boolean[columns.size()];
    this.others = new boolean[columns.size()];
  }

  @Override
  public void row(List<?> values) {
    List<String> cells = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      if (value != null && i < numbers.length) {
        numbers[i] |= value instanceof Number;
        others[i] |= !(value instanceof Number);
      }
      cells.add(value == null ? nullText : singleLine(Values.text(value)));
    }
    rows.add(cells);
  }

  private static String singleLine(String text) {
    return text.replace("\r", "\\r").replace("\n", "\\n");
  }

  @Override
  public void finish() {
    int[] widths = new int[columns.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = columns.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], i < row.size() ? row.get(i).length() : 0);
      }
    }
    boolean[] rightAligned = new boolean[widths.length];
    for (int i = 0; i < widths.length; i++) {
      rightAligned[i] = numbers[i] && !others[i];
    }
    StringBuilder text = new StringBuilder();
    appendLine(text, columns, widths, new boolean[widths.length]);
    for (int i = 0; i < widths.length; i++) {
      text.append(i == 0 ? "" : "+").append("-".repeat(widths[i] + 2));
    }
    text.append('\n');
    for (List<String> row : rows) {
      appendLine(text, row, widths, rightAligned);
    }
    if (countRows) {
      text.append('(').append(rows.size()).append(rows.size() == 1 ? " row)" : " rows)");
      text.append('\n');
    }
    out.print(text);
    out.flush();
    rows.clear();
  }

  private static void appendLine(
      StringBuilder text, List<String> cells, int[] widths, boolean[] rightAligned) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < widths.length; i++) {
      String cell = i < cells.size() ? cells.get(i) : "";
      String padding = " ".repeat(widths[i] - cell.length());
      line.append(i == 0 ? " " : " | ");
      line.append(rightAligned[i] ? padding + cell : cell + padding);
    }
    text.append(line.toString().stripTrailing()).append('\n');
  }
}
