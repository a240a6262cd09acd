package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;

/**
 * {@code first_value(x ORDER BY time)} and {@code last_value(x ORDER BY time)}: the value at the
 * earliest or latest reading, NULL included. The state pairs the value with its time; a stored row
 * stands at its bucket's start, which orders rows of different buckets as their readings are.
 */
final class EdgeAggregate extends ColumnAggregate {
  private final boolean first;

  private EdgeAggregate(String name, boolean first) {
    super(name);
    this.first = first;
  }

  static EdgeAggregate firstValue() {
    return new EdgeAggregate("first_value", true);
  }

  static EdgeAggregate lastValue() {
    return new EdgeAggregate("last_value", false);
  }

  @Override
  boolean orderedByTime() {
    return true;
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
    return SyntaxTrees.orderedCall(duckdbName(), rows.column(call.requireColumn()), rows.time());
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(
        new StateField(
            resultType(call, raw), first ? StateField.Merge.FIRST : StateField.Merge.LAST, 1),
        StateField.of("TIMESTAMPTZ", first ? StateField.Merge.MIN : StateField.Merge.MAX));
  }

  @Override
  public List<Expression> stateOverRows(AggregateCall call, RawColumns rows) {
    return List.of(overRows(call, rows), SyntaxTrees.call(first ? "min" : "max", rows.time()));
  }

  @Override
  public Expression finalOf(AggregateCall call, List<Expression> state) {
    return state.get(0);
  }

  @Override
  public Optional<StoredForm> storedForm(
      AggregateCall call, List<StoredAggregate> stored, TableContract raw, SeriesMerge merge) {
    Optional<StoredAggregate> value = find(stored, call);
    Optional<StoredAggregate> time = find(stored, timeOf(raw));
    if (value.isEmpty() || (time.isEmpty() && merge == SeriesMerge.ACROSS)) {
      return Optional.empty();
    }
    StoredAggregate v = value.get();
    return Optional.of(
        StoredForm.mergeable(
            time.isPresent() ? List.of(v, time.get()) : List.of(v),
            row -> List.of(row.column(v), time.map(row::column).orElseGet(row::bucket)),
            row -> row.column(v)));
  }

  @Override
  public Optional<AggregateCall> companion(
      AggregateCall call, List<AggregateCall> stored, TableContract raw) {
    AggregateCall time = timeOf(raw);
    return stored.contains(time) ? Optional.empty() : Optional.of(time);
  }

  /** {@code min(time)} or {@code max(time)}: the time of the reading whose value this takes. */
  private AggregateCall timeOf(TableContract raw) {
    return AggregateCall.of(first ? "min" : "max", raw.timeColumn().orElseThrow());
  }

  private String duckdbName() {
    return first ? "first" : "last";
  }
}
