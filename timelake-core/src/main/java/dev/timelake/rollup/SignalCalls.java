package dev.timelake.rollup;

import dev.timelake.Column;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.table.TableContract;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;

/**
 * What the signal aggregates (time-weighted, gap and percentile ones) share when their calls are
 * read: the time column as first argument, a numeric value column, constant numbers and thresholds
 * in canonical form (so that {@code 300}, {@code '5 minutes'} and {@code INTERVAL '5 minutes'} are
 * one call), and the stored form of a state.
 */
final class SignalCalls {
  /** A number and a unit, as DuckDB reads them in interval text: {@code 5 minutes}, {@code 90s}. */
  private static final Pattern INTERVAL_PART =
      Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-z]+)\\s*");

  private SignalCalls() {}

  /** True when {@code expression} is the raw table's time column. */
  static boolean isTime(Expression expression, TableContract raw) {
    String time = raw.timeColumn().orElse("time");
    return SyntaxNames.column(expression)
        .map(c -> SyntaxNames.unquote(c.getColumnName()).equalsIgnoreCase(time))
        .orElse(false);
  }

  /**
   * The numeric raw column {@code expression} names.
   *
   * @throws UnsupportedPart when it is no column of {@code raw} or not numeric
   */
  static Column numericColumn(
      Expression expression, TableContract raw, Expression call, String function) {
    net.sf.jsqlparser.schema.Column reference =
        SyntaxNames.column(expression)
            .orElseThrow(
                () ->
                    new UnsupportedPart(
                        "the value of " + call + " must be a column of " + raw.name()));
    Column column =
        ColumnAggregate.columnOf(raw, SyntaxNames.unquote(reference.getColumnName()), call);
    if (!ColumnAggregate.NUMERIC.contains(column.type().kind())) {
      throw new UnsupportedPart(
          function
              + " of column '"
              + column.name()
              + "' of type "
              + column.type()
              + " is not supported");
    }
    return column;
  }

  /** A constant number literal ({@code 0.99}, {@code 300}), if {@code expression} is one. */
  static Optional<BigDecimal> number(Expression expression) {
    if (expression instanceof LongValue value) {
      return Optional.of(new BigDecimal(value.getStringValue()));
    }
    if (expression instanceof DoubleValue value) {
      return Optional.of(new BigDecimal(value.toString()));
    }
    return Optional.empty();
  }

  /**
   * A threshold in seconds: a number of seconds, interval text ({@code '5 minutes'}, {@code '90s'})
   * or an {@code INTERVAL} literal, read as DuckDB reads it; empty for anything else (months,
   * negative numbers, expressions), which then stays with DuckDB.
   */
  static Optional<BigDecimal> seconds(Expression expression) {
    Optional<BigDecimal> number = number(expression);
    if (number.isPresent()) {
      return number;
    }
    if (expression instanceof StringValue text) {
      return intervalSeconds(text.getValue());
    }
    if (expression instanceof IntervalExpression interval) {
      String parameter = interval.getParameter();
      if (parameter == null) {
        return Optional.empty();
      }
      String text =
          parameter.startsWith("'") && parameter.endsWith("'") && parameter.length() >= 2
              ? parameter.substring(1, parameter.length() - 1)
              : parameter;
      if (interval.getIntervalType() != null) {
        text = text + " " + interval.getIntervalType();
      }
      return intervalSeconds(text);
    }
    return Optional.empty();
  }

  private static Optional<BigDecimal> intervalSeconds(String text) {
    Matcher matcher = INTERVAL_PART.matcher(text.toLowerCase(Locale.ROOT));
    BigDecimal total = BigDecimal.ZERO;
    int end = 0;
    boolean any = false;
    while (matcher.find() && matcher.start() == end) {
      Optional<BigDecimal> unit = unitSeconds(matcher.group(2));
      if (unit.isEmpty()) {
        return Optional.empty();
      }
      total = total.add(new BigDecimal(matcher.group(1)).multiply(unit.get()));
      end = matcher.end();
      any = true;
    }
    return any && end == text.length() ? Optional.of(total) : Optional.empty();
  }

  /** Fixed-width units only: months and years have no fixed number of seconds. */
  private static Optional<BigDecimal> unitSeconds(String unit) {
    String seconds =
        switch (unit) {
          case "us", "usec", "usecs", "microsecond", "microseconds" -> "0.000001";
          case "ms", "msec", "msecs", "millisecond", "milliseconds" -> "0.001";
          case "s", "sec", "secs", "second", "seconds" -> "1";
          case "m", "min", "mins", "minute", "minutes" -> "60";
          case "h", "hr", "hrs", "hour", "hours" -> "3600";
          case "d", "day", "days" -> "86400";
          case "w", "week", "weeks" -> "604800";
          default -> null;
        };
    return Optional.ofNullable(seconds).map(BigDecimal::new);
  }

  /** A number as canonical text: {@code 300}, {@code 0.5}, {@code 0.01}. */
  static String canonical(BigDecimal number) {
    return number.stripTrailingZeros().toPlainString();
  }

  /**
   * How a call is answered from a stored state {@code state}: merged with other rows when {@code
   * merge} allows it ({@code acrossSeries} tells whether states of several series merge), else only
   * as stored; {@code finish} computes the call's value from a state.
   */
  static StoredForm stateForm(
      StoredAggregate state,
      SeriesMerge merge,
      boolean acrossSeries,
      Function<Expression, Expression> finish) {
    if (merge == SeriesMerge.ACROSS && !acrossSeries) {
      // One stored row per output row only: states of different series overlap in time.
      return StoredForm.asStoredOnly(List.of(state), row -> finish.apply(row.column(state)));
    }
    return StoredForm.mergeable(
        List.of(state), row -> List.of(row.column(state)), row -> finish.apply(row.column(state)));
  }
}
