package dev.timelake.cli;

import java.io.PrintStream;
import java.util.Locale;

/** How rows are printed: an aligned table, CSV, JSON Lines or a Markdown table. */
enum OutputFormat {
  TABLE,
  CSV,
  JSON,
  MARKDOWN;

  /** A printer of this format writing to {@code out}; the table format counts the rows. */
  RowPrinter printer(PrintStream out) {
    return switch (this) {
      case TABLE -> TablePrinter.forResults(out);
      case CSV -> new CsvPrinter(out);
      case JSON -> new JsonLinesPrinter(out);
      case MARKDOWN -> new MarkdownPrinter(out);
    };
  }

  /** The lower-case name users type. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a format name, case-insensitively; the error message names the accepted ones. */
  static OutputFormat parse(String text) {
    for (OutputFormat format : values()) {
      if (format.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return format;
      }
    }
    throw new IllegalArgumentException("'" + text + "' (expected table, csv, json or markdown)");
  }
}
