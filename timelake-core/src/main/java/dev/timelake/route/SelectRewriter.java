package dev.timelake.route;

import dev.timelake.engine.SyntaxTrees;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Turns a routed SELECT, in place, into a projection of the rendered route: each aggregate call,
 * grouping column and bucket of its SELECT list, HAVING and ORDER BY becomes a column of the route
 * relation; HAVING becomes a WHERE over the routed rows; the GROUP BY goes (the route already
 * grouped); LIMIT and OFFSET stay. Output columns keep the names the unrouted query gives them.
 */
final class SelectRewriter {
  static final String ROUTED = "__tl_routed";

  private SelectRewriter() {}

  static void rewrite(
      PlainSelect select, AnalyzedSelect analyzed, Select route, List<String> labels) {
    IdentityHashMap<Expression, Expression> replacements = new IdentityHashMap<>();
    for (Map.Entry<Expression, Integer> entry : analyzed.aggregateNodes().entrySet()) {
      replacements.put(
          entry.getKey(), SyntaxTrees.column(ROUTED, RouteRenderer.aggregate(entry.getValue())));
    }
    for (Map.Entry<Expression, String> entry : analyzed.keyNodes().entrySet()) {
      replacements.put(entry.getKey(), SyntaxTrees.column(ROUTED, entry.getValue()));
    }
    for (Expression bucket : analyzed.bucketNodes()) {
      replacements.put(
          bucket,
          dev.timelake.rollup.BucketSpellings.fromBucketStart(
              bucket, SyntaxTrees.column(ROUTED, RouteRenderer.BUCKET)));
    }
    List<SelectItem<?>> items = new ArrayList<>();
    List<SelectItem<?>> original = select.getSelectItems();
    for (int i = 0; i < original.size(); i++) {
      Expression expression = ExpressionTree.replace(original.get(i).getExpression(), replacements);
      items.add(SyntaxTrees.item(expression, labels.get(i)));
    }
    Expression having =
        select.getHaving() == null
            ? null
            : ExpressionTree.replace(select.getHaving(), replacements);
    if (select.getOrderByElements() != null) {
      for (OrderByElement element : select.getOrderByElements()) {
        element.setExpression(ExpressionTree.replace(element.getExpression(), replacements));
      }
    }
    ParenthesedSelect from = new ParenthesedSelect();
    from.setSelect(route);
    from.setAlias(new Alias(ROUTED, true));
    select.setSelectItems(items);
    select.setFromItem(from);
    select.setJoins(null);
    select.setWhere(having);
    select.setGroupByElement(null);
    select.setHaving(null);
  }
}
