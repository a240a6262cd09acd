package dev.timelake.rollup;

import dev.timelake.Column;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.StatementParser;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.table.TableContract;
import dev.timelake.table.TableOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.AllValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Validates a rollup's SELECT against its raw table and turns it into a {@link RollupDefinition}.
 * The rules: one Timelake time-series table, no WHERE, join or subquery; one {@code time_bucket} or
 * {@code date_bin} of the time column with a fixed width and the default origin; grouping by
 * series-key columns that are selected; aggregates count(*), count(x), sum, min, max, avg, and
 * first_value / last_value ordered by the time column. Each error names the offending part.
 */
public final class RollupDefinitions {
  private static final Set<String> AGGREGATES =
      Set.of("count", "sum", "min", "max", "avg", "first_value", "last_value");

  private RollupDefinitions() {}

  /** Validates a CREATE MATERIALIZED ROLLUP statement. */
  public static RollupDefinition define(
      RollupStatement statement, LakeCatalog catalog, ConstantEvaluator constants) {
    TableName name = statement.name();
    PlainSelect select = parse(name, statement.select());
    Table from = singleTable(name, select);
    TableName sourceName = SyntaxNames.tableName(from);
    LoadedTable source = catalog.require(sourceName);
    TableContract raw = source.contract();
    String time =
        raw.timeColumn()
            .orElseThrow(
                () ->
                    rejected(
                        name,
                        "%s is a plain table; a rollup needs a time-series table",
                        sourceName));
    Map<String, String> outputs = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>();
    List<RollupAggregate> aggregates = new ArrayList<>();
    String bucketColumn = null;
    long width = 0;
    long origin = 0;
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression expression = item.getExpression();
      String alias =
          item.getAlias() == null ? null : SyntaxNames.unquote(item.getAlias().getName());
      if (expression instanceof AllColumns) {
        throw rejected(
            name, "select the grouping columns, the bucket and aggregates by name, not *");
      }
      if (expression instanceof net.sf.jsqlparser.schema.Column column) {
        String key = keyColumn(name, raw, SyntaxNames.unquote(column.getColumnName()));
        keys.add(key);
        addOutput(name, outputs, alias == null ? key : alias, "column " + key);
      } else if (expression instanceof Function function && isBucket(function)) {
        if (bucketColumn != null) {
          throw rejected(
              name, "only one time_bucket or date_bin is allowed, found a second: %s", function);
        }
        long[] widthAndOrigin = bucket(name, function, time, constants);
        width = widthAndOrigin[0];
        origin = widthAndOrigin[1];
        bucketColumn = alias == null ? "bucket" : alias;
        addOutput(name, outputs, bucketColumn, "the bucket");
      } else if (expression instanceof Function function) {
        RollupAggregate aggregate = aggregate(name, raw, function, alias, time);
        addOutput(name, outputs, aggregate.name(), function.toString());
        aggregates.add(aggregate);
      } else {
        throw rejected(
            name,
            "'%s' is neither a grouping column, the bucket, nor one of the aggregates count(*),"
                + " count(x), sum, min, max, avg, first_value, last_value",
            expression);
      }
    }
    if (bucketColumn == null) {
      throw rejected(
          name, "select one time_bucket(INTERVAL '…', %s) (or date_bin) as the bucket", time);
    }
    if (aggregates.isEmpty()) {
      throw rejected(name, "select at least one aggregate");
    }
    checkGroupBy(name, select, keys, bucketColumn);
    return new RollupDefinition(
        name,
        sourceName,
        keys,
        bucketColumn,
        width,
        origin,
        aggregates,
        options(name, statement.with()),
        statement.select().strip());
  }

  private static PlainSelect parse(TableName name, String sql) {
    Statement parsed;
    try {
      parsed = StatementParser.parse(sql);
    } catch (JSQLParserException e) {
      throw rejected(name, "cannot parse its SELECT: %s", firstLine(e.getMessage()));
    }
    if (!(parsed instanceof PlainSelect select)) {
      throw rejected(
          name,
          "its query must be one SELECT … FROM raw GROUP BY …, not %s",
          parsed.getClass().getSimpleName());
    }
    if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
      throw rejected(name, "WITH (common table expressions) is not allowed in a rollup");
    }
    if (select.getWhere() != null) {
      throw rejected(
          name,
          "WHERE is not allowed (found WHERE %s): a rollup covers every row",
          select.getWhere());
    }
    if (select.getHaving() != null || select.getQualify() != null) {
      throw rejected(name, "HAVING and QUALIFY are not allowed in a rollup");
    }
    if (select.getDistinct() != null || select.getLimit() != null || select.getOffset() != null) {
      throw rejected(name, "DISTINCT, LIMIT and OFFSET are not allowed in a rollup");
    }
    return select;
  }

  private static Table singleTable(TableName name, PlainSelect select) {
    if (select.getJoins() != null && !select.getJoins().isEmpty()) {
      throw rejected(name, "joins are not allowed: a rollup reads one table");
    }
    if (!(select.getFromItem() instanceof Table table)) {
      throw rejected(
          name, "it must read one Timelake table directly, not %s", select.getFromItem());
    }
    return table;
  }

  private static String keyColumn(TableName name, TableContract raw, String column) {
    return raw.seriesKey().stream()
        .filter(k -> k.equalsIgnoreCase(column))
        .findFirst()
        .orElseThrow(
            () ->
                rejected(
                    name,
                    "column '%s' is not a series-key column of %s (group only by series-key"
                        + " columns: %s)",
                    column,
                    raw.name(),
                    String.join(", ", raw.seriesKey())));
  }

  static boolean isBucket(Function function) {
    String functionName = function.getName().toLowerCase(Locale.ROOT);
    return functionName.equals("time_bucket") || functionName.equals("date_bin");
  }

  private static long[] bucket(
      TableName name, Function function, String time, ConstantEvaluator constants) {
    ExpressionList<?> parameters = function.getParameters();
    if (parameters == null || parameters.size() != 2) {
      throw rejected(
          name,
          "%s must have two arguments (width, %s); origins are not supported",
          function,
          time);
    }
    if (!(parameters.get(1) instanceof net.sf.jsqlparser.schema.Column column)
        || !SyntaxNames.unquote(column.getColumnName()).equalsIgnoreCase(time)) {
      throw rejected(name, "%s must bucket the time column %s", function, time);
    }
    long width =
        constants
            .fixedWidthMicros(parameters.get(0))
            .orElseThrow(
                () ->
                    rejected(
                        name,
                        "bucket width %s must be a fixed interval such as INTERVAL '1 minute'"
                            + " (months and years are not supported)",
                        parameters.get(0)));
    boolean timeBucket = function.getName().equalsIgnoreCase("time_bucket");
    return new long[] {width, timeBucket ? RollupBuckets.TIME_BUCKET_ORIGIN_MICROS : 0};
  }

  private static RollupAggregate aggregate(
      TableName name, TableContract raw, Function function, String alias, String time) {
    String functionName = function.getName().toLowerCase(Locale.ROOT);
    if (!AGGREGATES.contains(functionName)) {
      throw rejected(
          name,
          "aggregate %s is not supported (allowed: count(*), count(x), sum, min, max, avg,"
              + " first_value and last_value ordered by %s)",
          function,
          time);
    }
    if (function.isDistinct()) {
      throw rejected(name, "DISTINCT is not allowed in aggregate %s", function);
    }
    Optional<String> column = Optional.empty();
    if (function.isAllColumns()
        || (function.getParameters() != null
            && function.getParameters().size() == 1
            && function.getParameters().get(0) instanceof AllColumns)) {
      if (!functionName.equals("count")) {
        throw rejected(name, "only count may take *, found %s", function);
      }
    } else {
      ExpressionList<?> parameters = function.getParameters();
      if (parameters == null
          || parameters.size() != 1
          || !(parameters.get(0) instanceof net.sf.jsqlparser.schema.Column argument)) {
        throw rejected(name, "aggregate %s must take one column of %s", function, raw.name());
      }
      Column rawColumn = raw.column(SyntaxNames.unquote(argument.getColumnName()));
      column = Optional.of(rawColumn.name());
    }
    boolean ordered = functionName.equals("first_value") || functionName.equals("last_value");
    List<OrderByElement> order = function.getOrderByElements();
    if (ordered) {
      if (order == null
          || order.size() != 1
          || !order.get(0).isAsc()
          || !SyntaxNames.unquote(order.get(0).getExpression().toString()).equalsIgnoreCase(time)) {
        throw rejected(
            name,
            "%s must be ordered by the time column: %s(x ORDER BY %s)",
            function,
            functionName,
            time);
      }
    } else if (order != null && !order.isEmpty()) {
      throw rejected(
          name, "ORDER BY is only allowed in first_value and last_value, found %s", function);
    }
    String defaultName = column.map(c -> functionName + "_" + c).orElse(functionName);
    return new RollupAggregate(alias == null ? defaultName : alias, functionName, column);
  }

  private static void checkGroupBy(
      TableName name, PlainSelect select, List<String> keys, String bucketColumn) {
    GroupByElement groupBy = select.getGroupBy();
    if (groupBy == null) {
      throw rejected(name, "GROUP BY the selected series-key columns and the bucket");
    }
    ExpressionList<?> expressions = groupBy.getGroupByExpressionList();
    if (expressions.size() == 1 && expressions.get(0) instanceof AllValue) {
      return;
    }
    int groups = 0;
    List<String> selected = new ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      selected.add(
          item.getAlias() == null
              ? SyntaxNames.unquote(item.getExpression().toString())
              : SyntaxNames.unquote(item.getAlias().getName()));
    }
    for (Expression expression : expressions) {
      String group;
      if (expression instanceof LongValue ordinal) {
        int index = (int) ordinal.getValue() - 1;
        if (index < 0 || index >= selected.size()) {
          throw rejected(name, "GROUP BY %d is not a select position", ordinal.getValue());
        }
        group = selected.get(index);
      } else if (expression instanceof Function function && isBucket(function)) {
        group = bucketColumn;
      } else {
        group = SyntaxNames.unquote(expression.toString());
      }
      boolean isKey = keys.stream().anyMatch(k -> k.equalsIgnoreCase(group));
      if (!isKey && !group.equalsIgnoreCase(bucketColumn)) {
        throw rejected(
            name,
            "GROUP BY %s: group only by the selected series-key columns and the bucket",
            expression);
      }
      groups++;
    }
    if (groups != keys.size() + 1) {
      throw rejected(name, "GROUP BY must list every selected grouping column and the bucket");
    }
  }

  private static void addOutput(
      TableName name, Map<String, String> outputs, String output, String what) {
    if (outputs.put(output.toLowerCase(Locale.ROOT), what) != null) {
      throw rejected(name, "output column '%s' appears twice; give it an alias", output);
    }
  }

  private static Map<String, String> options(TableName name, String with) {
    try {
      return TableOptions.parse(with);
    } catch (IllegalArgumentException e) {
      throw rejected(
          name, "cannot read option '%s' in WITH (expected key = 'value')", e.getMessage());
    }
  }

  private static String firstLine(String message) {
    int newline = message == null ? -1 : message.indexOf('\n');
    return newline < 0 ? String.valueOf(message) : message.substring(0, newline);
  }

  static TimelakeException rejected(TableName name, String format, Object... args) {
    return TimelakeException.validation(
        "Cannot create rollup %s: %s", name, String.format(format, args));
  }
}
