package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Select;

/**
 * A rendered route: the relation (see {@link RouteRenderer}) and the table node of its raw part, if
 * it has one, so a caller can narrow what that part's files give before copies are removed.
 */
public record RenderedRoute(Select relation, Optional<Table> rawTable) {
  public RenderedRoute {
    requireNonNull(relation, "relation is null");
    requireNonNull(rawTable, "rawTable is null");
  }
}
