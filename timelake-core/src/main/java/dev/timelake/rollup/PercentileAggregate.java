package dev.timelake.rollup;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;

/**
 * Percentiles from a mergeable sketch (docs/SPEC.md §7): {@code percentile_sketch(x [, relative
 * error])}, which a rollup stores, and {@code approx_percentile(x, q [, relative error])}, answered
 * from a sketch of the same relative error. Sketches merge anywhere (their bucket counts add up),
 * across buckets and series alike, so a percentile from a rollup equals the one from readings.
 */
final class PercentileAggregate extends StateAggregate {
  static final String SKETCH_FUNCTION = "percentile_sketch";

  private static final String UNION_FUNCTION = "__timelake_sketch_union";

  static final ColumnType SKETCH =
      ColumnType.struct(
          List.of(
              new ColumnType.Field("relative_error", ColumnType.DOUBLE),
              new ColumnType.Field("count", ColumnType.BIGINT),
              new ColumnType.Field(
                  "buckets",
                  ColumnType.list(
                      ColumnType.struct(
                          List.of(
                              new ColumnType.Field("key", ColumnType.BIGINT),
                              new ColumnType.Field("count", ColumnType.BIGINT)))))));

  /** The relative error when a call names none (the functions' default). */
  private static final String DEFAULT_ERROR = "0.01";

  /** A sketch is a state: it pays from 32 readings a row, as time-weighted states do. */
  private static final double READINGS_PER_ROW = 32;

  private PercentileAggregate(String name) {
    super(name);
  }

  static PercentileAggregate sketch() {
    return new PercentileAggregate(SKETCH_FUNCTION);
  }

  static PercentileAggregate percentile() {
    return new PercentileAggregate("approx_percentile");
  }

  @Override
  public AggregateCall parse(Function function, TableContract raw) {
    ExpressionList<?> parameters = function.getParameters();
    int numbers = name().equals(SKETCH_FUNCTION) ? 0 : 1;
    if (function.isDistinct()
        || function.getOrderByElements() != null
        || parameters == null
        || parameters.size() < 1 + numbers
        || parameters.size() > 2 + numbers) {
      throw new UnsupportedPart(
          "aggregate "
              + function
              + " must be "
              + name()
              + (numbers == 0 ? "(column [, relative error])" : "(column, q [, relative error])")
              + " of "
              + raw.name());
    }
    Column column = SignalCalls.numericColumn(parameters.get(0), raw, function, name());
    List<String> arguments = new ArrayList<>();
    if (numbers == 1) {
      BigDecimal q = number(parameters.get(1), function, "q");
      if (q.compareTo(BigDecimal.ZERO) < 0 || q.compareTo(BigDecimal.ONE) > 0) {
        throw new UnsupportedPart("q of " + function + " must be between 0 and 1");
      }
      arguments.add(SignalCalls.canonical(q));
    }
    arguments.add(
        parameters.size() > 1 + numbers
            ? SignalCalls.canonical(number(parameters.get(1 + numbers), function, "relative error"))
            : DEFAULT_ERROR);
    return new AggregateCall(name(), Optional.of(column.name()), arguments);
  }

  private static BigDecimal number(Expression expression, Function function, String what) {
    return SignalCalls.number(expression)
        .orElseThrow(
            () -> new UnsupportedPart("the " + what + " of " + function + " must be a number"));
  }

  /**
   * {@code percentile_sketch(value)}, {@code approx_percentile:0.99(value)}; errors other than 1 %.
   */
  @Override
  public String defaultName(AggregateCall call) {
    List<String> spelled = new ArrayList<>();
    spelled.add(name());
    List<String> arguments = call.arguments();
    spelled.addAll(arguments.subList(0, arguments.size() - 1));
    if (!relativeError(call).equals(DEFAULT_ERROR)) {
      spelled.add(relativeError(call));
    }
    return String.join(":", spelled) + "(" + call.requireColumn() + ")";
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return name().equals(SKETCH_FUNCTION) ? SKETCH : ColumnType.DOUBLE;
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return storedType(call, raw).sql();
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    Expression sketch = stateOverRows(call, rows).get(0);
    return name().equals(SKETCH_FUNCTION) ? sketch : finalOf(call, List.of(sketch));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    // Merged without summing equal keys: a percentile reads the union as it reads a sum.
    return List.of(StateField.mergedBy(SKETCH.sql(), UNION_FUNCTION));
  }

  @Override
  public List<Expression> stateOverRows(AggregateCall call, RawColumns rows) {
    return List.of(
        SyntaxTrees.call(
            SKETCH_FUNCTION,
            SyntaxTrees.cast(rows.column(call.requireColumn()), "DOUBLE"),
            doubleOf(relativeError(call))));
  }

  @Override
  public Expression finalOf(AggregateCall call, List<Expression> state) {
    return name().equals(SKETCH_FUNCTION)
        ? SyntaxTrees.call("__timelake_sketch_compact", state.get(0))
        : SyntaxTrees.call(
            "__timelake_sketch_percentile", state.get(0), doubleOf(call.arguments().get(0)));
  }

  @Override
  AggregateCall stateCall(AggregateCall call) {
    return new AggregateCall(SKETCH_FUNCTION, call.column(), List.of(relativeError(call)));
  }

  @Override
  boolean mergesAcrossSeries() {
    return true;
  }

  /**
   * Summing the counts of equal keys of many sketches costs more than reading the rows: a sketch
   * itself (a coarser rollup's) comes from stored sketches only as stored.
   */
  @Override
  boolean answersFromMergedStates(AggregateCall call) {
    return !name().equals(SKETCH_FUNCTION);
  }

  @Override
  public double minimumReadingsPerRow() {
    return READINGS_PER_ROW;
  }

  private static String relativeError(AggregateCall call) {
    return call.arguments().get(call.arguments().size() - 1);
  }

  private static Expression doubleOf(String number) {
    return SyntaxTrees.cast(new DoubleValue(number), "DOUBLE");
  }
}
