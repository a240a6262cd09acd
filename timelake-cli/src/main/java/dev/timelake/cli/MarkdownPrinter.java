package dev.timelake.cli;

import java.io.PrintStream;
import java.util.List;

/** A GitHub-flavoured Markdown table; pipes in values are escaped, line breaks become spaces. */
final class MarkdownPrinter implements RowPrinter {
  private final PrintStream out;

  MarkdownPrinter(PrintStream out) {
    this.out = out;
  }

  @Override
  public void header(List<String> columns) {
    row(columns);
    out.print("|" + "---|".repeat(columns.size()) + "\n");
  }

  @Override
  public void row(List<?> values) {
    StringBuilder line = new StringBuilder("|");
    for (Object value : values) {
      String text = value == null ? "" : Values.text(value);
      line.append(' ')
          .append(text.replace("|", "\\|").replace("\r\n", " ").replace('\n', ' '))
          .append(" |");
    }
    out.print(line.append('\n'));
  }

  @Override
  public void finish() {
    out.flush();
  }
}
