package dev.timelake.sql;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SqlText;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupAggregate;
import dev.timelake.rollup.RollupBuckets;
import dev.timelake.rollup.RollupRefresher;
import dev.timelake.rollup.RollupStore;
import dev.timelake.table.SessionSettings;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import dev.timelake.table.TimePartitions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import net.sf.jsqlparser.expression.AllValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Answers {@code SELECT keys…, time_bucket(w, time), aggregates… FROM raw [WHERE time range and key
 * filters] GROUP BY keys…, bucket} from a rollup of the same width and keys that stores every
 * aggregate, exactly: buckets inside the query's range, unchanged since the rollup's refresh and
 * within both tables' data come from the rollup; every other bucket (the partial ones at the edges,
 * the changed ones) is aggregated from the raw table; the two parts share no bucket and are joined
 * with UNION ALL. Anything else is not routed, with the reason in the explanation.
 */
final class RollupRouter {
  private static final Set<String> AGGREGATES =
      Set.of("count", "sum", "min", "max", "avg", "first_value", "last_value");

  private final LakeCatalog catalog;
  private final SessionSettings settings;
  private final ConstantEvaluator constants;

  /** The routed statement and why. */
  record Routed(String sql, List<String> explanation) {}

  /** What a query asks for, item by item. */
  private record Item(
      SelectItem<?> item, Kind kind, String key, Optional<String> column, String function) {}

  private enum Kind {
    KEY,
    BUCKET,
    AGGREGATE
  }

  RollupRouter(LakeCatalog catalog, SessionSettings settings, ConstantEvaluator constants) {
    this.catalog = catalog;
    this.settings = settings;
    this.constants = constants;
  }

  /** The routed SQL, or empty with the reason added to {@code explanation}. */
  Optional<Routed> route(PlainSelect select, List<String> explanation) {
    if (!(select.getFromItem() instanceof Table from)
        || (select.getJoins() != null && !select.getJoins().isEmpty())
        || select.getGroupBy() == null
        || select.getHaving() != null
        || select.getQualify() != null
        || select.getDistinct() != null
        || (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty())) {
      return Optional.empty();
    }
    Optional<LoadedTable> loaded = catalog.load(SyntaxNames.tableName(from));
    if (loaded.isEmpty() || !loaded.get().contract().deduplicates()) {
      return Optional.empty();
    }
    LoadedTable raw = loaded.get();
    TableContract contract = raw.contract();
    if (!settings.isEnabled(Settings.ROLLUP_ROUTING, contract)
        || !settings.isEnabled(Settings.READ_DEDUP, contract)) {
      return Optional.empty();
    }
    List<Rollup> rollups = RollupStore.rollupsOf(catalog, raw);
    if (rollups.isEmpty()) {
      return Optional.empty();
    }
    return analyze(select, from, raw, rollups, explanation);
  }

  private Optional<Routed> analyze(
      PlainSelect select, Table from, LoadedTable raw, List<Rollup> rollups, List<String> why) {
    TableContract contract = raw.contract();
    String time = contract.timeColumn().orElseThrow();
    List<Item> items = new ArrayList<>();
    long width = 0;
    long origin = 0;
    for (SelectItem<?> selectItem : select.getSelectItems()) {
      Expression expression = selectItem.getExpression();
      Column reference = SyntaxNames.column(expression).orElse(null);
      if (reference != null && isKey(contract, reference.getColumnName())) {
        items.add(
            new Item(
                selectItem,
                Kind.KEY,
                key(contract, reference.getColumnName()),
                Optional.empty(),
                ""));
      } else if (expression instanceof Function function && isBucketOf(function, time)) {
        Optional<Long> w = constants.fixedWidthMicros(function.getParameters().get(0));
        if (w.isEmpty() || function.getParameters().size() != 2) {
          return notRouted(why, "bucket " + function + " has no fixed width or has an origin");
        }
        width = w.get();
        origin =
            function.getName().equalsIgnoreCase("time_bucket")
                ? RollupBuckets.TIME_BUCKET_ORIGIN_MICROS
                : 0;
        items.add(new Item(selectItem, Kind.BUCKET, "", Optional.empty(), ""));
      } else if (expression instanceof Function function && isAggregate(function)) {
        Optional<String> column = aggregateColumn(function, contract, time);
        if (column == null) {
          return notRouted(why, "aggregate " + function + " is not one a rollup stores");
        }
        items.add(
            new Item(
                selectItem,
                Kind.AGGREGATE,
                "",
                column,
                function.getName().toLowerCase(Locale.ROOT)));
      } else {
        return notRouted(
            why, "select item " + expression + " is not a key, the bucket or an aggregate");
      }
    }
    if (items.stream().filter(i -> i.kind() == Kind.BUCKET).count() != 1) {
      return Optional.empty();
    }
    Set<String> keys = new TreeSet<>();
    items.stream().filter(i -> i.kind() == Kind.KEY).forEach(i -> keys.add(i.key()));
    if (!groupsByItems(select, items, contract, time)) {
      return notRouted(why, "GROUP BY is not the selected keys and the bucket");
    }
    Optional<Rollup> rollup = pick(rollups, keys, width, origin, items);
    if (rollup.isEmpty()) {
      return notRouted(why, "no rollup with this width, these keys and every aggregate");
    }
    long[] range = {Long.MIN_VALUE, Long.MAX_VALUE};
    List<Expression> keyFilters = new ArrayList<>();
    if (select.getWhere() != null
        && !splitWhere(select.getWhere(), contract, time, range, keyFilters)) {
      return notRouted(why, "WHERE has a filter other than time ranges and key filters");
    }
    return build(select, from, raw, rollup.get(), items, range, keyFilters, why);
  }

  private Optional<Routed> build(
      PlainSelect select,
      Table from,
      LoadedTable raw,
      Rollup rollup,
      List<Item> items,
      long[] range,
      List<Expression> keyFilters,
      List<String> why) {
    if (rollup.sourceSnapshot() < 0 || RollupRefresher.isRolledBack(rollup, raw)) {
      return notRouted(why, rollup.name() + " is not refreshed, or the raw table was rolled back");
    }
    long w = rollup.widthMicros();
    long o = rollup.originMicros();
    long start = RollupBuckets.ceil(Math.max(range[0], dataStart(raw)), w, o);
    start = Math.max(start, RollupBuckets.ceil(dataStart(rollup.table()), w, o));
    long end = range[1] == Long.MAX_VALUE ? Long.MAX_VALUE : RollupBuckets.floor(range[1], w, o);
    List<long[]> fromRollup =
        subtract(List.of(new long[] {start, end}), RollupRefresher.changedBuckets(rollup, raw));
    fromRollup.removeIf(r -> r[0] >= r[1]);
    if (fromRollup.isEmpty()) {
      return notRouted(why, rollup.name() + " holds no complete, unchanged bucket in the range");
    }
    List<long[]> fromRaw = subtract(List.of(new long[] {range[0], range[1]}), fromRollup);
    String alias =
        from.getAlias() != null
            ? SyntaxNames.unquote(from.getAlias().getName())
            : SyntaxNames.unquote(from.getName());
    String keysFilter =
        keyFilters.isEmpty()
            ? ""
            : " AND " + String.join(" AND ", keyFilters.stream().map(e -> "(" + e + ")").toList());
    List<String> rollupColumns = new ArrayList<>();
    List<String> rawColumns = new ArrayList<>();
    List<String> outer = new ArrayList<>();
    int aggregateIndex = 0;
    String time = raw.contract().timeColumn().orElseThrow();
    for (Item item : items) {
      String output = outputName(item.item());
      switch (item.kind()) {
        case KEY -> {
          rollupColumns.add(SqlText.identifier(item.key()));
          rawColumns.add(SqlText.identifier(item.key()));
          outer.add(SqlText.identifier(item.key()) + " AS " + SqlText.identifier(output));
        }
        case BUCKET -> {
          rollupColumns.add(SqlText.identifier(rollup.bucketColumn()) + " AS __tl_bucket");
          rawColumns.add(item.item().getExpression() + " AS __tl_bucket");
          outer.add("__tl_bucket AS " + SqlText.identifier(output));
        }
        case AGGREGATE -> {
          RollupAggregate stored = rollup.find(item.function(), item.column()).orElseThrow();
          String column = "__tl_agg_" + (aggregateIndex++);
          rollupColumns.add(SqlText.identifier(stored.name()) + " AS " + column);
          rawColumns.add(item.item().getExpression() + " AS " + column);
          outer.add(column + " AS " + SqlText.identifier(output));
        }
      }
    }
    String rollupPart =
        "SELECT "
            + String.join(", ", rollupColumns)
            + " FROM "
            + qualified(rollup.name())
            + " AS "
            + SqlText.identifier(alias)
            + " WHERE ("
            + ranges(SqlText.identifier(rollup.bucketColumn()), fromRollup)
            + ")"
            + keysFilter;
    String parts = rollupPart;
    if (!fromRaw.isEmpty()) {
      parts +=
          " UNION ALL SELECT "
              + String.join(", ", rawColumns)
              + " FROM "
              + qualified(raw.name())
              + " AS "
              + SqlText.identifier(alias)
              + " WHERE ("
              + ranges(SqlText.identifier(time), fromRaw)
              + ")"
              + keysFilter
              + " GROUP BY ALL";
    }
    Optional<String> order = orderBy(select, items);
    if (order == null) {
      return notRouted(why, "ORDER BY uses an expression that is not selected");
    }
    String sql =
        "SELECT "
            + String.join(", ", outer)
            + " FROM ("
            + parts
            + ") AS __tl_routed"
            + order.orElse("")
            + (select.getLimit() != null ? " " + select.getLimit() : "")
            + (select.getOffset() != null ? " " + select.getOffset() : "");
    List<String> explanation = new ArrayList<>();
    explanation.add(
        "routed to rollup "
            + rollup.name()
            + ": "
            + slots(fromRollup, w)
            + " bucket slots from the rollup in "
            + fromRollup.size()
            + " ranges; raw data for "
            + fromRaw.size()
            + " ranges (edges and buckets changed since the refresh)");
    return Optional.of(new Routed(sql, explanation));
  }

  private static String slots(List<long[]> ranges, long width) {
    long total = 0;
    for (long[] range : ranges) {
      if (range[1] == Long.MAX_VALUE || range[0] == Long.MIN_VALUE) {
        return "open-ended";
      }
      total += (range[1] - range[0]) / width;
    }
    return Long.toString(total);
  }

  private static String qualified(dev.timelake.TableName name) {
    return SqlText.qualified(name.namespace(), name.name());
  }

  /** {@code (column >= a AND column < b) OR …}, open ends left out. */
  private static String ranges(String column, List<long[]> ranges) {
    List<String> terms = new ArrayList<>();
    for (long[] range : ranges) {
      List<String> bounds = new ArrayList<>();
      if (range[0] != Long.MIN_VALUE) {
        bounds.add(column + " >= make_timestamptz(CAST(" + range[0] + " AS BIGINT))");
      }
      if (range[1] != Long.MAX_VALUE) {
        bounds.add(column + " < make_timestamptz(CAST(" + range[1] + " AS BIGINT))");
      }
      terms.add(bounds.isEmpty() ? "true" : "(" + String.join(" AND ", bounds) + ")");
    }
    return terms.isEmpty() ? "false" : String.join(" OR ", terms);
  }

  /** {@code ranges} minus {@code holes}; both sorted, disjoint, [start, end). */
  static List<long[]> subtract(List<long[]> ranges, List<long[]> holes) {
    List<long[]> result = new ArrayList<>();
    for (long[] range : ranges) {
      long cursor = range[0];
      for (long[] hole : holes) {
        if (hole[1] <= cursor || hole[0] >= range[1]) {
          continue;
        }
        if (hole[0] > cursor) {
          result.add(new long[] {cursor, hole[0]});
        }
        cursor = Math.max(cursor, hole[1]);
      }
      if (cursor < range[1]) {
        result.add(new long[] {cursor, range[1]});
      }
    }
    return result;
  }

  /** The start of the earliest partition holding live data: older data is gone (retention). */
  private static long dataStart(LoadedTable table) {
    List<PlannedFile> files = ScanPlanner.liveFiles(table);
    int first = files.stream().mapToInt(PlannedFile::partition).min().orElse(Integer.MAX_VALUE);
    return first == Integer.MAX_VALUE
        ? Long.MAX_VALUE
        : TimePartitions.startMicros(table.contract().chunk(), first);
  }

  private static Optional<Rollup> pick(
      List<Rollup> rollups, Set<String> keys, long width, long origin, List<Item> items) {
    for (Rollup rollup : rollups) {
      Set<String> rollupKeys = new TreeSet<>(rollup.keys());
      boolean same =
          RollupBuckets.sameBuckets(rollup.widthMicros(), rollup.originMicros(), width, origin)
              && rollupKeys.equals(keys)
              && items.stream()
                  .filter(i -> i.kind() == Kind.AGGREGATE)
                  .allMatch(i -> rollup.find(i.function(), i.column()).isPresent());
      if (same) {
        return Optional.of(rollup);
      }
    }
    return Optional.empty();
  }

  private boolean groupsByItems(
      PlainSelect select, List<Item> items, TableContract contract, String time) {
    ExpressionList<?> groups = select.getGroupBy().getGroupByExpressionList();
    if (groups.size() == 1 && groups.get(0) instanceof AllValue) {
      return true;
    }
    int keysAndBucket = (int) items.stream().filter(i -> i.kind() != Kind.AGGREGATE).count();
    Set<Integer> covered = new TreeSet<>();
    for (Expression group : groups) {
      int index = itemIndex(group, items, contract, time);
      if (index < 0 || items.get(index).kind() == Kind.AGGREGATE) {
        return false;
      }
      covered.add(index);
    }
    return covered.size() == keysAndBucket && groups.size() == keysAndBucket;
  }

  private static int itemIndex(
      Expression group, List<Item> items, TableContract contract, String time) {
    if (group instanceof LongValue ordinal) {
      int index = (int) ordinal.getValue() - 1;
      return index >= 0 && index < items.size() ? index : -1;
    }
    Column column = SyntaxNames.column(group).orElse(null);
    for (int i = 0; i < items.size(); i++) {
      Item item = items.get(i);
      String alias =
          item.item().getAlias() == null
              ? null
              : SyntaxNames.unquote(item.item().getAlias().getName());
      if (column != null
          && alias != null
          && alias.equalsIgnoreCase(SyntaxNames.unquote(column.getColumnName()))) {
        return i;
      }
      if (column != null
          && item.kind() == Kind.KEY
          && item.key().equalsIgnoreCase(SyntaxNames.unquote(column.getColumnName()))) {
        return i;
      }
      if (group.toString().equalsIgnoreCase(item.item().getExpression().toString())) {
        return i;
      }
    }
    return -1;
  }

  /** Splits WHERE into a time range (constants evaluated once) and key filters. */
  private boolean splitWhere(
      Expression where,
      TableContract contract,
      String time,
      long[] range,
      List<Expression> keyFilters) {
    Expression current = unwrap(where);
    if (current instanceof AndExpression and) {
      return splitWhere(and.getLeftExpression(), contract, time, range, keyFilters)
          && splitWhere(and.getRightExpression(), contract, time, range, keyFilters);
    }
    if (current instanceof Between between
        && !between.isNot()
        && isColumn(between.getLeftExpression(), time)) {
      Optional<Long> low = micros(between.getBetweenExpressionStart());
      Optional<Long> high = micros(between.getBetweenExpressionEnd());
      if (low.isEmpty() || high.isEmpty()) {
        return false;
      }
      range[0] = Math.max(range[0], low.get());
      range[1] = Math.min(range[1], high.get() + 1);
      return true;
    }
    if (current instanceof GreaterThan
        || current instanceof GreaterThanEquals
        || current instanceof MinorThan
        || current instanceof MinorThanEquals) {
      net.sf.jsqlparser.expression.BinaryExpression comparison =
          (net.sf.jsqlparser.expression.BinaryExpression) current;
      boolean left = isColumn(comparison.getLeftExpression(), time);
      boolean right = isColumn(comparison.getRightExpression(), time);
      if (left != right) {
        Optional<Long> value =
            micros(left ? comparison.getRightExpression() : comparison.getLeftExpression());
        if (value.isEmpty()) {
          return false;
        }
        boolean greater = current instanceof GreaterThan || current instanceof GreaterThanEquals;
        boolean inclusive =
            current instanceof GreaterThanEquals || current instanceof MinorThanEquals;
        boolean lower = greater == left;
        long v = value.get();
        if (lower) {
          range[0] = Math.max(range[0], inclusive ? v : v + 1);
        } else {
          range[1] = Math.min(range[1], inclusive ? v + 1 : v);
        }
        return true;
      }
    }
    if (onlyKeyColumns(current, contract)) {
      keyFilters.add(current);
      return true;
    }
    return false;
  }

  private Optional<Long> micros(Expression expression) {
    return ConstantEvaluator.isConstant(expression)
        ? constants.micros(expression)
        : Optional.empty();
  }

  /** True when every column outside subqueries is a series-key column. */
  private static boolean onlyKeyColumns(Expression expression, TableContract contract) {
    AtomicBoolean keysOnly = new AtomicBoolean(true);
    AtomicBoolean anyColumn = new AtomicBoolean(false);
    expression.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Column column, S context) {
            anyColumn.set(true);
            if (!isKey(contract, column.getColumnName())) {
              keysOnly.set(false);
            }
            return null;
          }

          @Override
          public <S> Void visit(ParenthesedSelect select, S context) {
            return null;
          }

          @Override
          public <S> Void visit(Select select, S context) {
            return null;
          }

          @Override
          public <S> Void visit(
              net.sf.jsqlparser.expression.AnalyticExpression analytic, S context) {
            keysOnly.set(false);
            return null;
          }
        },
        null);
    return keysOnly.get() && anyColumn.get();
  }

  /** ORDER BY with each term made to refer to an output column; null when that is impossible. */
  private static Optional<String> orderBy(PlainSelect select, List<Item> items) {
    List<OrderByElement> elements = select.getOrderByElements();
    if (elements == null || elements.isEmpty()) {
      return Optional.empty();
    }
    List<String> terms = new ArrayList<>();
    for (OrderByElement element : elements) {
      Expression expression = element.getExpression();
      String term = null;
      if (expression instanceof LongValue
          || expression instanceof AllColumns
          || expression.toString().equalsIgnoreCase("ALL")) {
        term = expression.toString();
      } else {
        for (Item item : items) {
          String output = outputName(item.item());
          if (expression.toString().equalsIgnoreCase(item.item().getExpression().toString())
              || SyntaxNames.column(expression)
                  .filter(c -> SyntaxNames.unquote(c.getColumnName()).equalsIgnoreCase(output))
                  .isPresent()) {
            term = SqlText.identifier(output);
          }
        }
      }
      if (term == null) {
        return null;
      }
      String suffix = element.toString().substring(expression.toString().length());
      terms.add(term + suffix);
    }
    return Optional.of(" ORDER BY " + String.join(", ", terms));
  }

  private static String outputName(SelectItem<?> item) {
    if (item.getAlias() != null) {
      return SyntaxNames.unquote(item.getAlias().getName());
    }
    Expression expression = item.getExpression();
    return SyntaxNames.column(expression)
        .map(column -> SyntaxNames.unquote(column.getColumnName()))
        .orElse(expression.toString());
  }

  private static boolean isBucketOf(Function function, String time) {
    String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
    ExpressionList<?> parameters = function.getParameters();
    return (name.equals("time_bucket") || name.equals("date_bin"))
        && parameters != null
        && parameters.size() >= 2
        && isColumn(parameters.get(1), time);
  }

  private static boolean isAggregate(Function function) {
    return function.getName() != null
        && AGGREGATES.contains(function.getName().toLowerCase(Locale.ROOT));
  }

  /** The aggregate's column (empty for count(*)); null when the call is not a storable form. */
  private static Optional<String> aggregateColumn(
      Function function, TableContract contract, String time) {
    if (function.isDistinct()) {
      return null;
    }
    String name = function.getName().toLowerCase(Locale.ROOT);
    boolean ordered = name.equals("first_value") || name.equals("last_value");
    List<OrderByElement> order = function.getOrderByElements();
    if (ordered != (order != null && !order.isEmpty())) {
      return null;
    }
    if (ordered
        && (order.size() != 1
            || !order.get(0).isAsc()
            || !isColumn(order.get(0).getExpression(), time))) {
      return null;
    }
    if (function.isAllColumns()
        || (function.getParameters() != null
            && function.getParameters().size() == 1
            && function.getParameters().get(0) instanceof AllColumns)) {
      return name.equals("count") ? Optional.empty() : null;
    }
    ExpressionList<?> parameters = function.getParameters();
    if (parameters == null
        || parameters.size() != 1
        || SyntaxNames.column(parameters.get(0)).isEmpty()) {
      return null;
    }
    Column column = SyntaxNames.column(parameters.get(0)).get();
    String columnName = SyntaxNames.unquote(column.getColumnName());
    return contract.columnNames().stream()
        .filter(c -> c.equalsIgnoreCase(columnName))
        .findFirst()
        .map(Optional::of)
        .orElse(null);
  }

  private static boolean isColumn(Expression expression, String name) {
    return SyntaxNames.column(unwrap(expression))
        .filter(column -> SyntaxNames.unquote(column.getColumnName()).equalsIgnoreCase(name))
        .isPresent();
  }

  private static boolean isKey(TableContract contract, String column) {
    return contract.seriesKey().stream()
        .anyMatch(k -> k.equalsIgnoreCase(SyntaxNames.unquote(column)));
  }

  private static String key(TableContract contract, String column) {
    return contract.seriesKey().stream()
        .filter(k -> k.equalsIgnoreCase(SyntaxNames.unquote(column)))
        .findFirst()
        .orElseThrow();
  }

  private static Expression unwrap(Expression expression) {
    Expression current = expression;
    while (current instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
      current = list.get(0);
    }
    return current;
  }

  private static Optional<Routed> notRouted(List<String> why, String reason) {
    why.add("not routed: " + reason);
    return Optional.empty();
  }
}
