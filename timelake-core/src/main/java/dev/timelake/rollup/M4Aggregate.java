package dev.timelake.rollup;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;

/**
 * {@code m4(time, value)} (docs/SPEC.md §7): the first, smallest, largest and last points of a
 * bucket as a list of {@code {time, value}}. The list is its own state: {@code m4(points)} merges
 * lists of any rows, across buckets and series alike, into the list of their readings.
 */
final class M4Aggregate implements Aggregate {
  static final ColumnType POINTS =
      ColumnType.list(
          ColumnType.struct(
              List.of(
                  new ColumnType.Field("time", ColumnType.TIMESTAMPTZ),
                  new ColumnType.Field("value", ColumnType.DOUBLE))));

  /**
   * Merging stored point lists costs about as much as reading four readings a row (the seed's
   * threshold for m4 points and gap runs).
   */
  private static final double READINGS_PER_ROW = 4;

  @Override
  public String name() {
    return "m4";
  }

  @Override
  public AggregateCall parse(Function function, TableContract raw) {
    ExpressionList<?> parameters = function.getParameters();
    String time = raw.timeColumn().orElse("time");
    if (function.isDistinct()
        || function.getOrderByElements() != null
        || parameters == null
        || parameters.size() != 2) {
      throw new UnsupportedPart(
          "aggregate " + function + " must be m4(" + time + ", column) of " + raw.name());
    }
    boolean byTime =
        SyntaxNames.column(parameters.get(0))
            .map(c -> SyntaxNames.unquote(c.getColumnName()).equalsIgnoreCase(time))
            .orElse(false);
    Optional<net.sf.jsqlparser.schema.Column> value = SyntaxNames.column(parameters.get(1));
    if (!byTime || value.isEmpty()) {
      throw new UnsupportedPart(
          "aggregate " + function + " must be m4(" + time + ", column) of " + raw.name());
    }
    Column column =
        ColumnAggregate.columnOf(raw, SyntaxNames.unquote(value.get().getColumnName()), function);
    if (!ColumnAggregate.NUMERIC.contains(column.type().kind())) {
      throw new UnsupportedPart(
          "m4 of column '" + column.name() + "' of type " + column.type() + " is not supported");
    }
    return AggregateCall.of(name(), column.name());
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return POINTS;
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return POINTS.sql();
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    return SyntaxTrees.call(name(), rows.time(), rows.column(call.requireColumn()));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(StateField.mergedBy(POINTS.sql(), name()));
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
    return ColumnAggregate.find(stored, call)
        .map(
            s ->
                StoredForm.mergeable(
                    List.of(s), row -> List.of(row.column(s)), row -> row.column(s)));
  }

  @Override
  public double minimumReadingsPerRow() {
    return READINGS_PER_ROW;
  }
}
