package dev.timelake.sql;

import dev.timelake.engine.SyntaxNames;
import dev.timelake.rollup.Aggregates;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/** What the fast paths of one-table queries ask of a SELECT's shape. */
final class SelectShapes {
  private SelectShapes() {}

  /** True when {@code column} is unqualified or qualified by {@code from}'s alias or name. */
  static boolean qualifiedBy(Column column, Table from) {
    Table qualifier = column.getTable();
    if (qualifier == null || qualifier.getName() == null) {
      return true;
    }
    String name = SyntaxNames.unquote(qualifier.getName());
    String alias = from.getAlias() == null ? null : SyntaxNames.unquote(from.getAlias().getName());
    return name.equalsIgnoreCase(alias != null ? alias : SyntaxNames.unquote(from.getName()));
  }

  /**
   * True when a select item or ORDER BY reads other rows than the row it stands in: an aggregate, a
   * window function or a subquery.
   */
  static boolean computesOverRows(PlainSelect select, Set<String> engineAggregates) {
    boolean[] found = {false};
    ExpressionVisitorAdapter<Void> visitor =
        new ExpressionVisitorAdapter<>() {
          @Override
          public <S> Void visit(AnalyticExpression expression, S context) {
            found[0] = true;
            return null;
          }

          @Override
          public <S> Void visit(ParenthesedSelect subquery, S context) {
            found[0] = true;
            return null;
          }

          @Override
          public <S> Void visit(net.sf.jsqlparser.expression.Function function, S context) {
            String name =
                function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
            if (engineAggregates.contains(name) || Aggregates.find(name).isPresent()) {
              found[0] = true;
            }
            return super.visit(function, context);
          }
        };
    for (SelectItem<?> item : select.getSelectItems()) {
      item.getExpression().accept(visitor, null);
    }
    if (select.getOrderByElements() != null) {
      for (OrderByElement order : select.getOrderByElements()) {
        order.getExpression().accept(visitor, null);
      }
    }
    return found[0];
  }
}
