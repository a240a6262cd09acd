package dev.timelake.fill;

import dev.timelake.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/** Finds the gap-fill calls of a statement: the SELECTs, their buckets and fill functions. */
final class GapFillCalls {
  static final Set<String> FILLS = Set.of("locf", "interpolate");

  private GapFillCalls() {}

  /** Every SELECT of the statement, inner ones before those around them. */
  static List<PlainSelect> selects(Statement statement) {
    List<PlainSelect> selects = new ArrayList<>();
    TablesNamesFinder<Void> finder =
        new TablesNamesFinder<>() {
          {
            init(false);
          }

          @Override
          public <S> Void visit(PlainSelect plainSelect, S context) {
            Void result = super.visit(plainSelect, context);
            if (selects.stream().noneMatch(s -> s == plainSelect)) {
              selects.add(plainSelect);
            }
            return result;
          }
        };
    statement.accept((net.sf.jsqlparser.statement.StatementVisitor<Void>) finder, null);
    return selects;
  }

  /** The time_bucket_gapfill call of the SELECT list, if it has one. */
  static Optional<Function> bucketOf(PlainSelect select) {
    for (SelectItem<?> item : select.getSelectItems()) {
      List<Function> calls =
          calls(
              item.getExpression(), Set.of(GapFill.BUCKET_FUNCTION, GapFill.ROWS_BUCKET_FUNCTION));
      if (!calls.isEmpty()) {
        return Optional.of(calls.get(0));
      }
    }
    return Optional.empty();
  }

  /** A time_bucket_gapfill call, or the bucket SAMPLE BY … FILL became. */
  static boolean isBucket(Function call) {
    String name = GapFill.name(call);
    return name.equals(GapFill.BUCKET_FUNCTION) || name.equals(GapFill.ROWS_BUCKET_FUNCTION);
  }

  /** The bucket SAMPLE BY … FILL became (see {@link GapFill#ROWS_BUCKET_FUNCTION}). */
  static boolean isRowsBucket(Function call) {
    return GapFill.name(call).equals(GapFill.ROWS_BUCKET_FUNCTION);
  }

  /** Refuses locf() and interpolate() in a SELECT that is not grouped by time_bucket_gapfill. */
  static void refuseFillsOutsideGapFill(PlainSelect select) {
    for (SelectItem<?> item : select.getSelectItems()) {
      for (Function fill : calls(item.getExpression(), FILLS)) {
        throw new ValidationException(
            GapFill.name(fill)
                + "() fills the empty buckets of a gap-filled query: group the SELECT by"
                + " time_bucket_gapfill(width, time, start, finish) instead of another bucket");
      }
    }
  }

  /** The calls of the named functions in the expression, outermost first. */
  static List<Function> calls(Expression expression, Set<String> names) {
    List<Function> found = new ArrayList<>();
    if (expression == null) {
      return found;
    }
    expression.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Function function, S context) {
            if (names.contains(GapFill.name(function))) {
              found.add(function);
            }
            return super.visit(function, context);
          }
        },
        null);
    return found;
  }
}
