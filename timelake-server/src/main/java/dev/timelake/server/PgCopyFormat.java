package dev.timelake.server;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The line formats of PostgreSQL's COPY as a server writes them, one line per row: {@link #TEXT}
 * (tab-separated, {@code \N} for NULL, backslash escapes) and {@link #CSV} (comma-separated, NULL
 * as nothing, quotes where a value needs them). The values are already in PostgreSQL's text output
 * ({@link PgTypes}).
 */
enum PgCopyFormat {
  /** PostgreSQL's default: tabs between values, {@code \N} for NULL, control characters escaped. */
  TEXT {
    @Override
    void append(StringBuilder line, String value) {
      if (value == null) {
        line.append("\\N");
        return;
      }
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        switch (c) {
          case '\\' -> line.append("\\\\");
          case '\t' -> line.append("\\t");
          case '\n' -> line.append("\\n");
          case '\r' -> line.append("\\r");
          case '\b' -> line.append("\\b");
          case '\f' -> line.append("\\f");
          case '\u000b' -> line.append("\\v");
          default -> line.append(c);
        }
      }
    }
  },

  /**
   * Comma-separated: a NULL is nothing, and a value is quoted (quotes doubled inside) when it is
   * empty, holds a comma, quote or line break, or is {@code \.}, the end-of-data marker; so a NULL
   * and an empty string stay apart, as PostgreSQL writes them.
   */
  CSV {
    @Override
    void append(StringBuilder line, String value) {
      if (value == null) {
        return;
      }
      boolean quoted =
          value.isEmpty()
              || value.equals("\\.")
              || value.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r');
      if (quoted) {
        line.append('"').append(value.replace("\"", "\"\"")).append('"');
      } else {
        line.append(value);
      }
    }
  };

  /** One line of {@code values} (null for NULL) in this format, ending in a newline, as UTF-8. */
  byte[] line(List<String> values) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        line.append(delimiter());
      }
      append(line, values.get(i));
    }
    return line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
  }

  private char delimiter() {
    return this == TEXT ? '\t' : ',';
  }

  abstract void append(StringBuilder line, String value);
}
