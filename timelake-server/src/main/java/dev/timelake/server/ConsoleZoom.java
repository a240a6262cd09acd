package dev.timelake.server;

import dev.timelake.engine.StatementParser;
import dev.timelake.engine.SyntaxTrees;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * A chart's zoom as a new query: the statement's buckets ({@code time_bucket} and {@code
 * time_bucket_gapfill} of an interval) get the width that gives the chart about as many points as
 * it has pixels, and its WHERE the zoomed range of the bucketed time. So a year is drawn from a
 * daily rollup and a minute from raw readings, each query routed as it would be. Done on the syntax
 * tree; a statement it cannot read that way is not zoomed (the page then zooms the points it has).
 */
final class ConsoleZoom {
  /** The widths a zoom picks from, in seconds, each a whole number of the one before. */
  private static final long[] WIDTHS = {
    1, 5, 10, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 7 * 86_400
  };

  private static final List<String> BUCKETS = List.of("time_bucket", "time_bucket_gapfill");

  private ConsoleZoom() {}

  /** The zoomed statement and the bucket width it has. */
  record Zoomed(String sql, Duration width) {}

  /**
   * {@code sql} over {@code [from, to)} with about {@code points} buckets; empty when it is not one
   * SELECT bucketing a time column by an interval.
   */
  static Optional<Zoomed> of(String sql, Instant from, Instant to, int points) {
    if (!to.isAfter(from) || points < 1) {
      return Optional.empty();
    }
    Statement statement;
    try {
      statement = StatementParser.parse(sql);
    } catch (JSQLParserException e) {
      return Optional.empty();
    }
    if (!(statement instanceof Select select) || !(select instanceof PlainSelect plain)) {
      return Optional.empty();
    }
    List<Function> buckets = buckets(plain);
    if (buckets.isEmpty()) {
      return Optional.empty();
    }
    Duration width = width(Duration.between(from, to), points);
    Expression time = buckets.get(0).getParameters().get(1);
    for (Function bucket : buckets) {
      @SuppressWarnings("unchecked")
      List<Expression> arguments = (List<Expression>) bucket.getParameters();
      arguments.set(0, interval(width));
    }
    List<Expression> terms = new ArrayList<>();
    if (plain.getWhere() != null) {
      terms.add(plain.getWhere());
    }
    terms.add(SyntaxTrees.atLeast(time, instant(from)));
    terms.add(SyntaxTrees.below(time, instant(to)));
    plain.setWhere(SyntaxTrees.and(terms));
    return Optional.of(new Zoomed(plain.toString(), width));
  }

  /** The smallest width of {@link #WIDTHS} that gives at most {@code points} buckets. */
  static Duration width(Duration range, int points) {
    long wanted = Math.max(1, range.toSeconds() / points);
    for (long seconds : WIDTHS) {
      if (seconds >= wanted) {
        return Duration.ofSeconds(seconds);
      }
    }
    return Duration.ofSeconds(WIDTHS[WIDTHS.length - 1]);
  }

  /** The bucket calls of the SELECT list and GROUP BY whose width is an interval constant. */
  private static List<Function> buckets(PlainSelect select) {
    List<Function> found = new ArrayList<>();
    ExpressionVisitorAdapter<Void> finder =
        new ExpressionVisitorAdapter<>() {
          @Override
          public <S> Void visit(Function function, S context) {
            String name =
                function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
            if (BUCKETS.contains(name)
                && function.getParameters() != null
                && function.getParameters().size() >= 2
                && function.getParameters().get(0) instanceof IntervalExpression) {
              found.add(function);
            }
            return super.visit(function, context);
          }
        };
    for (SelectItem<?> item : select.getSelectItems()) {
      item.getExpression().accept(finder, null);
    }
    if (select.getGroupBy() != null && select.getGroupBy().getGroupByExpressionList() != null) {
      for (Object grouped : select.getGroupBy().getGroupByExpressionList()) {
        ((Expression) grouped).accept(finder, null);
      }
    }
    // Buckets of different times cannot be zoomed as one.
    String time = found.isEmpty() ? "" : found.get(0).getParameters().get(1).toString();
    return found.stream().allMatch(f -> f.getParameters().get(1).toString().equals(time))
        ? found
        : List.of();
  }

  private static Expression interval(Duration width) {
    return new IntervalExpression(true).withParameter("'" + width.toSeconds() + " seconds'");
  }

  private static Expression instant(Instant instant) {
    return SyntaxTrees.cast(new StringValue(instant.toString()), "TIMESTAMPTZ");
  }
}
