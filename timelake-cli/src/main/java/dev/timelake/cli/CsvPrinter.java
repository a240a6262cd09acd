package dev.timelake.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * CSV as in RFC 4180: a header line, then one line per row; a field containing a comma, a double
 * quote, CR or LF is quoted, with inner quotes doubled. Null is an empty field. Lines end with LF.
 */
final class CsvPrinter implements RowPrinter {
  private final PrintStream out;

  CsvPrinter(PrintStream out) {
    this.out = out;
  }

  @Override
  public void header(List<String> columns) {
    row(columns);
  }

  @Override
  public void row(List<?> values) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        line.append(',');
      }
      Object value = values.get(i);
      if (value != null) {
        line.append(field(Values.text(value)));
      }
    }
    out.print(line.append('\n'));
  }

  static String field(String text) {
    boolean quote =
        text.indexOf(',') >= 0
            || text.indexOf('"') >= 0
            || text.indexOf('\n') >= 0
            || text.indexOf('\r') >= 0;
    return quote ? '"' + text.replace("\"", "\"\"") + '"' : text;
  }

  @Override
  public void finish() {
    out.flush();
  }
}
