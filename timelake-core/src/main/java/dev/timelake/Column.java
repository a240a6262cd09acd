package dev.timelake;

import static java.util.Objects.requireNonNull;

/**
 * A column of a table: name, type and whether it may hold nulls. Time and series-key columns are
 * always required.
 */
public record Column(String name, ColumnType type, Nullability nullability) {
  /** Whether a column may hold nulls. */
  public enum Nullability {
    NULLABLE,
    REQUIRED
  }

  public Column {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(nullability, "nullability is null");
    if (name.isBlank()) {
      throw TimelakeException.validation("Invalid column name: it is empty");
    }
  }

  /** A column that may hold nulls. */
  public static Column nullable(String name, ColumnType type) {
    return new Column(name, type, Nullability.NULLABLE);
  }

  /** A column that must not hold nulls. */
  public static Column required(String name, ColumnType type) {
    return new Column(name, type, Nullability.REQUIRED);
  }

  /** True when the column may hold nulls. */
  public boolean isNullable() {
    return nullability == Nullability.NULLABLE;
  }

  /** This column, required. */
  public Column asRequired() {
    return new Column(name, type, Nullability.REQUIRED);
  }
}
