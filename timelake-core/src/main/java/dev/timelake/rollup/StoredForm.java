package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Function;
import net.sf.jsqlparser.expression.Expression;

/**
 * How one query aggregate is computed from the columns a rollup stores: the state of one stored row
 * (its fields as the aggregate's {@link StateField}s, to be merged with other rows), and the final
 * value of one stored row (for a query at the rollup's own width and keys).
 */
public record StoredForm(
    List<StoredAggregate> uses,
    Function<StoredColumns, List<Expression>> state,
    Function<StoredColumns, Expression> asStored) {
  public StoredForm {
    uses = List.copyOf(uses);
    requireNonNull(state, "state is null");
    requireNonNull(asStored, "asStored is null");
  }
}
