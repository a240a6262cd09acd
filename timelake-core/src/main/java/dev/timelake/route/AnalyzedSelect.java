package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;

/**
 * A routable SELECT taken apart: its {@link QueryShape}, the name its table goes by, its key
 * filters and filters on other columns, and the nodes of its SELECT list, HAVING and ORDER BY that
 * the routed statement replaces — each aggregate call (by its index in the shape), each reference
 * to a grouping column, each bucket expression. Nodes are kept by identity.
 */
record AnalyzedSelect(
    QueryShape shape,
    String alias,
    List<Expression> keyFilters,
    List<Expression> rowFilters,
    IdentityHashMap<Expression, Integer> aggregateNodes,
    IdentityHashMap<Expression, String> keyNodes,
    Set<Expression> bucketNodes) {

  AnalyzedSelect {
    requireNonNull(shape, "shape is null");
    requireNonNull(alias, "alias is null");
    keyFilters = List.copyOf(keyFilters);
    rowFilters = List.copyOf(rowFilters);
  }
}
