package dev.timelake.route;

import dev.timelake.TableName;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.rollup.AggregateCall;
import dev.timelake.rollup.Aggregates;
import dev.timelake.rollup.BucketSpellings;
import dev.timelake.rollup.UnsupportedPart;
import dev.timelake.table.TableContract;
import dev.timelake.time.BucketGrid;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import net.sf.jsqlparser.expression.AllValue;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Takes apart a SELECT over one raw table for routing: {@code SELECT <expressions of grouping
 * columns, the bucket and aggregates> FROM raw [WHERE <time terms and key filters>] [GROUP BY
 * <series-key columns> [, <bucket>]] [HAVING …] [ORDER BY …] [LIMIT …]}. The bucket may be spelled
 * in any way {@link BucketSpellings} reads; without a GROUP BY the query is one range without a
 * bucket. Anything else is refused with the reason.
 */
final class SelectAnalyzer {
  private final PlainSelect select;
  private final TableName rawName;
  private final TableContract raw;
  private final ConstantEvaluator constants;
  private final Set<String> engineAggregates;
  private final String alias;
  private final String time;
  private final List<AggregateCall> aggregates = new ArrayList<>();
  private final IdentityHashMap<Expression, Integer> aggregateNodes = new IdentityHashMap<>();
  private final IdentityHashMap<Expression, String> keyNodes = new IdentityHashMap<>();
  private final Set<Expression> bucketNodes = Collections.newSetFromMap(new IdentityHashMap<>());
  private final ZoneId session;
  private BucketGrid grid;

  private SelectAnalyzer(
      PlainSelect select,
      TableContract raw,
      ConstantEvaluator constants,
      Set<String> engineAggregates,
      ZoneId session) {
    this.select = select;
    this.session = session;
    this.raw = raw;
    this.rawName = raw.name();
    this.constants = constants;
    this.engineAggregates = engineAggregates;
    Table table = (Table) select.getFromItem();
    this.alias =
        table.getAlias() != null
            ? SyntaxNames.unquote(table.getAlias().getName())
            : SyntaxNames.unquote(table.getName());
    this.time = raw.timeColumn().orElseThrow();
  }

  /**
   * The routable parts of {@code select}, whose FROM is the single table {@code raw}; {@code
   * engineAggregates} names every aggregate function the engine has (lower case), so that one
   * rollups do not store is reported as such.
   *
   * @throws UnsupportedPart naming what keeps it from being routed
   */
  static AnalyzedSelect analyze(
      PlainSelect select,
      TableContract raw,
      ConstantEvaluator constants,
      Set<String> engineAggregates,
      ZoneId session) {
    checkClauses(select);
    return new SelectAnalyzer(select, raw, constants, engineAggregates, session).analyze();
  }

  private static void checkClauses(PlainSelect select) {
    if (select.getJoins() != null && !select.getJoins().isEmpty()) {
      throw new UnsupportedPart("the query joins another table");
    }
    Table from = (Table) select.getFromItem();
    if ((from.getAlias() != null
            && from.getAlias().getAliasColumns() != null
            && !from.getAlias().getAliasColumns().isEmpty())
        || from.getPivot() != null
        || from.getUnPivot() != null
        || from.getSampleClause() != null) {
      throw new UnsupportedPart(
          "the table reference " + from + " renames columns, samples or pivots; not routed");
    }
    if (select.getDistinct() != null) {
      throw new UnsupportedPart("SELECT DISTINCT is not routed");
    }
    if (select.getQualify() != null || select.getWindowDefinitions() != null) {
      throw new UnsupportedPart("QUALIFY and WINDOW are not routed");
    }
    if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
      throw new UnsupportedPart("WITH inside the SELECT is not routed");
    }
    GroupByElement groupBy = select.getGroupBy();
    if (groupBy != null
        && (groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty())) {
      throw new UnsupportedPart("GROUPING SETS, ROLLUP and CUBE are not routed");
    }
  }

  private AnalyzedSelect analyze() {
    List<Expression> items = new ArrayList<>();
    Set<String> aliases = new LinkedHashSet<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      if (item.getExpression() instanceof AllColumns) {
        throw new UnsupportedPart("SELECT * is not routed");
      }
      items.add(item.getExpression());
      if (item.getAlias() != null) {
        aliases.add(SyntaxNames.unquote(item.getAlias().getName()).toLowerCase(Locale.ROOT));
      }
      visit(item.getExpression(), Set.of());
    }
    if (select.getHaving() != null) {
      visit(select.getHaving(), Set.of());
    }
    if (select.getOrderByElements() != null) {
      for (OrderByElement element : select.getOrderByElements()) {
        visit(element.getExpression(), aliases);
      }
    }
    Grouping grouping = grouping(items);
    for (String key : keyNodes.values()) {
      if (!grouping.keys().contains(key)) {
        throw new UnsupportedPart("column " + key + " is selected but not grouped by");
      }
    }
    if (!bucketNodes.isEmpty() && !grouping.bucketed()) {
      throw new UnsupportedPart("the bucket is selected but not grouped by");
    }
    if (grouping.keys().isEmpty() && !grouping.bucketed() && aggregates.isEmpty()) {
      throw new UnsupportedPart("no aggregate and no GROUP BY: a plain read of raw rows");
    }
    WhereSplit where = WhereSplit.of(select.getWhere(), raw, alias, constants);
    QueryShape shape =
        new QueryShape(
            rawName,
            grouping.keys(),
            grouping.bucketed() ? Optional.of(grid) : Optional.empty(),
            aggregates,
            where.time(),
            where.filterColumns(),
            Optional.empty(),
            texts(where.rowFilters()),
            java.util.Set.of());
    return new AnalyzedSelect(
        shape,
        alias,
        where.keyFilters(),
        where.rowFilters(),
        aggregateNodes,
        keyNodes,
        bucketNodes);
  }

  private static java.util.Set<String> texts(List<Expression> terms) {
    java.util.Set<String> texts = new java.util.TreeSet<>();
    terms.forEach(term -> texts.add(dev.timelake.rollup.RollupFilter.text(term)));
    return texts;
  }

  private record Grouping(List<String> keys, boolean bucketed) {}

  private Grouping grouping(List<Expression> items) {
    GroupByElement groupBy = select.getGroupBy();
    if (groupBy == null) {
      return new Grouping(List.of(), false);
    }
    ExpressionList<?> groups = groupBy.getGroupByExpressionList();
    List<Expression> resolved = new ArrayList<>();
    if (groups.size() == 1 && groups.get(0) instanceof AllValue) {
      for (Expression item : items) {
        if (!containsAggregate(item)) {
          resolved.add(item);
        }
      }
    } else {
      for (Expression group : groups) {
        resolved.add(resolveGroup(group, items));
      }
    }
    Set<String> keys = new LinkedHashSet<>();
    boolean bucketed = false;
    for (Expression group : resolved) {
      if (keyNodes.containsKey(group)) {
        keys.add(keyNodes.get(group));
      } else if (bucketNodes.contains(group)) {
        bucketed = true;
      } else {
        Optional<String> key = keyColumn(group);
        Optional<BucketGrid> bucket = key.isPresent() ? Optional.empty() : bucketGrid(group);
        if (key.isPresent()) {
          keys.add(key.get());
        } else if (bucket.isPresent()) {
          bucketed = true;
        } else {
          throw new UnsupportedPart(
              "GROUP BY "
                  + group
                  + ": routed queries group by series-key columns and one bucket of "
                  + time);
        }
      }
    }
    return new Grouping(List.copyOf(keys), bucketed);
  }

  /** A GROUP BY term as the select item it names (position or alias), or itself. */
  private Expression resolveGroup(Expression group, List<Expression> items) {
    if (group instanceof LongValue position) {
      int index = (int) position.getValue() - 1;
      if (index < 0 || index >= items.size()) {
        throw new UnsupportedPart("GROUP BY " + position + " is not a select position");
      }
      return items.get(index);
    }
    // DuckDB binds a GROUP BY name to the table's column first and to a select alias only when no
    // column has that name.
    Optional<Column> column = SyntaxNames.column(group);
    if (column.isPresent() && column.get().getTable() == null && !isRawColumn(column.get())) {
      String name = SyntaxNames.unquote(column.get().getColumnName());
      for (SelectItem<?> item : select.getSelectItems()) {
        if (item.getAlias() != null
            && SyntaxNames.unquote(item.getAlias().getName()).equalsIgnoreCase(name)) {
          return item.getExpression();
        }
      }
    }
    return group;
  }

  /** Classifies every node under {@code node}; {@code aliases} may be referred to by name. */
  private void visit(Expression node, Set<String> aliases) {
    if (node instanceof Function function && Aggregates.isKnown(function)) {
      if (function.getAttribute() != null) {
        // The rewrite replaces the whole call, field access included.
        throw new UnsupportedPart(
            function + " reads a field of an aggregate's value; only whole values are routed");
      }
      checkQualifiers(function);
      AggregateCall call = Aggregates.parse(function, raw);
      int index = aggregates.indexOf(call);
      if (index < 0) {
        aggregates.add(call);
        index = aggregates.size() - 1;
      }
      aggregateNodes.put(node, index);
      return;
    }
    Optional<BucketGrid> bucket = bucketGrid(node);
    if (bucket.isPresent()) {
      checkQualifiers(node);
      bucketNodes.add(node);
      return;
    }
    if (node instanceof Function function
        && function.getName() != null
        && engineAggregates.contains(function.getName().toLowerCase(Locale.ROOT))) {
      throw new UnsupportedPart(
          "aggregate "
              + function
              + " is not one rollups store (they store "
              + Aggregates.allowed(time)
              + ")");
    }
    if (node instanceof AnalyticExpression) {
      throw new UnsupportedPart("window function " + node + " is not routed");
    }
    if (node instanceof Select || node instanceof ParenthesedSelect) {
      throw new UnsupportedPart("subquery " + node + " in the SELECT list is not routed");
    }
    Optional<Column> column = SyntaxNames.column(node);
    if (column.isPresent()) {
      visitColumn(node, column.get(), aliases);
      return;
    }
    Optional<List<Expression>> children = ExpressionTree.children(node);
    if (children.isPresent()) {
      children.get().forEach(child -> visit(child, aliases));
    } else if (!ConstantEvaluator.isConstant(node) || callsAnAggregate(node)) {
      // A kind of node the rewrite cannot look into may stay only if it is a constant.
      throw new UnsupportedPart("expression " + node + " is not routed");
    }
  }

  /** Every column a call reads must be this table's: unqualified, or qualified by its name. */
  private void checkQualifiers(Expression call) {
    call.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Column column, S context) {
            Table qualifier = column.getTable();
            if (qualifier != null
                && qualifier.getName() != null
                && !SyntaxNames.unquote(qualifier.getName()).equalsIgnoreCase(alias)) {
              throw new UnsupportedPart(
                  call + " reads " + column + ", which is not a column of " + alias);
            }
            return null;
          }
        },
        null);
  }

  private boolean callsAnAggregate(Expression node) {
    AtomicBoolean calls = new AtomicBoolean(false);
    node.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Function function, S context) {
            String name =
                function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
            if (Aggregates.isKnown(function) || engineAggregates.contains(name)) {
              calls.set(true);
            }
            return super.visit(function, context);
          }
        },
        null);
    return calls.get();
  }

  private boolean isRawColumn(Column column) {
    String name = SyntaxNames.unquote(column.getColumnName());
    return raw.columnNames().stream().anyMatch(name::equalsIgnoreCase);
  }

  private void visitColumn(Expression node, Column column, Set<String> aliases) {
    String name = SyntaxNames.unquote(column.getColumnName());
    boolean unqualified = column.getTable() == null || column.getTable().getName() == null;
    if (unqualified && aliases.contains(name.toLowerCase(Locale.ROOT))) {
      if (isRawColumn(column)) {
        throw new UnsupportedPart(
            "ORDER BY " + name + " is both an output alias and a column of " + alias);
      }
      return;
    }
    Optional<String> key = keyColumn(node);
    if (key.isPresent()) {
      keyNodes.put(node, key.get());
      return;
    }
    throw new UnsupportedPart(
        "column "
            + column
            + " is neither a grouping column, the bucket, nor inside an aggregate rollups store");
  }

  /** The series-key column a reference names, if it names one of this table's. */
  private Optional<String> keyColumn(Expression node) {
    Optional<Column> column = SyntaxNames.column(node);
    if (column.isEmpty()) {
      return Optional.empty();
    }
    Table qualifier = column.get().getTable();
    if (qualifier != null
        && qualifier.getName() != null
        && !SyntaxNames.unquote(qualifier.getName()).equalsIgnoreCase(alias)) {
      return Optional.empty();
    }
    String name = SyntaxNames.unquote(column.get().getColumnName());
    return raw.seriesKey().stream().filter(name::equalsIgnoreCase).findFirst();
  }

  /** The grid of a bucket expression; all bucket expressions of one query must agree. */
  private Optional<BucketGrid> bucketGrid(Expression node) {
    Optional<BucketGrid> bucket = BucketSpellings.grid(node, time, constants, session);
    if (bucket.isPresent() && grid != null && !grid.equals(bucket.get())) {
      throw new UnsupportedPart("the query buckets by both " + grid + " and " + bucket.get());
    }
    bucket.ifPresent(g -> grid = g);
    return bucket;
  }

  private boolean containsAggregate(Expression expression) {
    if (aggregateNodes.containsKey(expression)) {
      return true;
    }
    return ExpressionTree.children(expression).orElse(List.of()).stream()
        .anyMatch(this::containsAggregate);
  }
}
