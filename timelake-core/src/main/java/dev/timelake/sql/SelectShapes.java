package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.rollup.Aggregates;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/** What the fast paths of one-table queries ask of a SELECT's shape. */
final class SelectShapes {
  private SelectShapes() {}

  /**
   * A SELECT that reads one lake table and nothing else: no WITH, no join, no named window, its
   * FROM the table (what both fast paths of one-table queries start from).
   */
  record OneTable(PlainSelect select, Table from, LoadedTable table) {}

  /** The statement as a SELECT of one lake table, if it is one; {@code tables} looks tables up. */
  static java.util.Optional<OneTable> oneTable(
      Statement statement,
      java.util.function.Function<TableName, java.util.Optional<LoadedTable>> tables) {
    if (!(statement instanceof PlainSelect select)
        || select.getWithItemsList() != null
        || select.getJoins() != null && !select.getJoins().isEmpty()
        || select.getWindowDefinitions() != null
        || !(select.getFromItem() instanceof Table from)) {
      return java.util.Optional.empty();
    }
    java.util.Optional<LoadedTable> loaded;
    try {
      loaded = tables.apply(SyntaxNames.tableName(from));
    } catch (RuntimeException e) {
      return java.util.Optional.empty(); // not a name Timelake reads: the query runs as written
    }
    return loaded.map(table -> new OneTable(select, from, table));
  }

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
