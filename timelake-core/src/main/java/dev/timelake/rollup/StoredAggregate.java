package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

/**
 * One aggregate a rollup stores: the rollup's column {@code name} holds {@code call} per bucket.
 */
public record StoredAggregate(String name, AggregateCall call) {
  public StoredAggregate {
    requireNonNull(name, "name is null");
    requireNonNull(call, "call is null");
  }

  /** The function's canonical name. */
  public String function() {
    return call.function();
  }
}
