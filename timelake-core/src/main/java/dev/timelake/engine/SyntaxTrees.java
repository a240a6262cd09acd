package dev.timelake.engine;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.ArrayConstructor;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.TableFunction;

/**
 * Builds the syntax-tree nodes of generated SQL: quoted names, calls, casts and arithmetic. Every
 * operand of an operator is parenthesized, so a tree prints with the meaning it was built with
 * whatever the operators' precedence. Names pass through {@link SqlText}; no user text is pasted.
 */
public final class SyntaxTrees {
  private SyntaxTrees() {}

  /** A reference to column {@code name}, quoted. */
  public static Column column(String name) {
    return new Column(SqlText.identifier(name));
  }

  /** A reference to column {@code name} of the relation named {@code qualifier}, both quoted. */
  public static Column column(String qualifier, String name) {
    return new Column(new Table(SqlText.identifier(qualifier)), SqlText.identifier(name));
  }

  /** A table node for {@code namespace.name}, aliased {@code alias}, all quoted. */
  public static Table table(String namespace, String name, String alias) {
    Table table = new Table(SqlText.identifier(namespace), SqlText.identifier(name));
    table.setAlias(new Alias(SqlText.identifier(alias), true));
    return table;
  }

  /** {@code expression AS "alias"}. */
  public static SelectItem<Expression> item(Expression expression, String alias) {
    return new SelectItem<>(expression, new Alias(SqlText.identifier(alias), true));
  }

  /** {@code name(arguments…)}. */
  public static Function call(String name, Expression... arguments) {
    Function function = new Function();
    function.setName(name);
    function.setParameters(new ExpressionList<>(arguments));
    return function;
  }

  /** {@code count(*)}. */
  public static Function countRows() {
    return call("count", new AllColumns());
  }

  /** An ordered aggregate, {@code name(argument ORDER BY order)}. */
  public static Function orderedCall(String name, Expression argument, Expression order) {
    Function function = call(name, argument);
    OrderByElement element = new OrderByElement();
    element.setExpression(order);
    function.setOrderByElements(List.of(element));
    return function;
  }

  /**
   * {@code name(argument ORDER BY order NULLS FIRST|LAST)}: an ordered aggregate where rows whose
   * order is NULL come first or last.
   */
  public static Function orderedCall(
      String name, Expression argument, Expression order, boolean nullsFirst) {
    Function function = orderedCall(name, argument, order);
    function
        .getOrderByElements()
        .get(0)
        .setNullOrdering(
            nullsFirst
                ? OrderByElement.NullOrdering.NULLS_FIRST
                : OrderByElement.NullOrdering.NULLS_LAST);
    return function;
  }

  /** {@code CAST(expression AS type)}, {@code type} a DuckDB type name Timelake chose. */
  public static Expression cast(Expression expression, String type) {
    return new CastExpression("CAST", expression, type);
  }

  /** An integer literal. */
  public static LongValue number(long value) {
    return new LongValue(value);
  }

  /** The SQL NULL. */
  public static Expression nullValue() {
    return new NullValue();
  }

  /** {@code make_timestamptz(CAST(micros AS BIGINT))}: the instant {@code micros} µs after 1970. */
  public static Expression timestamp(long micros) {
    return call("make_timestamptz", cast(number(micros), "BIGINT"));
  }

  public static Expression plus(Expression left, Expression right) {
    return parenthesized(new Addition(parenthesized(left), parenthesized(right)));
  }

  public static Expression minus(Expression left, Expression right) {
    return parenthesized(new Subtraction(parenthesized(left), parenthesized(right)));
  }

  public static Expression times(Expression left, Expression right) {
    return parenthesized(new Multiplication(parenthesized(left), parenthesized(right)));
  }

  public static Expression dividedBy(Expression left, Expression right) {
    return parenthesized(new Division(parenthesized(left), parenthesized(right)));
  }

  public static Expression modulo(Expression left, Expression right) {
    return parenthesized(new Modulo(parenthesized(left), parenthesized(right)));
  }

  public static Expression atLeast(Expression left, Expression right) {
    return new GreaterThanEquals(left, right);
  }

  public static Expression below(Expression left, Expression right) {
    return new MinorThan(left, right);
  }

  /** The conjunction of {@code terms}; {@code true} when there are none. */
  public static Expression and(List<? extends Expression> terms) {
    if (terms.isEmpty()) {
      return new BooleanValue(true);
    }
    Expression result = parenthesized(terms.get(0));
    for (int i = 1; i < terms.size(); i++) {
      result = new AndExpression(result, parenthesized(terms.get(i)));
    }
    return result;
  }

  /** The disjunction of {@code terms}; {@code false} when there are none. */
  public static Expression or(List<? extends Expression> terms) {
    if (terms.isEmpty()) {
      return new BooleanValue(false);
    }
    Expression result = parenthesized(terms.get(0));
    for (int i = 1; i < terms.size(); i++) {
      result = new OrExpression(result, parenthesized(terms.get(i)));
    }
    return parenthesized(result);
  }

  /**
   * The terms of a conjunction, parentheses around it and its terms taken off; empty for no
   * expression (a SELECT without WHERE).
   */
  public static List<Expression> conjuncts(Expression expression) {
    List<Expression> terms = new java.util.ArrayList<>();
    if (expression == null) {
      return terms;
    }
    Expression current = unparenthesized(expression);
    if (current instanceof AndExpression and) {
      terms.addAll(conjuncts(and.getLeftExpression()));
      terms.addAll(conjuncts(and.getRightExpression()));
    } else {
      terms.add(current);
    }
    return terms;
  }

  /** The expression inside any parentheses around it. */
  public static Expression unparenthesized(Expression expression) {
    Expression current = expression;
    while (true) {
      if (current instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
        current = list.get(0);
      } else if (current instanceof net.sf.jsqlparser.expression.Parenthesis parenthesis) {
        current = parenthesis.getExpression();
      } else {
        return current;
      }
    }
  }

  /** {@code (expression)}. */
  public static Expression parenthesized(Expression expression) {
    if (expression instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
      return expression;
    }
    return new ParenthesedExpressionList<>(expression);
  }

  /**
   * The µs since 1970 of the start of the bucket holding {@code micros} (an integer expression),
   * for buckets of {@code width} µs starting at {@code origin}: {@code micros - floorMod(micros -
   * origin, width)}, with the modulo made non-negative for instants before the origin.
   */
  public static Expression bucketStartMicros(Expression micros, long width, long origin) {
    Expression shifted = origin == 0 ? micros : minus(micros, number(origin));
    Expression remainder = modulo(shifted, number(width));
    Expression positive = modulo(plus(remainder, number(width)), number(width));
    return minus(micros, positive);
  }

  /**
   * The µs since 1970 of the start of the bucket of {@code grid} holding {@code micros} (an integer
   * expression): integer arithmetic for a fixed grid, DuckDB's {@code time_bucket} in the zone for
   * a calendar grid (which {@link dev.timelake.time.CalendarGrid} mirrors).
   */
  public static Expression bucketStartMicros(Expression micros, dev.timelake.time.BucketGrid grid) {
    if (grid instanceof dev.timelake.time.FixedGrid fixed) {
      return bucketStartMicros(micros, fixed.widthMicros(), fixed.originMicros());
    }
    dev.timelake.time.CalendarGrid calendar = (dev.timelake.time.CalendarGrid) grid;
    return call(
        "epoch_us",
        call(
            "time_bucket",
            cast(new StringValue(SqlText.literal(calendar.interval())), "INTERVAL"),
            call("make_timestamptz", micros),
            new StringValue(SqlText.literal(calendar.zoneName()))));
  }

  /** {@code read_parquet(['path', …])}: the files' rows, as a FROM item. */
  public static TableFunction readParquet(List<String> paths) {
    List<Expression> literals = new ArrayList<>();
    for (String path : paths) {
      // StringValue takes a quoted literal and keeps its escaping.
      literals.add(new StringValue(SqlText.literal(path)));
    }
    return new TableFunction(
        call("read_parquet", new ArrayConstructor(new ExpressionList<>(literals), false)));
  }

  /** Expressions as a new modifiable list (syntax-tree lists are mutated in place). */
  public static List<Expression> listOf(List<? extends Expression> expressions) {
    return new ArrayList<>(expressions);
  }

  /** True where {@code time} lies in one of {@code intervals}; false everywhere for none. */
  public static Expression within(Expression time, dev.timelake.time.IntervalSet intervals) {
    List<Expression> alternatives = new ArrayList<>();
    for (dev.timelake.time.TimeInterval interval : intervals.intervals()) {
      List<Expression> bounds = new ArrayList<>();
      if (interval.start() != Long.MIN_VALUE) {
        bounds.add(atLeast(time, timestamp(interval.start())));
      }
      if (interval.end() != Long.MAX_VALUE) {
        bounds.add(below(time, timestamp(interval.end())));
      }
      alternatives.add(and(bounds));
    }
    return or(alternatives);
  }
}
