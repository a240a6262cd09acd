package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.read.PlannedFile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * The newest (or oldest) rows of a time-series table, read newest first: {@code SELECT … FROM t
 * WHERE … ORDER BY time DESC LIMIT k [OFFSET m]}. The query runs with a lower bound on the time
 * column, first the start of the newest file, then of ever more files; once a bounded run returns
 * all k rows it is the answer, since every row the bound leaves out is older than every row it
 * keeps (copies of a reading share its time, so dedup picks the same winners). Ascending order
 * reads the oldest files first with an upper bound. A run that falls short widens the bound; the
 * last resort is the query as written.
 */
final class NewestFirst {
  /** Beyond this many rows the bounded runs stop paying (and the rows are kept in memory). */
  static final long MAX_ROWS = 10_000;

  private final TableName table;
  private final String timeColumn;
  private final boolean descending;
  private final long limit;

  private NewestFirst(TableName table, String timeColumn, boolean descending, long limit) {
    this.table = table;
    this.timeColumn = timeColumn;
    this.descending = descending;
    this.limit = limit;
  }

  /**
   * The shape of {@code statement} if it asks for the newest or oldest rows of one time-series
   * table: one table, no join, grouping, DISTINCT, aggregate or window; ordered by its time column
   * first; a constant LIMIT (plus OFFSET) of at most {@link #MAX_ROWS}.
   */
  static Optional<NewestFirst> of(
      Statement statement,
      Function<TableName, Optional<LoadedTable>> tables,
      Set<String> engineAggregates) {
    Optional<SelectShapes.OneTable> one = SelectShapes.oneTable(statement, tables);
    if (one.isEmpty()) {
      return Optional.empty();
    }
    PlainSelect select = one.get().select();
    Table from = one.get().from();
    if (select.getGroupBy() != null
        || select.getHaving() != null
        || select.getQualify() != null
        || select.getDistinct() != null
        || select.getOrderByElements() == null
        || select.getOrderByElements().isEmpty()) {
      return Optional.empty();
    }
    long limit = limit(select.getLimit());
    long offset = offset(select.getOffset());
    if (limit < 1 || offset < 0 || limit + offset > MAX_ROWS) {
      return Optional.empty();
    }
    LoadedTable loaded = one.get().table();
    if (loaded.contract().timeColumn().isEmpty()) {
      return Optional.empty();
    }
    String time = loaded.contract().timeColumn().get();
    OrderByElement first = select.getOrderByElements().get(0);
    boolean byTime =
        first.getNullOrdering() == null
            && SyntaxNames.column(first.getExpression())
                .filter(c -> SelectShapes.qualifiedBy(c, from))
                .map(c -> SyntaxNames.unquote(c.getColumnName()).equalsIgnoreCase(time))
                .orElse(false);
    if (!byTime || SelectShapes.computesOverRows(select, engineAggregates)) {
      return Optional.empty();
    }
    return Optional.of(new NewestFirst(loaded.name(), time, !first.isAsc(), limit));
  }

  /** A constant LIMIT, or 0. */
  private static long limit(Limit limit) {
    return limit != null
            && !limit.isLimitAll()
            && !limit.isLimitNull()
            && limit.getOffset() == null
            && limit.getRowCount() instanceof LongValue count
        ? count.getValue()
        : 0;
  }

  /** A constant OFFSET, 0 for none, -1 for another. */
  private static long offset(Offset offset) {
    if (offset == null) {
      return 0;
    }
    return offset.getOffset() instanceof LongValue value ? value.getValue() : -1;
  }

  /** The table read. */
  TableName table() {
    return table;
  }

  /** The LIMIT: a bounded run that returns this many rows is exact. */
  long limit() {
    return limit;
  }

  /**
   * The bounds to try, in µs: the first time of the newest file (the oldest one's last for
   * ascending order), then of the 2nd, 4th, 8th… newest, each read whole; none when one file holds
   * all, so the query runs as written.
   */
  List<Long> bounds(List<PlannedFile> files) {
    TreeSet<Long> starts = new TreeSet<>();
    for (PlannedFile file : files) {
      starts.add(descending ? file.minMicros() : file.maxMicros());
    }
    List<Long> ordered = new ArrayList<>(descending ? starts.descendingSet() : starts);
    List<Long> bounds = new ArrayList<>();
    for (int i = 1; i < ordered.size(); i *= 2) {
      bounds.add(ordered.get(i - 1));
    }
    return bounds;
  }

  /** Adds {@code time >= bound} (descending) or {@code time <= bound} to the WHERE of select. */
  void bound(PlainSelect select, long micros) {
    Column time = SyntaxTrees.column(timeColumn);
    if (select.getFromItem() instanceof Table from && from.getAlias() != null) {
      time = SyntaxTrees.column(SyntaxNames.unquote(from.getAlias().getName()), timeColumn);
    }
    Expression literal = SyntaxTrees.timestamp(micros);
    Expression term =
        descending
            ? SyntaxTrees.atLeast(time, literal)
            : new net.sf.jsqlparser.expression.operators.relational.MinorThanEquals(time, literal);
    Expression where = select.getWhere();
    select.setWhere(
        where == null ? term : SyntaxTrees.and(List.of(SyntaxTrees.parenthesized(where), term)));
  }

  /** What EXPLAIN says of the runs the query would make over {@code files}. */
  String explain(List<PlannedFile> files) {
    List<Long> bounds = bounds(files);
    return bounds.isEmpty()
        ? (descending ? "newest" : "oldest") + " first: one file, the query runs as written"
        : String.format(
            Locale.ROOT,
            "%s first: runs bounded by %s from the %s file on, then 2, 4, … files (up to %d runs),"
                + " until one returns all %d rows; otherwise the query as written",
            descending ? "newest" : "oldest",
            timeColumn,
            descending ? "newest" : "oldest",
            bounds.size(),
            limit);
  }

  /** The bound the query was answered within, for its plan. */
  dev.timelake.QueryPlan.NewestFirstBound bound(long micros) {
    return new dev.timelake.QueryPlan.NewestFirstBound(
        table,
        timeColumn,
        descending,
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000),
        limit);
  }
}
