package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;

/**
 * One stored aggregate of a rollup: its output column, function ({@code count}, {@code sum}, {@code
 * min}, {@code max}, {@code avg}, {@code first_value}, {@code last_value}) and the raw column it
 * reads (empty for {@code count(*)}).
 */
public record RollupAggregate(String name, String function, Optional<String> column) {
  public RollupAggregate {
    requireNonNull(name, "name is null");
    function = requireNonNull(function, "function is null").toLowerCase(Locale.ROOT);
    requireNonNull(column, "column is null");
  }

  /** The aggregate as SQL over the raw table, e.g. {@code avg("value")}. */
  String sql(String timeColumn) {
    String argument = column.map(dev.timelake.engine.SqlText::identifier).orElse("*");
    if (function.equals("first_value") || function.equals("last_value")) {
      String duckdb = function.equals("first_value") ? "first" : "last";
      return duckdb
          + "("
          + argument
          + " ORDER BY "
          + dev.timelake.engine.SqlText.identifier(timeColumn)
          + ")";
    }
    return function + "(" + argument + ")";
  }

  /** True when {@code other} computes the same thing (names aside). */
  boolean sameAs(String otherFunction, Optional<String> otherColumn) {
    return function.equals(otherFunction.toLowerCase(Locale.ROOT))
        && column
            .map(c -> c.toLowerCase(Locale.ROOT))
            .equals(otherColumn.map(c -> c.toLowerCase(Locale.ROOT)));
  }

  /** JSON object {@code {"name":…,"function":…,"column":…}}. */
  String toJson() {
    return "{\"name\":"
        + quote(name)
        + ",\"function\":"
        + quote(function)
        + ",\"column\":"
        + column.map(RollupAggregate::quote).orElse("null")
        + "}";
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
