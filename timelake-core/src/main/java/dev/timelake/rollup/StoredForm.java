package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import net.sf.jsqlparser.expression.Expression;

/**
 * How one query aggregate is computed from the columns a rollup stores: the state of one stored row
 * (its fields as the aggregate's {@link StateField}s, to be merged with other rows; empty when the
 * rollup lacks what merging needs, as for an average stored without a count), and the final value
 * of one stored row (for a query at the rollup's own width and keys).
 */
public record StoredForm(
    List<StoredAggregate> uses,
    Optional<Function<StoredColumns, List<Expression>>> state,
    Function<StoredColumns, Expression> asStored) {
  public StoredForm {
    uses = List.copyOf(uses);
    requireNonNull(state, "state is null");
    requireNonNull(asStored, "asStored is null");
  }

  /** A form whose rows merge. */
  public static StoredForm mergeable(
      List<StoredAggregate> uses,
      Function<StoredColumns, List<Expression>> state,
      Function<StoredColumns, Expression> asStored) {
    return new StoredForm(uses, Optional.of(state), asStored);
  }

  /** A form that answers only as stored: one stored row per output row. */
  public static StoredForm asStoredOnly(
      List<StoredAggregate> uses, Function<StoredColumns, Expression> asStored) {
    return new StoredForm(uses, Optional.empty(), asStored);
  }

  /** True when stored rows can be merged into coarser buckets or fewer keys. */
  public boolean isMergeable() {
    return state.isPresent();
  }

  /** The state of one stored row; throws when the form does not merge. */
  public List<Expression> stateOf(StoredColumns row) {
    return state
        .orElseThrow(() -> new IllegalStateException("the rows of " + uses + " do not merge"))
        .apply(row);
  }
}
