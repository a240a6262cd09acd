package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

/**
 * One field of an aggregate's mergeable state: its DuckDB type and how values of several rows
 * merge. {@code FIRST} and {@code LAST} take the value of the row whose field {@code orderField} is
 * smallest or largest (NULLs included, as {@code first_value} does); {@code CALL} merges with the
 * aggregate {@code function} of the states themselves ({@code m4(points)}).
 */
public record StateField(String type, Merge merge, int orderField, String function) {
  /** How a field merges. */
  public enum Merge {
    SUM,
    MIN,
    MAX,
    FIRST,
    LAST,
    CALL
  }

  public StateField {
    requireNonNull(type, "type is null");
    requireNonNull(merge, "merge is null");
    if ((merge == Merge.CALL) == (function == null)) {
      throw new IllegalArgumentException("a CALL merge, and only it, names a function");
    }
  }

  /** A FIRST or LAST field ordered by field {@code orderField}. */
  public StateField(String type, Merge merge, int orderField) {
    this(type, merge, orderField, null);
  }

  /** A field merged by {@code merge} (not FIRST, LAST or CALL). */
  public static StateField of(String type, Merge merge) {
    return new StateField(type, merge, -1, null);
  }

  /** A state merged by the aggregate {@code function} over states. */
  public static StateField mergedBy(String type, String function) {
    return new StateField(type, Merge.CALL, -1, function);
  }
}
