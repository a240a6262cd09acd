package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;

/**
 * The gap aggregates (docs/SPEC.md §7) of one series at one threshold: {@code gap_count(time, t)},
 * {@code gap_seconds(time, t)} and their state {@code gap_state(time, t)}. A rollup stores the
 * state for either (named with the threshold, {@code gap_count_300s}), which answers both. States
 * merge along time by {@code gap_state(s)}, never across series.
 */
final class GapAggregate extends StateAggregate {
  static final String STATE_FUNCTION = "gap_state";

  static final ColumnType STATE =
      ColumnType.struct(
          List.of(
              new ColumnType.Field("first_time", ColumnType.TIMESTAMPTZ),
              new ColumnType.Field("last_time", ColumnType.TIMESTAMPTZ),
              new ColumnType.Field("threshold_seconds", ColumnType.DOUBLE),
              new ColumnType.Field("gap_count", ColumnType.BIGINT),
              new ColumnType.Field("gap_seconds", ColumnType.DOUBLE)));

  /** Gap runs pay from four readings a row, as m4 points do (the seed's threshold). */
  private static final double READINGS_PER_ROW = 4;

  private GapAggregate(String name) {
    super(name);
  }

  static GapAggregate state() {
    return new GapAggregate(STATE_FUNCTION);
  }

  static GapAggregate count() {
    return new GapAggregate("gap_count");
  }

  static GapAggregate seconds() {
    return new GapAggregate("gap_seconds");
  }

  @Override
  public AggregateCall parse(Function function, TableContract raw) {
    ExpressionList<?> parameters = function.getParameters();
    String time = raw.timeColumn().orElse("time");
    if (function.isDistinct()
        || function.getOrderByElements() != null
        || parameters == null
        || parameters.size() != 2
        || !SignalCalls.isTime(parameters.get(0), raw)) {
      throw new UnsupportedPart(
          "aggregate "
              + function
              + " must be "
              + name()
              + "("
              + time
              + ", threshold) of "
              + raw.name());
    }
    BigDecimal seconds =
        SignalCalls.seconds(parameters.get(1))
            .orElseThrow(
                () ->
                    new UnsupportedPart(
                        "the threshold of "
                            + function
                            + " must be a number of seconds or a fixed interval such as"
                            + " '5 minutes', zero or more"));
    return new AggregateCall(name(), Optional.of(time), List.of(SignalCalls.canonical(seconds)));
  }

  @Override
  public AggregateCall storedCall(AggregateCall call) {
    return new AggregateCall(STATE_FUNCTION, call.column(), call.arguments());
  }

  /** {@code gap_count_300s} for every gap call at 300 s: the state answers all of them. */
  @Override
  public String defaultName(AggregateCall call) {
    return "gap_count_" + threshold(call) + "s";
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return switch (name()) {
      case "gap_count" -> ColumnType.BIGINT;
      case "gap_seconds" -> ColumnType.DOUBLE;
      default -> STATE;
    };
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return storedType(call, raw).sql();
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    return SyntaxTrees.call(name(), rows.time(), thresholdOf(call));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(StateField.mergedBy(STATE.sql(), STATE_FUNCTION));
  }

  @Override
  public List<Expression> stateOverRows(AggregateCall call, RawColumns rows) {
    return List.of(SyntaxTrees.call(STATE_FUNCTION, rows.time(), thresholdOf(call)));
  }

  @Override
  public Expression finalOf(AggregateCall call, List<Expression> state) {
    return name().equals(STATE_FUNCTION)
        ? state.get(0)
        : SyntaxTrees.call("struct_extract", state.get(0), new StringValue(name()));
  }

  @Override
  AggregateCall stateCall(AggregateCall call) {
    return storedCall(call);
  }

  @Override
  boolean mergesAcrossSeries() {
    return false;
  }

  @Override
  public boolean mergesAlongTimeOnly() {
    return true;
  }

  @Override
  public double minimumReadingsPerRow() {
    return READINGS_PER_ROW;
  }

  private static String threshold(AggregateCall call) {
    return call.arguments().get(0);
  }

  private static Expression thresholdOf(AggregateCall call) {
    return SyntaxTrees.cast(
        new net.sf.jsqlparser.expression.DoubleValue(threshold(call)), "DOUBLE");
  }
}
