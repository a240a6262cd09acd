package dev.timelake.fill;

import dev.timelake.ValidationException;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * A gap-filled SELECT taken apart: its bucket, the other GROUP BY expressions (the series key), and
 * its SELECT list as buckets, keys and values (aggregates, filled or not).
 */
record GapFillQuery(
    GapFillBucket bucket,
    List<Expression> keys,
    List<Value> values,
    List<Item> items,
    Optional<List<Expression>> namedSeries) {

  enum Fill {
    NONE,
    LOCF,
    INTERPOLATE,
    CONSTANT
  }

  /**
   * An aggregate of the SELECT list and how its empty buckets are filled; {@code constant} the
   * value of a CONSTANT fill.
   */
  record Value(Expression expression, Fill fill, Optional<Expression> constant) {
    Value(Expression expression, Fill fill) {
      this(expression, fill, Optional.empty());
    }
  }

  enum Kind {
    BUCKET,
    KEY,
    VALUE
  }

  /** A SELECT-list item: what it is, its key or value index, its original expression and name. */
  record Item(Kind kind, int index, Expression expression, String label) {}

  static GapFillQuery of(PlainSelect select, Function bucketCall) {
    GapFillBucket bucket =
        GapFillCalls.isRowsBucket(bucketCall)
            ? GapFillBucket.ofSampleBy(bucketCall)
            : GapFillBucket.of(bucketCall, select.getWhere());
    List<SelectItem<?>> selectItems = select.getSelectItems();
    List<Expression> keys = keys(select, bucketCall);
    List<Value> values = new ArrayList<>();
    List<Item> items = new ArrayList<>();
    for (SelectItem<?> selectItem : selectItems) {
      Expression expression = selectItem.getExpression();
      if (expression instanceof AllColumns) {
        throw new ValidationException(
            "a gap-filled SELECT lists its columns: * has no bucket to fill (" + expression + ")");
      }
      String alias =
          selectItem.getAlias() == null
              ? null
              : SyntaxNames.unquote(selectItem.getAlias().getName());
      int key = keyIndex(expression, keys);
      if (expression == bucketCall || same(expression, bucketCall)) {
        items.add(new Item(Kind.BUCKET, 0, expression, labelled(alias, GapFill.BUCKET_FUNCTION)));
      } else if (key >= 0) {
        items.add(new Item(Kind.KEY, key, expression, labelled(alias, label(expression))));
      } else {
        Value value = value(expression);
        values.add(value);
        items.add(
            new Item(
                Kind.VALUE, values.size() - 1, expression, labelled(alias, label(expression))));
      }
    }
    return new GapFillQuery(bucket, keys, values, items, namedSeries(select.getWhere(), keys));
  }

  /** The SELECT-list item an ORDER BY expression names by repeating it. */
  Optional<Item> itemMatching(Expression expression) {
    if (expression instanceof LongValue) {
      return Optional.empty(); // a position names the same item of the projection
    }
    return items.stream().filter(item -> same(item.expression(), expression)).findFirst();
  }

  /** The GROUP BY expressions other than the bucket; a position or alias means its item. */
  private static List<Expression> keys(PlainSelect select, Function bucketCall) {
    GroupByElement groupBy = select.getGroupBy();
    if (groupBy == null
        || groupBy.getGroupByExpressionList() == null
        || (groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty())) {
      throw new ValidationException(
          "a gap-filled SELECT is grouped by its bucket: add GROUP BY "
              + bucketCall
              + " (and the series' columns)");
    }
    List<Expression> keys = new ArrayList<>();
    boolean bucketGrouped = false;
    for (Object element : groupBy.getGroupByExpressionList()) {
      Expression grouped = resolve((Expression) element, select.getSelectItems());
      if (grouped instanceof Function call && GapFillCalls.isBucket(call)) {
        if (!same(call, bucketCall)) {
          throw new ValidationException(
              "a gap-filled SELECT has one bucket; it is grouped by both "
                  + bucketCall
                  + " and "
                  + call);
        }
        bucketGrouped = true;
      } else {
        keys.add(grouped);
      }
    }
    if (!bucketGrouped) {
      throw new ValidationException(
          "a gap-filled SELECT is grouped by its bucket: add " + bucketCall + " to GROUP BY");
    }
    return keys;
  }

  private static Expression resolve(Expression grouped, List<SelectItem<?>> items) {
    if (grouped instanceof LongValue position) {
      int index = (int) position.getValue() - 1;
      if (index < 0 || index >= items.size()) {
        throw new ValidationException(
            "GROUP BY "
                + position
                + " names no item of the SELECT list (it has "
                + items.size()
                + ")");
      }
      return items.get(index).getExpression();
    }
    // An alias; printed, since a word such as hour may not parse as a column.
    String name = SyntaxNames.unquote(grouped.toString());
    for (SelectItem<?> item : items) {
      if (item.getAlias() != null
          && SyntaxNames.unquote(item.getAlias().getName()).equalsIgnoreCase(name)) {
        return item.getExpression();
      }
    }
    return grouped;
  }

  private static int keyIndex(Expression expression, List<Expression> keys) {
    for (int i = 0; i < keys.size(); i++) {
      Expression key = keys.get(i);
      if (same(expression, key)
          || (expression instanceof Column a
              && key instanceof Column b
              && GapFillBucket.sameColumn(a, b))) {
        return i;
      }
    }
    return -1;
  }

  private static Value value(Expression expression) {
    if (expression instanceof Function call && SampleBy.CONSTANT_FILL.equals(GapFill.name(call))) {
      GapFillBucket.requireConstant(call.getParameters().get(1), "SAMPLE BY's FILL values");
      return new Value(
          call.getParameters().get(0), Fill.CONSTANT, Optional.of(call.getParameters().get(1)));
    }
    if (expression instanceof Function call && GapFillCalls.FILLS.contains(GapFill.name(call))) {
      if (call.getParameters() == null || call.getParameters().size() != 1) {
        throw new ValidationException(
            GapFill.name(call) + "() takes one aggregate, e.g. locf(avg(value)); got " + call);
      }
      return new Value(
          call.getParameters().get(0),
          GapFill.name(call).equals("locf") ? Fill.LOCF : Fill.INTERPOLATE);
    }
    if (!GapFillCalls.calls(expression, GapFillCalls.FILLS).isEmpty()) {
      throw new ValidationException(
          "locf() and interpolate() fill a whole item of the SELECT list; "
              + expression
              + " uses one inside an expression (compute it in an outer query)");
    }
    if (!GapFillCalls.calls(expression, java.util.Set.of(GapFill.BUCKET_FUNCTION)).isEmpty()) {
      throw new ValidationException(
          "time_bucket_gapfill is a whole item of the SELECT list; "
              + expression
              + " uses it inside an expression (compute it in an outer query)");
    }
    return new Value(expression, Fill.NONE);
  }

  /**
   * The values a WHERE clause names for the one key column ({@code tag = 'a'}, {@code tag IN ('a',
   * 'b')}): every one of them is a series of the answer, rows or not.
   */
  private static Optional<List<Expression>> namedSeries(Expression where, List<Expression> keys) {
    if (keys.size() != 1 || !(keys.get(0) instanceof Column key)) {
      return Optional.empty();
    }
    for (Expression term : SyntaxTrees.conjuncts(where)) {
      if (term instanceof EqualsTo equals) {
        if (isColumn(equals.getLeftExpression(), key)
            && ConstantEvaluator.isConstant(equals.getRightExpression())) {
          return Optional.of(List.of(equals.getRightExpression()));
        }
        if (isColumn(equals.getRightExpression(), key)
            && ConstantEvaluator.isConstant(equals.getLeftExpression())) {
          return Optional.of(List.of(equals.getLeftExpression()));
        }
      }
      if (term instanceof InExpression in
          && !in.isNot()
          && isColumn(in.getLeftExpression(), key)
          && in.getRightExpression() instanceof ExpressionList<?> list
          && !list.isEmpty()
          && list.stream().allMatch(v -> ConstantEvaluator.isConstant((Expression) v))) {
        List<Expression> named = new ArrayList<>();
        list.forEach(v -> named.add((Expression) v));
        return Optional.of(named);
      }
    }
    return Optional.empty();
  }

  private static boolean isColumn(Expression expression, Column key) {
    return expression instanceof Column column && GapFillBucket.sameColumn(column, key);
  }

  /** The name PostgreSQL gives an unaliased item: a column's, a call's function, else ?column?. */
  private static String label(Expression expression) {
    if (expression instanceof Column column) {
      return SyntaxNames.unquote(column.getColumnName());
    }
    if (expression instanceof Function call && call.getName() != null) {
      return GapFill.name(call);
    }
    return "?column?";
  }

  private static String labelled(String alias, String label) {
    return alias != null ? alias : label;
  }

  /** The same expression, as printed (names compared without regard to case). */
  private static boolean same(Expression a, Expression b) {
    return a.toString().toLowerCase(Locale.ROOT).equals(b.toString().toLowerCase(Locale.ROOT));
  }
}
