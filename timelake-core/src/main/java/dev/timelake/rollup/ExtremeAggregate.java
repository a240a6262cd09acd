package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;

/** {@code min(x)} and {@code max(x)}: stored as they are, merged by themselves. */
final class ExtremeAggregate extends ColumnAggregate {
  private final StateField.Merge merge;

  private ExtremeAggregate(String name, StateField.Merge merge) {
    super(name);
    this.merge = merge;
  }

  static ExtremeAggregate min() {
    return new ExtremeAggregate("min", StateField.Merge.MIN);
  }

  static ExtremeAggregate max() {
    return new ExtremeAggregate("max", StateField.Merge.MAX);
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return columnType(call, raw);
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return columnType(call, raw).sql();
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    return SyntaxTrees.call(name(), rows.column(call.requireColumn()));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(StateField.of(resultType(call, raw), merge));
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
