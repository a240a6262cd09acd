package dev.timelake.rollup;

import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;

/**
 * An aggregate whose state is its own value, merged by one function of the same kind: sum by sum,
 * min by min, max by max. A rollup stores the value, which is the state.
 */
abstract class SelfMergingAggregate extends ColumnAggregate {
  SelfMergingAggregate(String name) {
    super(name);
  }

  /** How two values merge. */
  abstract StateField.Merge merge();

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    return SyntaxTrees.call(name(), rows.column(call.requireColumn()));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(StateField.of(resultType(call, raw), merge()));
  }

  @Override
  public List<Expression> stateOverRows(AggregateCall call, RawColumns rows) {
    return List.of(overRows(call, rows));
  }

  @Override
  public Expression finalOf(AggregateCall call, List<Expression> state) {
    return state.get(0);
  }

  @Override
  public Optional<StoredForm> storedForm(
      AggregateCall call, List<StoredAggregate> stored, TableContract raw, SeriesMerge merge) {
    return find(stored, call)
        .map(
            s ->
                StoredForm.mergeable(
                    List.of(s), row -> List.of(row.column(s)), row -> row.column(s)));
  }
}
