package dev.timelake.rollup;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.StatementParser;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.table.TableContract;
import dev.timelake.table.TableOptions;
import dev.timelake.time.BucketGrid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.AllValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Validates a rollup's SELECT against its raw table and turns it into a {@link RollupDefinition}.
 * The rules: one Timelake time-series table, no join or subquery, a WHERE only of {@link
 * RollupFilter} terms; one bucket of the time column with a fixed width ({@link BucketSpellings});
 * grouping by series-key columns that are selected; aggregates of the {@link Aggregates} registry.
 * An average is stored with a count of its column, added when the SELECT has none, so coarser
 * queries can merge it. Each error names the offending part.
 */
public final class RollupDefinitions {
  private RollupDefinitions() {}

  /**
   * Validates a CREATE MATERIALIZED ROLLUP statement; {@code tables} gives the contract of a table
   * by name and throws when it does not exist.
   */
  public static RollupDefinition define(
      RollupStatement statement,
      Function<TableName, TableContract> tables,
      ConstantEvaluator constants) {
    TableName name = statement.name();
    PlainSelect select = parse(name, statement.select());
    TableName sourceName = SyntaxNames.tableName(singleTable(name, select));
    TableContract raw = tables.apply(sourceName);
    String time =
        raw.timeColumn()
            .orElseThrow(
                () ->
                    rejected(
                        name,
                        "%s is a plain table; a rollup needs a time-series table",
                        sourceName));
    if (raw.column(time).type().kind() != dev.timelake.ColumnType.Kind.TIMESTAMPTZ) {
      throw rejected(
          name,
          "the time column %s.%s is %s; rollups need a TIMESTAMPTZ time column (their buckets are"
              + " instants)",
          sourceName,
          time,
          raw.column(time).type().sql());
    }
    Map<String, String> outputs = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>();
    List<StoredAggregate> aggregates = new ArrayList<>();
    String bucketColumn = null;
    BucketGrid grid = null;
    long origin = 0;
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression expression = item.getExpression();
      String alias =
          item.getAlias() == null ? null : SyntaxNames.unquote(item.getAlias().getName());
      Optional<net.sf.jsqlparser.schema.Column> column = SyntaxNames.column(expression);
      if (expression instanceof AllColumns) {
        throw rejected(
            name, "select the grouping columns, the bucket and aggregates by name, not *");
      } else if (column.isPresent()) {
        String key = keyColumn(name, raw, SyntaxNames.unquote(column.get().getColumnName()));
        keys.add(key);
        addOutput(name, outputs, alias == null ? key : alias, "column " + key);
      } else if (BucketSpellings.isBucketCall(expression)) {
        if (bucketColumn != null) {
          throw rejected(name, "only one bucket is allowed, found a second: %s", expression);
        }
        grid = bucket(name, expression, time, constants);
        origin = spelledOrigin(expression, grid);
        bucketColumn = alias == null ? "bucket" : alias;
        addOutput(name, outputs, bucketColumn, "the bucket");
      } else if (expression instanceof net.sf.jsqlparser.expression.Function function) {
        StoredAggregate aggregate = aggregate(name, raw, function, alias);
        boolean stored = aggregates.stream().anyMatch(a -> a.call().equals(aggregate.call()));
        if (alias != null || !stored) {
          // gap_count and gap_seconds at one threshold share their unnamed state.
          addOutput(name, outputs, aggregate.name(), function.toString());
          aggregates.add(aggregate);
        }
      } else {
        throw rejected(
            name,
            "'%s' is neither a grouping column, the bucket, nor one of the aggregates %s",
            expression,
            Aggregates.allowed(time));
      }
    }
    if (bucketColumn == null) {
      throw rejected(
          name, "select one time_bucket(INTERVAL '…', %s) (or date_bin) as the bucket", time);
    }
    if (aggregates.isEmpty()) {
      throw rejected(name, "select at least one aggregate");
    }
    if (grid instanceof dev.timelake.time.CalendarGrid local && !local.laterMidnight()) {
      throw rejected(
          name,
          "%s repeats a local midnight on some day, where local dates start at the earlier one and"
              + " rollups' buckets at the later one, as time_bucket's; spell the bucket"
              + " time_bucket(INTERVAL '%s', %s, '%s')",
          local.zone().getId(),
          local.interval(),
          time,
          local.zone().getId());
    }
    checkWholeIntervals(name, raw, grid);
    checkGroupBy(name, select, keys, bucketColumn);
    RollupFilter filter;
    try {
      filter = RollupFilter.of(select.getWhere(), raw, keys);
    } catch (UnsupportedPart e) {
      throw rejected(name, "%s", e.getMessage());
    }
    addCompanions(aggregates, outputs, raw);
    return new RollupDefinition(
        name,
        sourceName,
        keys,
        bucketColumn,
        grid,
        origin,
        aggregates,
        options(name, statement.with()),
        statement.select().strip(),
        filter.toString());
  }

  /**
   * A row of a table whose rows replace the others of their interval may replace one in another
   * bucket, which would leave that bucket's cell stale: its buckets must be whole intervals.
   */
  private static void checkWholeIntervals(TableName name, TableContract raw, BucketGrid grid) {
    if (!raw.replacesWithinInterval()) {
      return;
    }
    java.math.BigInteger seconds = dev.timelake.index.IndexIntervals.of(raw).orElseThrow().width();
    BucketGrid intervals = BucketGrid.of(seconds.longValueExact() * 1_000_000L, 0);
    if (!grid.isMultipleOf(intervals)) {
      throw rejected(
          name,
          "%s keeps the newest row per series and interval of %s (on_conflict = 'replace'), so"
              + " each bucket must be whole intervals aligned to the epoch, and %s is not",
          raw.name(),
          raw.setting(dev.timelake.table.Settings.INDEX_GRANULARITY).orElseThrow(),
          grid);
    }
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

  private static BucketGrid bucket(
      TableName name, Expression expression, String time, ConstantEvaluator constants) {
    try {
      return BucketSpellings.grid(expression, time, constants)
          .orElseThrow(() -> rejected(name, "%s must bucket the time column %s", expression, time));
    } catch (UnsupportedPart e) {
      throw rejected(name, "%s", e.getMessage());
    }
  }

  /**
   * The origin as the definition spelled it, kept in the rollup's properties: DuckDB's default for
   * {@code time_bucket} unless another is given; the grid's own origin otherwise.
   */
  private static long spelledOrigin(Expression expression, BucketGrid grid) {
    net.sf.jsqlparser.expression.Function function =
        (net.sf.jsqlparser.expression.Function) expression;
    boolean defaultTimeBucket =
        function.getName().equalsIgnoreCase("time_bucket") && function.getParameters().size() == 2;
    if (!(grid instanceof dev.timelake.time.FixedGrid fixed)) {
      // Calendar buckets start where the calendar does; the origin is kept for fixed grids only.
      return 0;
    }
    return defaultTimeBucket ? BucketGrid.TIME_BUCKET_ORIGIN_MICROS : fixed.originMicros();
  }

  private static StoredAggregate aggregate(
      TableName name,
      TableContract raw,
      net.sf.jsqlparser.expression.Function function,
      String alias) {
    AggregateCall call;
    try {
      call = Aggregates.parse(function, raw);
    } catch (UnsupportedPart e) {
      throw rejected(name, "%s", e.getMessage());
    }
    AggregateCall stored = Aggregates.of(call).storedCall(call);
    return new StoredAggregate(alias == null ? defaultName(call) : alias, stored);
  }

  /**
   * {@code avg_value}, {@code count}, {@code integral_linear_value}, {@code gap_count_300s}: the
   * aggregate's default name with every character other than a letter, digit or underscore replaced
   * by one underscore.
   */
  static String defaultName(AggregateCall call) {
    String spelled = Aggregates.of(call).defaultName(call).toLowerCase(Locale.ROOT);
    return spelled.replaceAll("[^a-z0-9_]+", "_").replaceAll("_+$", "");
  }

  /** Adds what each aggregate needs to merge (a count for an average), named after the default. */
  private static void addCompanions(
      List<StoredAggregate> aggregates, Map<String, String> outputs, TableContract raw) {
    for (StoredAggregate aggregate : List.copyOf(aggregates)) {
      List<AggregateCall> stored = aggregates.stream().map(StoredAggregate::call).toList();
      Optional<AggregateCall> companion =
          Aggregates.of(aggregate.call()).companion(aggregate.call(), stored, raw);
      if (companion.isPresent()) {
        String output = defaultName(companion.get());
        while (outputs.containsKey(output.toLowerCase(Locale.ROOT))) {
          output = "_" + output;
        }
        outputs.put(output.toLowerCase(Locale.ROOT), companion.get().toString());
        aggregates.add(new StoredAggregate(output, companion.get()));
      }
    }
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
    // What each select position groups by: a key column by its name (whatever its alias), the
    // bucket by its output name, anything else by its text.
    List<String> selected = new ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression expression = item.getExpression();
      Optional<net.sf.jsqlparser.schema.Column> column = SyntaxNames.column(expression);
      if (column.isPresent()) {
        selected.add(SyntaxNames.unquote(column.get().getColumnName()));
      } else if (BucketSpellings.isBucketCall(expression)) {
        selected.add(bucketColumn);
      } else {
        selected.add(
            item.getAlias() == null
                ? SyntaxNames.unquote(expression.toString())
                : SyntaxNames.unquote(item.getAlias().getName()));
      }
    }
    for (Expression expression : expressions) {
      String group;
      if (expression instanceof LongValue ordinal) {
        int index = (int) ordinal.getValue() - 1;
        if (index < 0 || index >= selected.size()) {
          throw rejected(name, "GROUP BY %d is not a select position", ordinal.getValue());
        }
        group = selected.get(index);
      } else if (BucketSpellings.isBucketCall(expression)) {
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
