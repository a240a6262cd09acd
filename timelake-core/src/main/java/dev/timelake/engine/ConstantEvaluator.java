package dev.timelake.engine;

import dev.timelake.QueryFailedException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Evaluates constant expressions of a statement (literals, casts, interval arithmetic, {@code
 * now()}) with DuckDB itself, so pruning understands every constant DuckDB does. The expression is
 * printed from the syntax tree, never pasted from user text.
 */
public final class ConstantEvaluator {
  private final EngineConnection connection;

  private final java.util.Map<String, Optional<Object>> cache = new java.util.HashMap<>();

  public ConstantEvaluator(EngineConnection connection) {
    this.connection = connection;
  }

  /**
   * True when the expression reads no column, subquery or window and draws no random value: one
   * evaluation gives the value it has for the whole statement.
   */
  public static boolean isConstant(Expression expression) {
    return readsOnly(
        expression,
        column -> false,
        function -> function.getName() == null || !FunctionStability.isRandom(function.getName()));
  }

  /**
   * True when {@code expression} has no subquery and no window function, and every column and
   * function call in it passes its test (a function's arguments are looked at too).
   */
  public static boolean readsOnly(
      Expression expression,
      java.util.function.Predicate<Column> columns,
      java.util.function.Predicate<Function> functions) {
    AtomicBoolean allowed = new AtomicBoolean(true);
    expression.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Column column, S context) {
            if (!columns.test(column)) {
              allowed.set(false);
            }
            return null;
          }

          @Override
          public <S> Void visit(Function function, S context) {
            if (!functions.test(function)) {
              allowed.set(false);
            }
            return super.visit(function, context);
          }

          @Override
          public <S> Void visit(ParenthesedSelect select, S context) {
            allowed.set(false);
            return null;
          }

          @Override
          public <S> Void visit(Select select, S context) {
            allowed.set(false);
            return null;
          }

          @Override
          public <S> Void visit(AnalyticExpression analytic, S context) {
            allowed.set(false);
            return null;
          }
        },
        null);
    return allowed.get();
  }

  /**
   * True when the expression's value depends on when it runs ({@code now()}, {@code today()},
   * {@code CURRENT_TIMESTAMP}) or on chance.
   */
  public static boolean isVolatile(Expression expression) {
    AtomicBoolean volatileCall = new AtomicBoolean(false);
    expression.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Function function, S context) {
            String name = function.getName() == null ? "" : function.getName();
            if (FunctionStability.readsTheClock(name) || FunctionStability.isRandom(name)) {
              volatileCall.set(true);
            }
            return super.visit(function, context);
          }

          @Override
          public <S> Void visit(TimeKeyExpression key, S context) {
            volatileCall.set(true);
            return null;
          }
        },
        null);
    return volatileCall.get()
        || expression.toString().toLowerCase(java.util.Locale.ROOT).contains("current_");
  }

  /** The value of {@code CAST(expression AS type)}, or empty if DuckDB cannot evaluate it. */
  public Optional<Object> evaluate(
      Expression expression, String wrapperPrefix, String wrapperSuffix) {
    // Memoized per evaluator (one per statement): the same width or bound often appears in
    // several clauses, and now() then has one value throughout the statement. Values that do not
    // depend on when they run are kept by the connection across statements too.
    String sql = "SELECT " + wrapperPrefix + expression + wrapperSuffix;
    Map<String, Optional<Object>> memo =
        isVolatile(expression) ? cache : connection.stableConstants();
    Optional<Object> known = memo.get(sql);
    if (known == null) {
      known = run(sql);
      memo.put(sql, known);
    }
    return known;
  }

  private Optional<Object> run(String sql) {
    try {
      return Optional.ofNullable(connection.scalar(sql));
    } catch (QueryFailedException e) {
      return Optional.empty();
    }
  }

  /** The µs since the epoch of a constant cast to TIMESTAMPTZ. */
  public Optional<Long> micros(Expression expression) {
    return evaluate(expression, "epoch_us(CAST((", ") AS TIMESTAMPTZ))")
        .map(value -> ((Number) value).longValue());
  }

  /** A constant interval's months (years counted as 12), days and µs, as DuckDB keeps them. */
  public record IntervalParts(long months, long days, long micros) {}

  /** The parts of a constant interval, or empty when {@code width} is not one. */
  public Optional<IntervalParts> intervalParts(Expression width) {
    if (!isConstant(width)) {
      return Optional.empty();
    }
    Optional<Object> packed =
        evaluate(
            width,
            "(SELECT concat_ws(',', date_part('year', i) * 12 + date_part('month', i),"
                + " date_part('day', i), epoch_us(TIMESTAMP '2001-01-01' + i) -"
                + " epoch_us(TIMESTAMP '2001-01-01' + to_months(date_part('year', i) * 12 +"
                + " date_part('month', i)) + to_days(date_part('day', i)))) FROM (SELECT CAST((",
            ") AS INTERVAL) AS i))");
    if (packed.isEmpty()) {
      return Optional.empty();
    }
    String[] parts = packed.get().toString().split(",");
    return Optional.of(
        new IntervalParts(
            Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])));
  }

  /** The width in µs of a constant interval that is the same length everywhere (no months). */
  public Optional<Long> fixedWidthMicros(Expression width) {
    if (!isConstant(width)) {
      return Optional.empty();
    }
    // One round trip: the months part (a year from 2001-01-01 and from 2001-02-01 is 365 days
    // both times, so months are checked directly) and the length from two different days; the
    // width is fixed only when there are no months and both lengths agree.
    Optional<Object> packed =
        evaluate(
            width,
            "(SELECT CASE WHEN date_part('year', i) * 12 + date_part('month', i) = 0 AND"
                + " epoch_us(TIMESTAMP '2001-01-01' + i) - epoch_us(TIMESTAMP '2001-01-01') ="
                + " epoch_us(TIMESTAMP '2001-02-01' + i) - epoch_us(TIMESTAMP '2001-02-01') THEN"
                + " epoch_us(TIMESTAMP '2001-01-01' + i) - epoch_us(TIMESTAMP '2001-01-01') END"
                + " FROM (SELECT CAST((",
            ") AS INTERVAL) AS i))");
    if (packed.isEmpty()) {
      return Optional.empty();
    }
    long micros = ((Number) packed.get()).longValue();
    return micros > 0 ? Optional.of(micros) : Optional.empty();
  }
}
