package dev.timelake.sql;

import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.rollup.Aggregates;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.OrderByElement;
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
    java.util.List<net.sf.jsqlparser.expression.Expression> expressions =
        new java.util.ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      expressions.add(item.getExpression());
    }
    if (select.getOrderByElements() != null) {
      for (OrderByElement order : select.getOrderByElements()) {
        expressions.add(order.getExpression());
      }
    }
    return expressions.stream()
        .anyMatch(
            expression ->
                !ConstantEvaluator.readsOnly(
                    expression,
                    column -> true,
                    function -> {
                      String name =
                          function.getName() == null
                              ? ""
                              : function.getName().toLowerCase(Locale.ROOT);
                      return !engineAggregates.contains(name) && Aggregates.find(name).isEmpty();
                    }));
  }
}
