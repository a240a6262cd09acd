package dev.timelake.rollup;

import dev.timelake.engine.SyntaxTrees;
import net.sf.jsqlparser.expression.Expression;

/** References to a rollup's columns in a rendered query, through the rollup's alias. */
public record StoredColumns(String qualifier, String bucketColumn) {
  /** The column holding {@code aggregate}. */
  public Expression column(StoredAggregate aggregate) {
    return SyntaxTrees.column(qualifier, aggregate.name());
  }

  /** The bucket start column. */
  public Expression bucket() {
    return SyntaxTrees.column(qualifier, bucketColumn);
  }
}
