package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;

/**
 * {@code avg(x)}: its state is the sum and the count of the non-NULL values. A rollup stores the
 * average itself (what users of the rollup table read) and must also store a count of the column,
 * or {@code count(*)} when it cannot be NULL; with a stored {@code sum(x)} the state is exact,
 * otherwise it is {@code avg × count}.
 */
final class AverageAggregate extends ColumnAggregate {
  AverageAggregate() {
    super("avg");
  }

  @Override
  Set<ColumnType.Kind> accepts() {
    return NUMERIC;
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return ColumnType.DOUBLE;
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return "DOUBLE";
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    return SyntaxTrees.call("avg", rows.column(call.requireColumn()));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(
        StateField.of("DOUBLE", StateField.Merge.SUM),
        StateField.of("BIGINT", StateField.Merge.SUM));
  }

  @Override
  public List<Expression> stateOverRows(AggregateCall call, RawColumns rows) {
    Expression column = rows.column(call.requireColumn());
    return List.of(
        SyntaxTrees.cast(SyntaxTrees.call("sum", column), "DOUBLE"),
        SyntaxTrees.call("count", column));
  }

  @Override
  public List<Expression> merge(AggregateCall call, TableContract raw, List<Expression> fields) {
    return List.of(
        SyntaxTrees.call("sum", fields.get(0)),
        SyntaxTrees.cast(SyntaxTrees.call("sum", fields.get(1)), "BIGINT"));
  }

  @Override
  public Expression finalOf(AggregateCall call, List<Expression> state) {
    return SyntaxTrees.dividedBy(
        state.get(0), SyntaxTrees.call("nullif", state.get(1), SyntaxTrees.number(0)));
  }

  @Override
  public Optional<StoredForm> storedForm(
      AggregateCall call, List<StoredAggregate> stored, TableContract raw, SeriesMerge merge) {
    Optional<StoredAggregate> count = findCount(stored, call, raw);
    Optional<StoredAggregate> average = find(stored, call);
    if (count.isEmpty()) {
      // Rollups of the first version stored the average alone: it answers only as stored.
      return average.map(a -> StoredForm.asStoredOnly(List.of(a), row -> row.column(a)));
    }
    StoredAggregate n = count.get();
    Optional<StoredAggregate> sum = find(stored, AggregateCall.of("sum", call.requireColumn()));
    if (sum.isPresent()) {
      StoredAggregate s = sum.get();
      return Optional.of(
          StoredForm.mergeable(
              List.of(s, n),
              row -> List.of(SyntaxTrees.cast(row.column(s), "DOUBLE"), row.column(n)),
              row ->
                  average
                      .map(row::column)
                      .orElseGet(
                          () ->
                              finalOf(
                                  call,
                                  List.of(
                                      SyntaxTrees.cast(row.column(s), "DOUBLE"), row.column(n))))));
    }
    return average.map(
        a ->
            StoredForm.mergeable(
                List.of(a, n),
                row -> List.of(SyntaxTrees.times(row.column(a), row.column(n)), row.column(n)),
                row -> row.column(a)));
  }

  @Override
  public Optional<AggregateCall> companion(
      AggregateCall call, List<AggregateCall> stored, TableContract raw) {
    AggregateCall count = AggregateCall.of("count", call.requireColumn());
    boolean counted =
        stored.contains(count)
            || (!nullable(call, raw) && stored.contains(AggregateCall.countRows()));
    return counted ? Optional.empty() : Optional.of(count);
  }
}
