package dev.timelake.cli;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a column list such as {@code tag VARCHAR, time TIMESTAMPTZ, value DECIMAL(18,3) NOT NULL}:
 * comma-separated {@code name TYPE [NOT NULL]}, names optionally double-quoted.
 */
final class ColumnList {
  private static final Pattern COLUMN =
      Pattern.compile(
          "(\"(?:[^\"]|\"\")+\"|[^\\s\"]+)\\s+(.+?)(\\s+NOT\\s+NULL|\\s+NULL)?",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private ColumnList() {}

  /** The columns of {@code text}, in order. */
  static List<Column> parse(String text) {
    List<Column> columns = new ArrayList<>();
    for (String item : splitOutsideParentheses(text)) {
      if (item.isBlank()) {
        throw TimelakeException.validation(
            "Invalid column list '%s': empty column definition", text);
      }
      columns.add(column(item.strip()));
    }
    return columns;
  }

  private static Column column(String item) {
    Matcher matcher = COLUMN.matcher(item);
    if (!matcher.matches()) {
      throw TimelakeException.validation(
          "Invalid column '%s': expected name TYPE [NOT NULL], e.g. 'value DOUBLE'", item);
    }
    String name = matcher.group(1);
    if (name.startsWith("\"")) {
      name = name.substring(1, name.length() - 1).replace("\"\"", "\"");
    }
    ColumnType type = ColumnType.parse(matcher.group(2));
    String nullability = matcher.group(3);
    boolean required =
        nullability != null && nullability.strip().toUpperCase(Locale.ROOT).startsWith("NOT");
    return required ? Column.required(name, type) : Column.nullable(name, type);
  }

  private static List<String> splitOutsideParentheses(String text) {
    List<String> items = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        items.add(text.substring(start, i));
        start = i + 1;
      }
    }
    items.add(text.substring(start));
    return items;
  }
}
