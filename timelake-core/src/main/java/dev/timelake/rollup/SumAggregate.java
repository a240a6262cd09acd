package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;

/**
 * {@code sum(x)} of a numeric column: integers are stored as DECIMAL(38,0) (Iceberg has no 128-bit
 * integer) and answered as HUGEINT, as DuckDB sums them.
 */
final class SumAggregate extends ColumnAggregate {
  SumAggregate() {
    super("sum");
  }

  @Override
  Set<ColumnType.Kind> accepts() {
    return NUMERIC;
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    ColumnType input = columnType(call, raw);
    return switch (input.kind()) {
      case INTEGER, BIGINT -> ColumnType.decimal(38, 0);
      case DECIMAL -> ColumnType.decimal(38, input.scale());
      default -> ColumnType.DOUBLE;
    };
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    ColumnType input = columnType(call, raw);
    return switch (input.kind()) {
      case INTEGER, BIGINT -> "HUGEINT";
      case DECIMAL -> "DECIMAL(38," + input.scale() + ")";
      default -> "DOUBLE";
    };
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    return SyntaxTrees.call("sum", rows.column(call.requireColumn()));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(StateField.of(resultType(call, raw), StateField.Merge.SUM));
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
