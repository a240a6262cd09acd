package dev.timelake.engine;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The one place generated SQL quotes names, strings and paths. Nothing user-supplied reaches DuckDB
 * except through these methods or a parsed syntax tree.
 */
public final class SqlText {
  private SqlText() {}

  /** A double-quoted identifier: {@code my "col"} becomes {@code "my ""col"""}. */
  public static String identifier(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /** Dot-joined quoted identifiers, e.g. {@code "iot"."readings"}. */
  public static String qualified(String... parts) {
    StringBuilder text = new StringBuilder();
    for (String part : parts) {
      text.append(text.length() == 0 ? "" : ".").append(identifier(part));
    }
    return text.toString();
  }

  /** A comma-separated list of quoted identifiers. */
  public static String identifiers(List<String> names) {
    return names.stream().map(SqlText::identifier).collect(Collectors.joining(", "));
  }

  /** A single-quoted string literal. */
  public static String literal(String value) {
    return '\'' + value.replace("'", "''") + '\'';
  }

  /** A string literal cast to {@code type}: {@code CAST('2026-01-01' AS DATE)}. */
  public static String literal(String value, String type) {
    return "CAST(" + literal(value) + " AS " + type + ")";
  }

  /** The opening of a dollar-quoted string: {@code $$} or {@code $tag$} (not {@code $1}). */
  private static final Pattern DOLLAR_QUOTE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*+)?\\$");

  /** A DuckDB list of string literals, e.g. {@code ['a.parquet', 'b.parquet']}. */
  public static String literalList(List<String> values) {
    return values.stream().map(SqlText::literal).collect(Collectors.joining(", ", "[", "]"));
  }

  /**
   * Where the token at {@code start} of {@code sql} ends when it is a string literal, a quoted
   * identifier or a comment ({@code '…'} and {@code "…"} with doubled quotes inside, dollar-quoted
   * {@code $$…$$} and {@code $tag$…$tag$}, {@code --} to the end of the line, {@code /* … *}{@code
   * /}); {@code start + 1} for any other character. Lets callers find semicolons and placeholders
   * that are SQL, not text.
   */
  public static int endOfToken(String sql, int start) {
    char c = sql.charAt(start);
    if (c == '$') {
      Matcher tag = DOLLAR_QUOTE.matcher(sql).region(start, sql.length());
      if (tag.lookingAt()) {
        int close = sql.indexOf(tag.group(), tag.end());
        return close < 0 ? sql.length() : close + tag.group().length();
      }
      return start + 1;
    }
    if (c == '\'' || c == '"') {
      int i = start + 1;
      while (i < sql.length()) {
        if (sql.charAt(i) == c) {
          if (i + 1 < sql.length() && sql.charAt(i + 1) == c) {
            i += 2;
            continue;
          }
          return i + 1;
        }
        i++;
      }
      return sql.length();
    }
    if (sql.startsWith("--", start)) {
      int newline = sql.indexOf('\n', start);
      return newline < 0 ? sql.length() : newline;
    }
    if (sql.startsWith("/*", start)) {
      int close = sql.indexOf("*/", start + 2);
      return close < 0 ? sql.length() : close + 2;
    }
    return start + 1;
  }

  /** A file location as DuckDB reads it: local {@code file:} URIs become plain paths. */
  public static String localPath(String location) {
    if (location.startsWith("file:///")) {
      return location.substring("file://".length());
    }
    if (location.startsWith("file:/")) {
      return location.substring("file:".length());
    }
    return location;
  }
}
