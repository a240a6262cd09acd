package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;

/**
 * What rendering a route needs besides the plan: the name every part gives its table (the query's
 * alias, so its key filters resolve), the query's filters on key columns (syntax trees, applied in
 * every part), and for a refresh the cells it is limited to.
 */
public record RenderSpec(String alias, List<Expression> keyFilters, Optional<Cells> cells) {
  public RenderSpec {
    requireNonNull(alias, "alias is null");
    keyFilters = List.copyOf(keyFilters);
    requireNonNull(cells, "cells is null");
  }
}
