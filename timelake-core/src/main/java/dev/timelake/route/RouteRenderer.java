package dev.timelake.route;

import dev.timelake.TableName;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.rollup.Aggregate;
import dev.timelake.rollup.AggregateCall;
import dev.timelake.rollup.Aggregates;
import dev.timelake.rollup.RawColumns;
import dev.timelake.rollup.StateField;
import dev.timelake.rollup.StoredColumns;
import dev.timelake.rollup.StoredForm;
import dev.timelake.table.TableContract;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;

/**
 * Renders a {@link RoutePlan} as a syntax tree: a relation with the query's key columns, the bucket
 * start ({@link #BUCKET}, when the query has a bucket) and each aggregate's value ({@link
 * #aggregate(int)}), built as a UNION ALL of one part per rollup and one for the raw rows. Table
 * nodes name the raw table and the rollups; the statement rewriter turns each into its planned read
 * at the pinned snapshot.
 */
public final class RouteRenderer {
  /** The output column of the bucket start. */
  public static final String BUCKET = "__tl_bucket";

  private static final String PARTS = "__tl_parts";

  /** The bucket a piece of a range without a bucket covers, when states merge along time only. */
  private static final String PIECE = "__tl_piece";

  private final RoutePlan plan;
  private final TableContract raw;
  private final RenderSpec spec;
  private final List<AggregateCall> aggregates;

  /**
   * The grid the raw part of a range without a bucket is cut into when some state merges only along
   * time (time-weighted and gap states): each piece then covers a stretch of time no other part's
   * state overlaps, and rollup rows are states of their own buckets, not merged per key. Empty
   * otherwise. The finest grid of the plan's rollups: no rollup bucket lies inside one of its
   * buckets, so a raw piece never spans a rollup bucket.
   */
  private final Optional<BucketGrid> pieces;

  /**
   * Whether the parts' states are merged by the query's keys in a level of their own: not when one
   * rollup answers alone and its states merge in any order, where the part computes the final
   * values itself (DuckDB plans one aggregation level about 0.9 ms faster than two).
   */
  private final boolean mergesParts;

  private RouteRenderer(RoutePlan plan, TableContract raw, RenderSpec spec) {
    this.plan = plan;
    this.raw = raw;
    this.spec = spec;
    this.aggregates = plan.shape().aggregates();
    boolean alongTime =
        aggregates.stream().anyMatch(call -> Aggregates.of(call).mergesAlongTimeOnly());
    this.pieces =
        plan.merged() && alongTime
            ? plan.parts().stream()
                .map(part -> part.rollup().grid())
                .min(java.util.Comparator.comparingLong(BucketGrid::longestMicros))
            : Optional.empty();
    this.mergesParts =
        plan.merged()
            && !(plan.parts().size() == 1 && plan.rawIntervals().isEmpty() && pieces.isEmpty());
  }

  /** The output column of aggregate {@code index} of the shape. */
  public static String aggregate(int index) {
    return "__tl_a" + index;
  }

  /** The plan as one relation; see the class comment for its columns. */
  public static RenderedRoute render(RoutePlan plan, TableContract raw, RenderSpec spec) {
    return new RouteRenderer(plan, raw, spec).render();
  }

  private RenderedRoute render() {
    List<Select> parts = new ArrayList<>();
    for (RoutePart part : plan.parts()) {
      parts.add(rollupPart(part));
    }
    Optional<Table> rawTable = Optional.empty();
    if (!plan.rawIntervals().isEmpty()) {
      PlainSelect rawPart = rawPart();
      rawTable = Optional.of((Table) rawPart.getFromItem());
      parts.add(rawPart);
    }
    Select union = union(parts);
    return new RenderedRoute(mergesParts ? mergedStates(union) : union, rawTable);
  }

  private static Select union(List<Select> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    List<net.sf.jsqlparser.statement.select.SetOperation> operations = new ArrayList<>();
    for (int i = 1; i < parts.size(); i++) {
      UnionOp union = new UnionOp();
      union.setAll(true);
      operations.add(union);
    }
    SetOperationList list = new SetOperationList();
    list.setSelects(new ArrayList<>(parts));
    list.setOperations(operations);
    return list;
  }

  /** One rollup's rows in its buckets: as stored, aggregated into query buckets, or as states. */
  private PlainSelect rollupPart(RoutePart part) {
    TableName name = part.rollup().name();
    StoredColumns row = new StoredColumns(spec.alias(), part.rollup().bucketColumn());
    Expression bucketMicros = SyntaxTrees.call("epoch_us", row.bucket());
    PlainSelect select = new PlainSelect();
    select.setFromItem(SyntaxTrees.table(name.namespace(), name.name(), spec.alias()));
    addKeys(select);
    pieces.ifPresent(grid -> select.addSelectItems(SyntaxTrees.item(row.bucket(), PIECE)));
    boolean grouped = !part.asStored() && pieces.isEmpty();
    plan.shape()
        .grid()
        .ifPresent(
            grid ->
                select.addSelectItems(
                    SyntaxTrees.item(
                        part.asStored() ? row.bucket() : bucketOf(bucketMicros, grid), BUCKET)));
    for (int i = 0; i < aggregates.size(); i++) {
      AggregateCall call = aggregates.get(i);
      Aggregate aggregate = Aggregates.of(call);
      StoredForm form = part.forms().get(i);
      if (pieces.isPresent()) {
        addStates(select, i, form.stateOf(row));
      } else if (mergesParts) {
        addStates(select, i, aggregate.merge(call, raw, form.stateOf(row)));
      } else if (part.asStored()) {
        select.addSelectItems(item(form.asStored().apply(row), call, i));
      } else {
        Expression value = aggregate.finalOf(call, aggregate.merge(call, raw, form.stateOf(row)));
        select.addSelectItems(item(value, call, i));
      }
    }
    select.setWhere(where(row.bucket(), part.intervals(), bucketMicros));
    if (grouped) {
      groupByKeysAndBucket(select);
    }
    return select;
  }

  /** The raw rows no rollup answers, aggregated as the query asks, or into states. */
  private PlainSelect rawPart() {
    TableName name = plan.shape().raw();
    RawColumns rows = new RawColumns(spec.alias(), raw.timeColumn().orElseThrow());
    Expression timeMicros = SyntaxTrees.call("epoch_us", rows.time());
    PlainSelect select = new PlainSelect();
    select.setFromItem(SyntaxTrees.table(name.namespace(), name.name(), spec.alias()));
    addKeys(select);
    pieces.ifPresent(
        grid -> select.addSelectItems(SyntaxTrees.item(bucketOf(timeMicros, grid), PIECE)));
    plan.shape()
        .grid()
        .ifPresent(
            grid -> select.addSelectItems(SyntaxTrees.item(bucketOf(timeMicros, grid), BUCKET)));
    for (int i = 0; i < aggregates.size(); i++) {
      AggregateCall call = aggregates.get(i);
      Aggregate aggregate = Aggregates.of(call);
      if (plan.merged()) {
        addStates(select, i, aggregate.stateOverRows(call, rows));
      } else {
        select.addSelectItems(SyntaxTrees.item(aggregate.overRows(call, rows), aggregate(i)));
      }
    }
    Expression where = where(rows.time(), plan.rawIntervals(), timeMicros);
    if (!spec.rowFilters().isEmpty()) {
      List<Expression> terms = new ArrayList<>(spec.rowFilters());
      if (where != null) {
        terms.add(0, where);
      }
      where = SyntaxTrees.and(terms);
    }
    select.setWhere(where);
    groupByKeysAndBucket(select);
    return select;
  }

  /** The parts' states merged by the query's keys, each aggregate's final value computed. */
  private PlainSelect mergedStates(Select parts) {
    PlainSelect select = new PlainSelect();
    ParenthesedSelect from = new ParenthesedSelect();
    from.setSelect(parts);
    from.setAlias(new net.sf.jsqlparser.expression.Alias(PARTS, true));
    select.setFromItem(from);
    for (String key : plan.shape().keys()) {
      select.addSelectItems(SyntaxTrees.item(SyntaxTrees.column(PARTS, key), key));
    }
    for (int i = 0; i < aggregates.size(); i++) {
      AggregateCall call = aggregates.get(i);
      Aggregate aggregate = Aggregates.of(call);
      List<Expression> fields = new ArrayList<>();
      for (int f = 0; f < aggregate.state(call, raw).size(); f++) {
        fields.add(SyntaxTrees.column(PARTS, state(i, f)));
      }
      Expression value = aggregate.finalOf(call, aggregate.merge(call, raw, fields));
      select.addSelectItems(item(value, call, i));
    }
    if (!plan.shape().keys().isEmpty()) {
      groupBy(select, plan.shape().keys().size());
    }
    return select;
  }

  private void addKeys(PlainSelect select) {
    for (String key : plan.shape().keys()) {
      select.addSelectItems(SyntaxTrees.item(SyntaxTrees.column(spec.alias(), key), key));
    }
  }

  private void addStates(PlainSelect select, int index, List<Expression> fields) {
    AggregateCall call = aggregates.get(index);
    List<StateField> layout = Aggregates.of(call).state(call, raw);
    for (int f = 0; f < layout.size(); f++) {
      select.addSelectItems(
          SyntaxTrees.item(SyntaxTrees.cast(fields.get(f), layout.get(f).type()), state(index, f)));
    }
  }

  private static String state(int index, int field) {
    return aggregate(index) + "_" + field;
  }

  /** The value cast to the type the raw query gives, so every part has the same types. */
  private SelectItem<Expression> item(Expression value, AggregateCall call, int index) {
    return SyntaxTrees.item(
        SyntaxTrees.cast(value, Aggregates.of(call).resultType(call, raw)), aggregate(index));
  }

  private void groupByKeysAndBucket(PlainSelect select) {
    int groups =
        plan.shape().keys().size()
            + (plan.shape().grid().isPresent() ? 1 : 0)
            + (pieces.isPresent() ? 1 : 0);
    if (groups > 0) {
      groupBy(select, groups);
    }
  }

  private static void groupBy(PlainSelect select, int positions) {
    GroupByElement groupBy = new GroupByElement();
    for (int i = 1; i <= positions; i++) {
      groupBy.addGroupByExpression(SyntaxTrees.number(i));
    }
    select.setGroupByElement(groupBy);
  }

  private static Expression bucketOf(Expression micros, BucketGrid grid) {
    return SyntaxTrees.call("make_timestamptz", SyntaxTrees.bucketStartMicros(micros, grid));
  }

  /** The part's time ranges, the key filters and the cells, as one WHERE. */
  private Expression where(Expression time, IntervalSet intervals, Expression micros) {
    List<Expression> terms = new ArrayList<>();
    if (!intervals.equals(IntervalSet.all())) {
      terms.add(SyntaxTrees.within(time, intervals));
    }
    terms.addAll(spec.keyFilters());
    spec.cells().ifPresent(cells -> terms.add(inCells(cells, micros)));
    return terms.isEmpty() ? null : SyntaxTrees.and(terms);
  }

  /** {@code (keys…, bucket start µs) IN (cells)}, the bucket at the query's grid. */
  private Expression inCells(Cells cells, Expression micros) {
    List<Expression> keys = new ArrayList<>();
    for (String key : cells.keys()) {
      keys.add(SyntaxTrees.column(spec.alias(), key));
    }
    return inCells(cells, plan.shape().grid().orElseThrow(), keys, micros);
  }

  /**
   * {@code (keys…, bucket start of micros on grid) IN (cells)}: true for rows of the listed cells.
   * {@code keys} are the references to the cells' key columns, {@code micros} the rows' time in µs.
   */
  public static Expression inCells(
      Cells cells, BucketGrid grid, List<Expression> keys, Expression micros) {
    List<Expression> row = new ArrayList<>(keys);
    row.add(SyntaxTrees.bucketStartMicros(micros, grid));
    ParenthesedSelect relation = new ParenthesedSelect();
    relation.setSelect(cells.relation());
    Expression left =
        row.size() == 1 ? row.get(0) : new ParenthesedExpressionList<>(new ExpressionList<>(row));
    return new InExpression(left, relation);
  }
}
