package dev.timelake.rollup;

import dev.timelake.engine.SyntaxTrees;
import net.sf.jsqlparser.expression.Expression;

/** References to a raw table's columns in a rendered query, through the table's alias. */
public record RawColumns(String qualifier, String timeColumn) {
  /** The raw column {@code name}. */
  public Expression column(String name) {
    return SyntaxTrees.column(qualifier, name);
  }

  /** The time column. */
  public Expression time() {
    return column(timeColumn);
  }
}
