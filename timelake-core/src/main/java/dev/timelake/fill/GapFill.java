package dev.timelake.fill;

import dev.timelake.engine.StatementParser;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Gap filling in TimescaleDB's spelling: a SELECT grouped by {@code time_bucket_gapfill(width, time
 * [, zone] [, start, finish])} returns every bucket from start to finish once per series (the
 * series the WHERE clause names, else those with rows in the range), empty buckets NULL, or filled
 * by {@code locf(aggregate)} (the previous bucket's value) or {@code interpolate(aggregate)}
 * (linear between the nearest buckets with a value on either side).
 *
 * <p>The SELECT is rewritten in place into three steps over common table expressions: the aggregate
 * as a plain {@code time_bucket} query, which rollup routing may answer (the fill comes after it,
 * so a gap-filled query is as exact and as routable as the unfilled one); the grid of buckets times
 * the series; and the fill, in time order per series, over the grid joined to the aggregate. Output
 * columns are named as PostgreSQL names them: an alias, a column's name, or the function's name
 * ({@code time_bucket_gapfill}, {@code locf}, {@code avg}).
 */
public final class GapFill {
  static final String BUCKET_FUNCTION = "time_bucket_gapfill";

  /**
   * The bucket SAMPLE BY … FILL becomes: time_bucket_gapfill's arguments (width, time, zone, start,
   * finish, any of the last three NULL) whose grid, without start and finish, runs from the first
   * bucket with rows to the last.
   */
  static final String ROWS_BUCKET_FUNCTION = "timelake_gapfill_rows";

  private static final String RELATION = "__tl_gapfill";
  private static final String AGGREGATE = "__tl_gapfill_agg";
  private static final String ARGUMENTS = "__tl_gapfill_args";
  private static final String SERIES = "__tl_gapfill_series";
  private static final String BUCKET = "__tl_bucket";

  private GapFill() {}

  /** What the rewrite needs to know of the tables a SELECT reads and of the engine. */
  public interface Context {
    /** True when {@code time}, read by {@code select}, is TIMESTAMPTZ; false for TIMESTAMP. */
    boolean holdsInstants(PlainSelect select, Column time);

    /** The time column of the lake table {@code select} reads, if it reads one. */
    Optional<String> timeColumn(PlainSelect select);

    /** True for the name of an aggregate function, in lower case. */
    boolean isAggregate(String function);
  }

  /**
   * Rewrites, in place, every SELECT of {@code statement} grouped by time_bucket_gapfill; returns
   * whether there was one. Refuses locf() and interpolate() outside such a SELECT.
   */
  public static boolean rewrite(net.sf.jsqlparser.statement.Statement statement, Context context) {
    boolean rewritten = false;
    for (PlainSelect select : GapFillCalls.selects(statement)) {
      SampleBy.rewrite(select, context);
      Optional<Function> bucket = GapFillCalls.bucketOf(select);
      if (bucket.isPresent()) {
        rewrite(select, bucket.get(), context);
        rewritten = true;
      } else {
        GapFillCalls.refuseFillsOutsideGapFill(select);
      }
    }
    return rewritten;
  }

  private static void rewrite(PlainSelect select, Function bucketCall, Context context) {
    GapFillQuery query = GapFillQuery.of(select, bucketCall);
    boolean instants = context.holdsInstants(select, query.bucket().time());
    Select filled = parse(template(query, instants));
    withItem(filled, AGGREGATE).getSelect().setSelect(aggregateSelect(select, query));
    withItem(filled, ARGUMENTS).getSelect().setSelect(argumentsSelect(query, instants));
    query
        .namedSeries()
        .ifPresent(values -> withItem(filled, SERIES).getSelect().setSelect(seriesSelect(values)));
    project(select, query, filled);
  }

  /** The aggregate of the gap-filled SELECT over {@code time_bucket}: its FROM, WHERE, HAVING. */
  private static PlainSelect aggregateSelect(PlainSelect select, GapFillQuery query) {
    PlainSelect aggregate = new PlainSelect();
    List<SelectItem<?>> items = new ArrayList<>();
    List<Expression> groups = new ArrayList<>();
    for (int i = 0; i < query.keys().size(); i++) {
      items.add(SyntaxTrees.item(query.keys().get(i), key(i)));
      groups.add(query.keys().get(i));
    }
    items.add(SyntaxTrees.item(query.bucket().timeBucket(), BUCKET));
    groups.add(query.bucket().timeBucket());
    for (int i = 0; i < query.values().size(); i++) {
      items.add(SyntaxTrees.item(query.values().get(i).expression(), value(i)));
    }
    aggregate.setSelectItems(items);
    aggregate.setFromItem(select.getFromItem());
    aggregate.setJoins(select.getJoins());
    aggregate.setWhere(select.getWhere());
    GroupByElement groupBy = new GroupByElement();
    groupBy.setGroupByExpressions(new ExpressionList<>(groups));
    aggregate.setGroupByElement(groupBy);
    aggregate.setHaving(select.getHaving());
    return aggregate;
  }

  /**
   * One row: the bucket width, start, finish and zone the grid is drawn from, and the constants
   * that fill empty buckets. Without start and finish, the first and last buckets with rows.
   */
  private static PlainSelect argumentsSelect(GapFillQuery query, boolean instants) {
    GapFillBucket bucket = query.bucket();
    PlainSelect arguments = new PlainSelect();
    List<SelectItem<?>> items = new ArrayList<>();
    items.add(SyntaxTrees.item(bucket.width(), "w"));
    items.add(SyntaxTrees.item(bucket.start().orElseGet(() -> rowsBucket("min")), "s"));
    items.add(
        SyntaxTrees.item(
            bucket.finish().map(GapFillBucket.Finish::value).orElseGet(() -> rowsBucket("max")),
            "f"));
    if (instants) {
      items.add(SyntaxTrees.item(bucket.zone().orElse(new StringValue("UTC")), "z"));
    }
    for (int i = 0; i < query.values().size(); i++) {
      GapFillQuery.Value value = query.values().get(i);
      if (value.constant().isPresent()) {
        items.add(SyntaxTrees.item(value.constant().get(), constant(i)));
      }
    }
    arguments.setSelectItems(items);
    return arguments;
  }

  /** {@code (SELECT min(__tl_bucket) FROM __tl_gapfill_agg)}: a bucket with rows. */
  private static Expression rowsBucket(String extreme) {
    PlainSelect select = new PlainSelect();
    select.setSelectItems(
        List.of(new SelectItem<>(SyntaxTrees.call(extreme, SyntaxTrees.column(BUCKET)))));
    select.setFromItem(new net.sf.jsqlparser.schema.Table(AGGREGATE));
    ParenthesedSelect subquery = new ParenthesedSelect();
    subquery.setSelect(select);
    return subquery;
  }

  /** The series the WHERE clause names, one row each. */
  private static PlainSelect seriesSelect(List<Expression> values) {
    PlainSelect series = new PlainSelect();
    series.setSelectItems(
        List.of(
            SyntaxTrees.item(
                SyntaxTrees.call(
                    "unnest", SyntaxTrees.call("list_value", values.toArray(Expression[]::new))),
                key(0))));
    return series;
  }

  /**
   * Turns {@code select} into the projection of the filled relation: each item a column of it,
   * named as before; its FROM the relation; its WHERE, GROUP BY and HAVING gone (they are the
   * aggregate's); ORDER BY the series and time unless it has its own. DISTINCT and LIMIT stay.
   */
  private static void project(PlainSelect select, GapFillQuery query, Select filled) {
    List<SelectItem<?>> items = new ArrayList<>();
    for (GapFillQuery.Item item : query.items()) {
      items.add(SyntaxTrees.item(column(item), item.label()));
    }
    List<OrderByElement> order = new ArrayList<>();
    if (select.getOrderByElements() == null) {
      for (int i = 0; i < query.keys().size(); i++) {
        order.add(orderBy(SyntaxTrees.column(RELATION, key(i))));
      }
      order.add(orderBy(SyntaxTrees.column(RELATION, BUCKET)));
    } else {
      for (OrderByElement element : select.getOrderByElements()) {
        query
            .itemMatching(element.getExpression())
            .ifPresent(item -> element.setExpression(column(item)));
        order.add(element);
      }
    }
    ParenthesedSelect from = new ParenthesedSelect();
    from.setSelect(filled);
    from.setAlias(new Alias(RELATION, true));
    select.setSelectItems(items);
    select.setFromItem(from);
    select.setJoins(null);
    select.setWhere(null);
    select.setGroupByElement(null);
    select.setHaving(null);
    select.setOrderByElements(order);
  }

  private static Expression column(GapFillQuery.Item item) {
    return switch (item.kind()) {
      case BUCKET -> SyntaxTrees.column(RELATION, BUCKET);
      case KEY -> SyntaxTrees.column(RELATION, key(item.index()));
      case VALUE -> SyntaxTrees.column(RELATION, filledValue(item.index()));
    };
  }

  private static OrderByElement orderBy(Expression expression) {
    OrderByElement element = new OrderByElement();
    element.setExpression(expression);
    return element;
  }

  /**
   * The filled relation as SQL of Timelake's own names only: the common table expressions are
   * placeholders whose bodies are replaced by syntax trees (the aggregate, the arguments, the named
   * series), so no text of the statement is pasted.
   */
  static String template(GapFillQuery query, boolean instants) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < query.keys().size(); i++) {
      keys.add(key(i));
    }
    String grid =
        instants
            ? "SELECT timezone(z, __tl_g) AS __tl_bucket FROM (SELECT z, unnest(range("
                + "timezone(z, time_bucket(w, CAST(s AS TIMESTAMPTZ), z)), "
                + "timezone(z, CAST(f AS TIMESTAMPTZ)"
                + finishStep(query.bucket())
                + "), w)) AS __tl_g FROM __tl_gapfill_args) AS __tl_range"
            : "SELECT unnest(range(time_bucket(w, CAST(s AS TIMESTAMP)), CAST(f AS TIMESTAMP)"
                + finishStep(query.bucket())
                + ", w)) AS __tl_bucket FROM __tl_gapfill_args";
    if (query.bucket().keepsBucketsOutsideTheGrid()) {
      // Buckets of rows outside start and finish (explicit bounds narrower than the WHERE) are
      // kept.
      grid += " UNION SELECT __tl_bucket FROM __tl_gapfill_agg";
    }
    String series =
        keys.isEmpty()
            ? ""
            : query.namedSeries().isPresent()
                ? "SELECT 1 AS __tl_k0"
                : "SELECT DISTINCT " + String.join(", ", keys) + " FROM __tl_gapfill_agg";
    StringBuilder sql = new StringBuilder("WITH __tl_gapfill_agg AS MATERIALIZED (SELECT 1), ");
    sql.append("__tl_gapfill_args AS (SELECT 1), __tl_gapfill_grid AS (").append(grid).append(")");
    if (!series.isEmpty()) {
      sql.append(", __tl_gapfill_series AS (").append(series).append(")");
    }
    String partition = keys.isEmpty() ? "" : "PARTITION BY " + qualified("__tl_series", keys) + " ";
    String window = "OVER (" + partition + "ORDER BY __tl_grid.__tl_bucket ROWS BETWEEN ";
    String before = window + "UNBOUNDED PRECEDING AND CURRENT ROW)";
    String after = window + "CURRENT ROW AND UNBOUNDED FOLLOWING)";
    List<String> joined = new ArrayList<>();
    for (String key : keys) {
      joined.add("__tl_series." + key);
    }
    joined.add("__tl_grid.__tl_bucket");
    joined.add("__tl_agg.__tl_bucket IS NOT NULL AS __tl_present");
    List<String> filledColumns = new ArrayList<>(keys);
    filledColumns.add("__tl_bucket");
    for (int i = 0; i < query.values().size(); i++) {
      String value = "__tl_agg." + value(i);
      joined.add(value + " AS " + value(i));
      String filled = filledValue(i);
      switch (query.values().get(i).fill()) {
        case NONE -> filledColumns.add(value(i) + " AS " + filled);
        case CONSTANT ->
            filledColumns.add(
                "CASE WHEN __tl_present THEN "
                    + value(i)
                    + " ELSE (SELECT "
                    + constant(i)
                    + " FROM __tl_gapfill_args) END AS "
                    + filled);
        case LOCF -> {
          // The value of the newest bucket with rows so far, NULL included: wrapped in a struct
          // that is itself NULL only where the bucket is empty, so one window pass finds it.
          joined.add(
              "last_value(CASE WHEN __tl_agg.__tl_bucket IS NOT NULL THEN struct_pack(v := "
                  + value
                  + ") END IGNORE NULLS) "
                  + before
                  + " AS __tl_carried"
                  + i);
          filledColumns.add("struct_extract(__tl_carried" + i + ", 'v') AS " + filled);
        }
        case INTERPOLATE -> {
          String known = "CASE WHEN " + value + " IS NOT NULL THEN __tl_grid.__tl_bucket END";
          joined.add("arg_max(" + value + ", " + known + ") " + before + " AS __tl_pv" + i);
          joined.add("max(" + known + ") " + before + " AS __tl_pt" + i);
          joined.add("arg_min(" + value + ", " + known + ") " + after + " AS __tl_nv" + i);
          joined.add("min(" + known + ") " + after + " AS __tl_nt" + i);
          String previous = "CAST(__tl_pv" + i + " AS DOUBLE)";
          String next = "CAST(__tl_nv" + i + " AS DOUBLE)";
          filledColumns.add(
              "CASE WHEN __tl_present THEN "
                  + value(i)
                  + " ELSE "
                  + previous
                  + " + ("
                  + next
                  + " - "
                  + previous
                  + ") * CAST(epoch_us(__tl_bucket) - epoch_us(__tl_pt"
                  + i
                  + ") AS DOUBLE) / CAST(epoch_us(__tl_nt"
                  + i
                  + ") - epoch_us(__tl_pt"
                  + i
                  + ") AS DOUBLE) END AS "
                  + filled);
        }
      }
    }
    List<String> on = new ArrayList<>();
    for (String key : keys) {
      on.add("__tl_agg." + key + " IS NOT DISTINCT FROM __tl_series." + key);
    }
    on.add("__tl_agg.__tl_bucket = __tl_grid.__tl_bucket");
    sql.append(" SELECT ")
        .append(String.join(", ", filledColumns))
        .append(" FROM (SELECT ")
        .append(String.join(", ", joined))
        .append(" FROM ")
        .append(keys.isEmpty() ? "" : "__tl_gapfill_series AS __tl_series CROSS JOIN ")
        .append("__tl_gapfill_grid AS __tl_grid LEFT JOIN __tl_gapfill_agg AS __tl_agg ON ")
        .append(String.join(" AND ", on))
        .append(") AS __tl_filled");
    return sql.toString();
  }

  /**
   * A finish bound that includes its instant ({@code <=}, BETWEEN, the last bucket with rows) draws
   * the bucket holding it.
   */
  private static String finishStep(GapFillBucket bucket) {
    return bucket.finish().map(GapFillBucket.Finish::inclusive).orElse(true)
        ? " + INTERVAL '1 microsecond'"
        : "";
  }

  private static String qualified(String relation, List<String> columns) {
    List<String> names = new ArrayList<>();
    columns.forEach(c -> names.add(relation + "." + c));
    return String.join(", ", names);
  }

  private static Select parse(String sql) {
    try {
      return (Select) StatementParser.parse(sql);
    } catch (JSQLParserException e) {
      throw new IllegalStateException("Timelake's gap-fill template does not parse: " + sql, e);
    }
  }

  private static WithItem<?> withItem(Select select, String name) {
    for (WithItem<?> item : select.getWithItemsList()) {
      if (item.getAlias().getName().equals(name)) {
        return item;
      }
    }
    throw new IllegalStateException("no " + name + " in the gap-fill template");
  }

  private static String key(int index) {
    return "__tl_k" + index;
  }

  private static String value(int index) {
    return "__tl_v" + index;
  }

  private static String constant(int index) {
    return "__tl_f" + index;
  }

  private static String filledValue(int index) {
    return "__tl_c" + index;
  }

  static String name(Function call) {
    return call.getName() == null
        ? ""
        : SyntaxNames.unquote(call.getName()).toLowerCase(Locale.ROOT);
  }
}
