package dev.timelake.rollup;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;

/**
 * The time-weighted aggregates (docs/SPEC.md §7) over one series: {@code time_weighted_state(time,
 * x)}, which a rollup stores, and {@code time_weighted_mean} and {@code integral}, answered from
 * it. Their state is the time-weighted state, merged along time by {@code time_weighted_state(s)};
 * states of different series overlap, so they never merge across series.
 */
final class TimeWeightedAggregate extends StateAggregate {
  static final String STATE_FUNCTION = "time_weighted_state";

  static final ColumnType STATE =
      ColumnType.struct(
          List.of(
              new ColumnType.Field("first_time", ColumnType.TIMESTAMPTZ),
              new ColumnType.Field("first_value", ColumnType.DOUBLE),
              new ColumnType.Field("last_time", ColumnType.TIMESTAMPTZ),
              new ColumnType.Field("last_value", ColumnType.DOUBLE),
              new ColumnType.Field("linear_sum", ColumnType.DOUBLE),
              new ColumnType.Field("forward_fill_sum", ColumnType.DOUBLE),
              new ColumnType.Field("duration_seconds", ColumnType.DOUBLE)));

  /**
   * Merging a stored state costs about as much as reading 25–50 readings (the seed measured it), so
   * a rollup answers from states only where a row holds at least 32 on average.
   */
  private static final double READINGS_PER_ROW = 32;

  private static final List<String> METHODS = List.of("linear", "forward_fill");

  private static final String DEFAULT_UNIT = "1 second";

  private TimeWeightedAggregate(String name) {
    super(name);
  }

  static TimeWeightedAggregate state() {
    return new TimeWeightedAggregate(STATE_FUNCTION);
  }

  static TimeWeightedAggregate mean() {
    return new TimeWeightedAggregate("time_weighted_mean");
  }

  static TimeWeightedAggregate integral() {
    return new TimeWeightedAggregate("integral");
  }

  @Override
  public AggregateCall parse(Function function, TableContract raw) {
    ExpressionList<?> parameters = function.getParameters();
    String time = raw.timeColumn().orElse("time");
    int most = name().equals("integral") ? 4 : name().equals(STATE_FUNCTION) ? 2 : 3;
    if (function.isDistinct()
        || function.getOrderByElements() != null
        || parameters == null
        || parameters.size() < 2
        || parameters.size() > most
        || !SyntaxNames.column(parameters.get(0))
            .map(c -> SyntaxNames.unquote(c.getColumnName()).equalsIgnoreCase(time))
            .orElse(false)
        || SyntaxNames.column(parameters.get(1)).isEmpty()) {
      throw new UnsupportedPart(
          "aggregate "
              + function
              + " must be "
              + name()
              + "("
              + time
              + ", column…) of "
              + raw.name());
    }
    Column column =
        ColumnAggregate.columnOf(
            raw,
            SyntaxNames.unquote(
                SyntaxNames.column(parameters.get(1)).orElseThrow().getColumnName()),
            function);
    if (!ColumnAggregate.NUMERIC.contains(column.type().kind())) {
      throw new UnsupportedPart(
          name()
              + " of column '"
              + column.name()
              + "' of type "
              + column.type()
              + " is not supported");
    }
    List<String> literals = new ArrayList<>();
    for (int i = 2; i < parameters.size(); i++) {
      if (!(parameters.get(i) instanceof StringValue text)) {
        throw new UnsupportedPart(
            "the arguments after the column of " + function + " must be text literals");
      }
      literals.add(text.getValue());
    }
    return new AggregateCall(name(), Optional.of(column.name()), canonical(literals, function));
  }

  /** The method, and for integral the unit: {@code [linear]}, {@code [linear, 1 second]}. */
  private List<String> canonical(List<String> literals, Function function) {
    if (name().equals(STATE_FUNCTION)) {
      return List.of();
    }
    String method = "linear";
    String unit = DEFAULT_UNIT;
    for (String literal : literals) {
      if (METHODS.contains(literal)) {
        method = literal;
      } else if (name().equals("integral")) {
        unit = literal;
      } else {
        throw new UnsupportedPart(
            "the method of " + function + " must be 'linear' or 'forward_fill'");
      }
    }
    return name().equals("integral") ? List.of(method, unit) : List.of(method);
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return name().equals(STATE_FUNCTION) ? STATE : ColumnType.DOUBLE;
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return name().equals(STATE_FUNCTION) ? STATE.sql() : "DOUBLE";
  }

  @Override
  public Expression overRows(AggregateCall call, RawColumns rows) {
    List<Expression> arguments = new ArrayList<>();
    arguments.add(rows.time());
    arguments.add(rows.column(call.requireColumn()));
    call.arguments().forEach(argument -> arguments.add(new StringValue(argument)));
    return SyntaxTrees.call(name(), arguments.toArray(Expression[]::new));
  }

  @Override
  public List<StateField> state(AggregateCall call, TableContract raw) {
    return List.of(StateField.mergedBy(STATE.sql(), STATE_FUNCTION));
  }

  @Override
  public List<Expression> stateOverRows(AggregateCall call, RawColumns rows) {
    return List.of(
        SyntaxTrees.call(STATE_FUNCTION, rows.time(), rows.column(call.requireColumn())));
  }

  @Override
  public Expression finalOf(AggregateCall call, List<Expression> state) {
    return switch (name()) {
      case "time_weighted_mean" ->
          SyntaxTrees.call(
              "__timelake_tw_mean", state.get(0), new StringValue(call.arguments().get(0)));
      case "integral" ->
          SyntaxTrees.call(
              "__timelake_integral",
              state.get(0),
              new StringValue(call.arguments().get(0)),
              SyntaxTrees.call(
                  "__timelake_unit_seconds",
                  new StringValue("integral"),
                  new StringValue(call.arguments().get(1))));
      default -> state.get(0);
    };
  }

  /** {@code time_weighted_mean:linear(value)}, {@code integral:linear:1 hour(value)}. */
  @Override
  public String defaultName(AggregateCall call) {
    List<String> spelled = new ArrayList<>();
    spelled.add(name());
    for (String argument : call.arguments()) {
      if (!argument.equals(DEFAULT_UNIT)) {
        spelled.add(argument);
      }
    }
    return String.join(":", spelled) + "(" + call.requireColumn() + ")";
  }

  @Override
  AggregateCall stateCall(AggregateCall call) {
    return AggregateCall.of(STATE_FUNCTION, call.requireColumn());
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
}
