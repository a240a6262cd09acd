package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

/**
 * One field of an aggregate's mergeable state: its DuckDB type and how values of several rows
 * merge. {@code FIRST} and {@code LAST} take the value of the row whose field {@code orderField} is
 * smallest or largest (NULLs included, as {@code first_value} does).
 */
public record StateField(String type, Merge merge, int orderField) {
  /** How a field merges. */
  public enum Merge {
    SUM,
    MIN,
    MAX,
    FIRST,
    LAST
  }

  public StateField {
    requireNonNull(type, "type is null");
    requireNonNull(merge, "merge is null");
  }

  /** A field merged by {@code merge} (not FIRST or LAST). */
  public static StateField of(String type, Merge merge) {
    return new StateField(type, merge, -1);
  }
}
