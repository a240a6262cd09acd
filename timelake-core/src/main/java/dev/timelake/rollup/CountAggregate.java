package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;

/** {@code count(*)} and {@code count(x)}: stored as a count, merged by summing. */
final class CountAggregate extends ColumnAggregate {
  CountAggregate() {
    super("count");
  }

  @Override
  boolean takesRows() {
    return true;
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return ColumnType.BIGINT;
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return "BIGINT";
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    return call.column().isEmpty()
        ? SyntaxTrees.countRows()
        : SyntaxTrees.call("count", rows.column(call.requireColumn()));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(StateField.of("BIGINT", StateField.Merge.SUM));
  }

  @Override
  public List<Expression> stateOverRows(AggregateCall call, RawColumns rows) {
    return List.of(overRows(call, rows));
  }

  @Override
  public List<Expression> merge(AggregateCall call, TableContract raw, List<Expression> fields) {
    return List.of(SyntaxTrees.cast(SyntaxTrees.call("sum", fields.get(0)), "BIGINT"));
  }

  @Override
  public Expression finalOf(AggregateCall call, List<Expression> state) {
    // A merge over no rows (a range without data, no GROUP BY) counts nothing: 0, not NULL.
    return SyntaxTrees.call("coalesce", state.get(0), SyntaxTrees.number(0));
  }

  @Override
  public Optional<StoredForm> storedForm(
      AggregateCall call, List<StoredAggregate> stored, TableContract raw, SeriesMerge merge) {
    Optional<StoredAggregate> count =
        call.column().isEmpty()
            ? find(stored, call)
                .or(() -> stored.stream().filter(s -> countsEveryRow(s, raw)).findFirst())
            : findCount(stored, call, raw);
    return count.map(
        c -> StoredForm.mergeable(List.of(c), row -> List.of(row.column(c)), row -> row.column(c)));
  }

  /** A count of a column that cannot be NULL counts every row. */
  private static boolean countsEveryRow(StoredAggregate stored, TableContract raw) {
    return stored.function().equals("count")
        && stored.call().column().map(c -> !raw.column(c).isNullable()).orElse(true);
  }
}
