package dev.timelake.fill;

import dev.timelake.ValidationException;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.schema.Column;

/**
 * A {@code time_bucket_gapfill(width, time [, zone] [, start, finish])} call: its width, time
 * column and zone, and the range its grid covers, given as arguments or read from the WHERE
 * clause's bounds on the time column ({@code time >= a AND time < b}, {@code BETWEEN}).
 */
record GapFillBucket(
    Function call,
    Expression width,
    Column time,
    Optional<Expression> zone,
    Optional<Expression> start,
    Optional<Finish> finish,
    boolean rowsOutsideTheGrid) {

  /** The end of the grid: buckets start before it, or at it too when it is inclusive. */
  record Finish(Expression value, boolean inclusive) {}

  /**
   * Whether rows may lie in buckets outside the grid: only when start or finish are given as
   * arguments (narrower than the WHERE); bounds read from the WHERE, or SAMPLE BY's (which also
   * bound the WHERE, or span the rows), hold every row's bucket.
   */
  boolean keepsBucketsOutsideTheGrid() {
    return rowsOutsideTheGrid;
  }

  static GapFillBucket of(Function call, Expression where) {
    List<Expression> arguments =
        call.getParameters() == null ? List.of() : List.copyOf(call.getParameters());
    if (arguments.size() < 2 || arguments.size() > 5) {
      throw new ValidationException(
          "time_bucket_gapfill takes (width, time [, zone] [, start, finish]); "
              + call
              + " has "
              + arguments.size()
              + " arguments");
    }
    if (!(arguments.get(1) instanceof Column time)) {
      throw new ValidationException(
          "time_bucket_gapfill buckets a time column; its second argument "
              + arguments.get(1)
              + " is not a column");
    }
    Optional<Expression> zone = Optional.empty();
    Optional<Expression> start = Optional.empty();
    Optional<Expression> finish = Optional.empty();
    switch (arguments.size()) {
      case 3 -> {
        if (isZone(arguments.get(2))) {
          zone = Optional.of(arguments.get(2));
        } else {
          start = given(arguments.get(2));
        }
      }
      case 4 -> {
        start = given(arguments.get(2));
        finish = given(arguments.get(3));
      }
      case 5 -> {
        zone = given(arguments.get(2));
        start = given(arguments.get(3));
        finish = given(arguments.get(4));
      }
      default -> {}
    }
    Optional<Expression> lower = start.or(() -> bound(where, time, true).map(Finish::value));
    Optional<Finish> upper =
        finish.map(f -> new Finish(f, false)).or(() -> bound(where, time, false));
    if (lower.isEmpty() || upper.isEmpty()) {
      throw new ValidationException(
          call
              + " needs a start and a finish for its grid: pass them as its last two arguments,"
              + " or bound "
              + time
              + " in the WHERE clause ("
              + time
              + " >= … AND "
              + time
              + " < …)");
    }
    for (Expression bound : List.of(lower.get(), upper.get().value())) {
      requireConstant(bound, "time_bucket_gapfill's start and finish");
    }
    return new GapFillBucket(
        call, arguments.get(0), time, zone, lower, upper, start.isPresent() || finish.isPresent());
  }

  /**
   * The bucket of SAMPLE BY … FILL: (width, time, zone, start, finish), NULL for what it does not
   * give; without start and finish the grid runs from the first bucket with rows to the last.
   */
  static GapFillBucket ofSampleBy(Function call) {
    List<Expression> arguments = List.copyOf(call.getParameters());
    for (Expression bound : arguments.subList(3, 5)) {
      requireConstant(bound, "SAMPLE BY's FROM and TO");
    }
    return new GapFillBucket(
        call,
        arguments.get(0),
        (Column) arguments.get(1),
        given(arguments.get(2)),
        given(arguments.get(3)),
        given(arguments.get(4)).map(f -> new Finish(f, false)),
        false);
  }

  /** Refuses a bound that reads a column, a subquery or a random value. */
  static void requireConstant(Expression bound, String what) {
    if (!(bound instanceof NullValue) && !ConstantEvaluator.isConstant(bound)) {
      throw new ValidationException(what + " must be constants; " + bound + " is not");
    }
  }

  /** {@code time_bucket(width, time [, zone])}: the bucket the aggregate groups by. */
  Function timeBucket() {
    return zone.isPresent()
        ? SyntaxTrees.call("time_bucket", width, time, zone.get())
        : SyntaxTrees.call("time_bucket", width, time);
  }

  private static Optional<Expression> given(Expression argument) {
    return argument instanceof NullValue ? Optional.empty() : Optional.of(argument);
  }

  /** A string that names a zone rather than an instant: it does not start with a digit. */
  private static boolean isZone(Expression argument) {
    return argument instanceof StringValue text
        && !text.getValue().isEmpty()
        && !Character.isDigit(text.getValue().charAt(0));
  }

  /** The first lower (or upper) bound on {@code time} among the WHERE clause's conjuncts. */
  private static Optional<Finish> bound(Expression where, Column time, boolean lower) {
    for (Expression term : SyntaxTrees.conjuncts(where)) {
      if (term instanceof Between between && !between.isNot() && isTime(between, time)) {
        return Optional.of(
            lower
                ? new Finish(between.getBetweenExpressionStart(), true)
                : new Finish(between.getBetweenExpressionEnd(), true));
      }
      if (term instanceof ComparisonOperator comparison) {
        boolean timeLeft = isTime(comparison.getLeftExpression(), time);
        boolean timeRight = isTime(comparison.getRightExpression(), time);
        if (timeLeft == timeRight) {
          continue;
        }
        Expression other =
            timeLeft ? comparison.getRightExpression() : comparison.getLeftExpression();
        // time >= a, time > a, a <= time, a < time bound it below; the mirror images above.
        boolean above =
            comparison instanceof GreaterThanEquals || comparison instanceof GreaterThan;
        boolean below = comparison instanceof MinorThan || comparison instanceof MinorThanEquals;
        if (!above && !below) {
          continue;
        }
        boolean isLower = above == timeLeft;
        if (isLower == lower) {
          boolean inclusive =
              comparison instanceof GreaterThanEquals || comparison instanceof MinorThanEquals;
          return Optional.of(new Finish(other, inclusive));
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isTime(Between between, Column time) {
    return isTime(between.getLeftExpression(), time);
  }

  private static boolean isTime(Expression expression, Column time) {
    return expression instanceof Column column && sameColumn(column, time);
  }

  static boolean sameColumn(Column a, Column b) {
    if (!name(a.getColumnName()).equals(name(b.getColumnName()))) {
      return false;
    }
    String qa = a.getTable() == null ? null : a.getTable().getName();
    String qb = b.getTable() == null ? null : b.getTable().getName();
    return qa == null || qb == null || name(qa).equals(name(qb));
  }

  private static String name(String identifier) {
    return SyntaxNames.unquote(identifier).toLowerCase(Locale.ROOT);
  }
}
