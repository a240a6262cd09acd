package dev.timelake;

import static java.util.Objects.requireNonNull;

/**
 * One column of a query's result: its name and its DuckDB type, e.g. {@code TIMESTAMP WITH TIME
 * ZONE}.
 */
public record ResultColumn(String name, String type) {
  public ResultColumn {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
  }
}
