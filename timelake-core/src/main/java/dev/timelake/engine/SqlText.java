package dev.timelake.engine;

import java.util.List;
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

  /** A DuckDB list of string literals, e.g. {@code ['a.parquet', 'b.parquet']}. */
  public static String literalList(List<String> values) {
    return values.stream().map(SqlText::literal).collect(Collectors.joining(", ", "[", "]"));
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
