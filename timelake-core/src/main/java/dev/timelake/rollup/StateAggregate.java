package dev.timelake.rollup;

import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;

/**
 * A signal aggregate answered from a stored state (docs/SPEC.md §7): the time-weighted, gap and
 * percentile families, one instance per function name. A rollup that stores a call of the family
 * also stores the state (a companion), from which every call of the family is computed, merged
 * along time or across series as the state allows.
 */
abstract class StateAggregate implements Aggregate {
  private final String name;

  StateAggregate(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  /** The call of the state that answers {@code call} (itself for the state function). */
  abstract AggregateCall stateCall(AggregateCall call);

  /** True when states of several series merge (sketches), false when they overlap in time. */
  abstract boolean mergesAcrossSeries();

  /**
   * True when {@code call} is answered from merged states; false when only as stored, because
   * merging its result costs more than reading the rows (a percentile sketch itself).
   */
  boolean answersFromMergedStates(AggregateCall call) {
    return true;
  }

  @Override
  public Optional<StoredForm> storedForm(
      AggregateCall call, List<StoredAggregate> stored, TableContract raw, SeriesMerge merge) {
    Optional<StoredAggregate> state = ColumnAggregate.find(stored, stateCall(call));
    if (state.isPresent()) {
      StoredAggregate s = state.get();
      return Optional.of(
          answersFromMergedStates(call)
              ? SignalCalls.stateForm(
                  s, merge, mergesAcrossSeries(), value -> finalOf(call, List.of(value)))
              : StoredForm.asStoredOnly(List.of(s), row -> row.column(s)));
    }
    return ColumnAggregate.find(stored, call)
        .map(s -> StoredForm.asStoredOnly(List.of(s), row -> row.column(s)));
  }

  /** A call in a definition is stored with its state, so that it merges. */
  @Override
  public Optional<AggregateCall> companion(
      AggregateCall call, List<AggregateCall> stored, TableContract raw) {
    AggregateCall state = stateCall(call);
    return call.equals(state) || stored.contains(state) ? Optional.empty() : Optional.of(state);
  }
}
