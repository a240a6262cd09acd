package dev.timelake.table;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the inside of a {@code WITH (key = 'value', key2 = value2)} clause of Timelake's DDL into
 * an ordered map. Values may be single-quoted (with doubled inner quotes) or bare.
 */
public final class TableOptions {
  private static final Pattern OPTION =
      Pattern.compile(
          "\\s*([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*=\\s*('(?:[^']|'')*'|[^,]+?)\\s*(?:,|$)");

  private TableOptions() {}

  /**
   * The options of {@code body}; throws {@link IllegalArgumentException} with the first part that
   * is not {@code key = value}.
   */
  public static Map<String, String> parse(String body) {
    Map<String, String> options = new LinkedHashMap<>();
    Matcher option = OPTION.matcher(body);
    int position = 0;
    while (position < body.length() && option.find(position) && option.start() == position) {
      options.put(option.group(1), unquote(option.group(2)));
      position = option.end();
    }
    if (!body.substring(position).isBlank()) {
      throw new IllegalArgumentException(body.substring(position).trim());
    }
    return options;
  }

  /** The inside of a WITH clause that {@link #parse} reads back as {@code options}. */
  public static String format(Map<String, String> options) {
    StringBuilder body = new StringBuilder();
    options.forEach(
        (key, value) ->
            body.append(body.length() == 0 ? "" : ", ")
                .append(key)
                .append(" = '")
                .append(value.replace("'", "''"))
                .append('\''));
    return body.toString();
  }

  /** A single-quoted SQL string's text; other values trimmed as they are. */
  public static String unquote(String value) {
    String trimmed = value.trim();
    if (trimmed.length() >= 2 && trimmed.startsWith("'") && trimmed.endsWith("'")) {
      return trimmed.substring(1, trimmed.length() - 1).replace("''", "'");
    }
    return trimmed;
  }
}
