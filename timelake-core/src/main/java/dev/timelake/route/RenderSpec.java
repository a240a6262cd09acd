package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;

/**
 * What rendering a route needs besides the plan: the name every part gives its table (the query's
 * alias, so its key filters resolve), the query's filters on key columns (syntax trees, applied in
 * every part), its filters on other columns (applied to raw rows only: the rollups read hold rows
 * filtered so already), and for a refresh the cells it is limited to.
 */
public record RenderSpec(
    String alias, List<Expression> keyFilters, List<Expression> rowFilters, Optional<Cells> cells) {
  /** A spec without filters on other columns than keys. */
  public RenderSpec(String alias, List<Expression> keyFilters, Optional<Cells> cells) {
    this(alias, keyFilters, List.of(), cells);
  }

  public RenderSpec {
    requireNonNull(alias, "alias is null");
    keyFilters = List.copyOf(keyFilters);
    rowFilters = List.copyOf(rowFilters);
    requireNonNull(cells, "cells is null");
  }
}
