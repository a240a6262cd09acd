package dev.timelake.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * JSON Lines: one object per row, keys in column order. Numbers and booleans are unquoted, null is
 * {@code null}, timestamps and everything else are strings (see {@link Values#appendJson}).
 */
final class JsonLinesPrinter implements RowPrinter {
  private final PrintStream out;
  private List<String> columns = List.of();

  JsonLinesPrinter(PrintStream out) {
    this.out = out;
  }

  @Override
  public void header(List<String> columns) {
    this.columns = List.copyOf(columns);
  }

  @Override
  public void row(List<?> values) {
    StringBuilder line = new StringBuilder("{");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        line.append(',');
      }
      Values.appendJsonString(line, i < columns.size() ? columns.get(i) : "column" + i);
      line.append(':');
      Values.appendJson(line, values.get(i));
    }
    out.print(line.append("}\n"));
  }

  @Override
  public void finish() {
    out.flush();
  }
}
