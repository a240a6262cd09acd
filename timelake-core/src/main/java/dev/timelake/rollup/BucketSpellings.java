package dev.timelake.rollup;

import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.time.BucketGrid;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;

/**
 * The bucket grid of an expression that buckets a time column, in any of the spellings SQL users
 * and dashboards send: {@code time_bucket(width, time [, origin | offset])}, {@code date_bin(width,
 * time [, origin])}, {@code date_trunc('unit', time)} and Grafana's {@code $__timeGroup} without
 * its TimescaleDB option, {@code floor(extract(epoch from time)/n)*n} (the bucket's start in
 * seconds since 1970, a number). Instants are bucketed in UTC (a Timelake session's time zone).
 */
public final class BucketSpellings {
  private static final long SECOND = 1_000_000L;

  /** date_trunc units with a fixed width, and their width in µs; weeks start on Monday. */
  private static final Map<String, Long> TRUNC_UNITS =
      Map.of(
          "microseconds", 1L,
          "milliseconds", 1_000L,
          "second", SECOND,
          "minute", 60 * SECOND,
          "hour", 3_600 * SECOND,
          "day", 86_400 * SECOND,
          "week", 7 * 86_400 * SECOND);

  private static final Map<String, String> TRUNC_ALIASES =
      Map.ofEntries(
          Map.entry("microsecond", "microseconds"),
          Map.entry("us", "microseconds"),
          Map.entry("usec", "microseconds"),
          Map.entry("usecs", "microseconds"),
          Map.entry("millisecond", "milliseconds"),
          Map.entry("ms", "milliseconds"),
          Map.entry("msec", "milliseconds"),
          Map.entry("msecs", "milliseconds"),
          Map.entry("seconds", "second"),
          Map.entry("s", "second"),
          Map.entry("sec", "second"),
          Map.entry("secs", "second"),
          Map.entry("minutes", "minute"),
          Map.entry("m", "minute"),
          Map.entry("min", "minute"),
          Map.entry("mins", "minute"),
          Map.entry("hours", "hour"),
          Map.entry("h", "hour"),
          Map.entry("hr", "hour"),
          Map.entry("hrs", "hour"),
          Map.entry("days", "day"),
          Map.entry("d", "day"),
          Map.entry("weeks", "week"),
          Map.entry("w", "week"));

  private BucketSpellings() {}

  /** True when {@code expression} is a call of one of the bucket functions. */
  public static boolean isBucketCall(Expression expression) {
    return expression instanceof Function function && kind(function).isPresent();
  }

  /**
   * The grid of {@code expression}, which buckets {@code timeColumn}; empty when it is not a call
   * of a bucket function on that column.
   *
   * @throws UnsupportedPart when it is such a call but its grid cannot be proven fixed (a month, a
   *     non-constant width, a time zone)
   */
  public static Optional<BucketGrid> grid(
      Expression expression, String timeColumn, ConstantEvaluator constants) {
    Optional<Long> seconds = epochSecondsWidth(expression, timeColumn);
    if (seconds.isPresent()) {
      return Optional.of(BucketGrid.of(seconds.get() * SECOND, BucketGrid.EPOCH_ORIGIN_MICROS));
    }
    if (!(expression instanceof Function function)) {
      return Optional.empty();
    }
    Optional<String> kind = kind(function);
    ExpressionList<?> parameters = function.getParameters();
    if (kind.isEmpty() || parameters == null || parameters.size() < 2) {
      return Optional.empty();
    }
    if (!isColumn(parameters.get(1), timeColumn)) {
      return Optional.empty();
    }
    return Optional.of(
        switch (kind.get()) {
          case "date_trunc" -> truncGrid(function, parameters);
          case "date_bin" ->
              widthGrid(function, parameters, BucketGrid.EPOCH_ORIGIN_MICROS, constants);
          default ->
              widthGrid(function, parameters, BucketGrid.TIME_BUCKET_ORIGIN_MICROS, constants);
        });
  }

  private static Optional<String> kind(Function function) {
    String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
    return switch (name) {
      case "time_bucket", "date_bin" -> Optional.of(name);
      case "date_trunc", "datetrunc" -> Optional.of("date_trunc");
      default -> Optional.empty();
    };
  }

  private static BucketGrid truncGrid(Function function, ExpressionList<?> parameters) {
    if (parameters.size() != 2 || !(parameters.get(0) instanceof StringValue unit)) {
      throw new UnsupportedPart(function + " must name its unit as a string literal");
    }
    String name = unit.getValue().toLowerCase(Locale.ROOT).strip();
    name = TRUNC_ALIASES.getOrDefault(name, name);
    Long width = TRUNC_UNITS.get(name);
    if (width == null) {
      throw new UnsupportedPart(
          function + " has no fixed width (units with one: microseconds to week)");
    }
    long origin =
        name.equals("week") ? BucketGrid.TIME_BUCKET_ORIGIN_MICROS : BucketGrid.EPOCH_ORIGIN_MICROS;
    return BucketGrid.of(width, origin);
  }

  private static BucketGrid widthGrid(
      Function function,
      ExpressionList<?> parameters,
      long defaultOrigin,
      ConstantEvaluator constants) {
    if (parameters.size() > 3) {
      throw new UnsupportedPart(function + " has more arguments than (width, time, origin)");
    }
    Expression widthExpression = parameters.get(0);
    long width =
        constants
            .fixedWidthMicros(widthExpression)
            .orElseThrow(
                () ->
                    new UnsupportedPart(
                        "bucket width "
                            + widthExpression
                            + " must be a fixed interval such as INTERVAL '1 minute'"
                            + " (months and years are not supported)"));
    if (parameters.size() == 2) {
      return BucketGrid.of(width, defaultOrigin);
    }
    Expression third = parameters.get(2);
    String type =
        ConstantEvaluator.isConstant(third)
            ? constants.evaluate(third, "typeof(", ")").map(Object::toString).orElse("")
            : "";
    if (type.startsWith("TIMESTAMP")) {
      long origin =
          constants
              .micros(third)
              .orElseThrow(() -> new UnsupportedPart("origin " + third + " is not a constant"));
      return BucketGrid.of(width, origin);
    }
    if (type.equals("INTERVAL") && function.getName().equalsIgnoreCase("date_bin")) {
      throw new UnsupportedPart(
          function + ": date_bin takes an origin timestamp, not an offset interval");
    }
    if (type.equals("INTERVAL")) {
      long offset =
          constants
              .fixedWidthMicros(third)
              .orElseThrow(
                  () ->
                      new UnsupportedPart(
                          "offset " + third + " must be a positive fixed interval"));
      return BucketGrid.of(width, defaultOrigin + offset);
    }
    throw new UnsupportedPart(
        function
            + ": the third argument must be a constant origin timestamp or offset interval"
            + " (a time zone buckets in local time, which has no fixed grid)");
  }

  /**
   * The width {@code n} of {@code floor(extract(epoch from time)/n)*n} (a whole number of seconds,
   * the same twice, parentheses anywhere); empty for any other expression.
   */
  private static Optional<Long> epochSecondsWidth(Expression expression, String timeColumn) {
    if (!(SyntaxTrees.unparenthesized(expression) instanceof Multiplication times)
        || !(SyntaxTrees.unparenthesized(times.getLeftExpression()) instanceof Function floor)
        || floor.getName() == null
        || !floor.getName().equalsIgnoreCase("floor")
        || floor.getParameters() == null
        || floor.getParameters().size() != 1
        || !(SyntaxTrees.unparenthesized((Expression) floor.getParameters().get(0))
            instanceof Division divided)
        || !(SyntaxTrees.unparenthesized(divided.getLeftExpression())
            instanceof ExtractExpression extract)
        || !"epoch".equalsIgnoreCase(extract.getName())
        || !isColumn(extract.getExpression(), timeColumn)) {
      return Optional.empty();
    }
    Optional<Long> width = wholeSeconds(divided.getRightExpression());
    return width.isPresent() && width.equals(wholeSeconds(times.getRightExpression()))
        ? width
        : Optional.empty();
  }

  private static Optional<Long> wholeSeconds(Expression expression) {
    Expression literal = SyntaxTrees.unparenthesized(expression);
    if (literal instanceof LongValue whole && whole.getValue() > 0) {
      return Optional.of(whole.getValue());
    }
    if (literal instanceof DoubleValue number
        && number.getValue() >= 1
        && number.getValue() == Math.rint(number.getValue())
        && number.getValue() < Long.MAX_VALUE / SECOND) {
      return Optional.of((long) number.getValue());
    }
    return Optional.empty();
  }

  /**
   * The bucket {@code spelled} means, computed from a bucket's start {@code bucketStart} (a
   * TIMESTAMPTZ column): the start itself for the bucket functions, its seconds since 1970 for
   * Grafana's epoch spelling, so a routed answer has the values and types of the unrouted one.
   */
  public static Expression fromBucketStart(Expression spelled, Expression bucketStart) {
    Expression bare = SyntaxTrees.unparenthesized(spelled);
    if (!(bare instanceof Multiplication times)
        || !(SyntaxTrees.unparenthesized(times.getLeftExpression()) instanceof Function floor)) {
      return bucketStart;
    }
    Division divided =
        (Division) SyntaxTrees.unparenthesized((Expression) floor.getParameters().get(0));
    ExtractExpression extract = new ExtractExpression();
    extract.setName("epoch");
    extract.setExpression(bucketStart);
    return SyntaxTrees.times(
        SyntaxTrees.call("floor", SyntaxTrees.dividedBy(extract, divided.getRightExpression())),
        times.getRightExpression());
  }

  private static boolean isColumn(Expression expression, String name) {
    return SyntaxNames.column(expression)
        .map(column -> SyntaxNames.unquote(column.getColumnName()).equalsIgnoreCase(name))
        .orElse(false);
  }
}
