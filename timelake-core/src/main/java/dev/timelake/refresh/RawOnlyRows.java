package dev.timelake.refresh;

import dev.timelake.Column;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.read.QueryRewriter;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.AggregateCall;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupChanges;
import dev.timelake.rollup.StoredAggregate;
import dev.timelake.route.QueryShape;
import dev.timelake.route.RawFacts;
import dev.timelake.route.RenderSpec;
import dev.timelake.route.RenderedRoute;
import dev.timelake.route.RoutePlan;
import dev.timelake.route.RoutePlanner;
import dev.timelake.route.RouteRenderer;
import dev.timelake.table.SessionSettings;
import dev.timelake.table.TableContract;
import dev.timelake.time.IntervalSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * The SQL of a rollup's rows computed from its raw table alone, copies removed, as a refresh window
 * that no other rollup answers computes them: the rollup's columns, cast to its column types, for
 * every (keys…, bucket) cell of the given buckets. Reads the raw table at its pinned snapshot. Its
 * pieces ({@link #rows}, {@link #calls}, {@link #typed}, {@link #alwaysDeduplicated}) are also how
 * {@link RefreshRunner} builds a window's rows from a route that may read other rollups.
 */
final class RawOnlyRows {
  private static final String ALIAS = "__tl_raw";
  private static final String ROUTED = "__tl_refresh";

  private RawOnlyRows() {}

  /**
   * The rows of {@code rollup}'s cells in {@code buckets} from {@code raw}; empty when the raw
   * table holds no data there.
   */
  static Optional<String> sql(
      LakeCatalog catalog,
      EngineConnection connection,
      Rollup rollup,
      PinnedTable raw,
      IntervalSet buckets) {
    dev.timelake.rollup.RollupFilter filter = rollup.filter();
    QueryShape shape =
        new QueryShape(
            raw.name(),
            rollup.keys(),
            Optional.of(rollup.grid()),
            calls(rollup),
            buckets,
            keyColumns(filter, rollup),
            Optional.of(rollup.name()),
            filter.rowTexts(),
            Set.of());
    RawFacts facts =
        new RawFacts(
            raw.contract(), raw.snapshotId(), RollupChanges.spans(ScanPlanner.liveFiles(raw)));
    RoutePlan route = RoutePlanner.rawOnly(shape, facts, List.of());
    if (route.rawIntervals().isEmpty()) {
      return Optional.empty(); // a route without parts renders no relation
    }
    RenderedRoute rendered =
        RouteRenderer.render(route, raw.contract(), spec(ALIAS, rollup, Optional.empty()));
    PinnedTables tables = new PinnedTables(catalog).pin(raw);
    QueryRewriter rewriter = new QueryRewriter(catalog, tables, connection, alwaysDeduplicated());
    return Optional.of(typed(rollup.contract(), rewriter.rewrite(rows(rollup, route, rendered))));
  }

  /**
   * What rendering a rollup's rows needs: its WHERE's key terms applied in every part, its other
   * terms to raw rows (the rollups a refresh reads from hold rows filtered so already).
   */
  static RenderSpec spec(String alias, Rollup rollup, Optional<dev.timelake.route.Cells> cells) {
    dev.timelake.rollup.RollupFilter filter = rollup.filter();
    return new RenderSpec(alias, filter.keyTerms(), filter.rowTerms(), cells);
  }

  /** The grouping columns the rollup's WHERE filters on. */
  static Set<String> keyColumns(dev.timelake.rollup.RollupFilter filter, Rollup rollup) {
    Set<String> columns = new java.util.TreeSet<>();
    for (Expression term : filter.keyTerms()) {
      dev.timelake.rollup.RollupFilter.columnOf(term)
          .flatMap(name -> rollup.keys().stream().filter(name::equalsIgnoreCase).findFirst())
          .ifPresent(columns::add);
    }
    return columns;
  }

  /**
   * The rows cast to the rollup's column types, as an append to it would cast them (a sum over raw
   * rows may be a HUGEINT the rollup stores as a BIGINT).
   */
  static String typed(TableContract rollup, String sql) {
    List<String> columns = new ArrayList<>();
    for (Column column : rollup.columns()) {
      if (rollup.ingestTimeColumn().filter(column.name()::equals).isPresent()) {
        continue; // an append fills it
      }
      String name = SqlText.identifier(column.name());
      columns.add("CAST(" + name + " AS " + column.type().sql() + ") AS " + name);
    }
    return "SELECT " + String.join(", ", columns) + " FROM (" + sql + ") AS __tl_window";
  }

  /** Settings of a read that removes copies whatever the table's read-dedup says. */
  static SessionSettings alwaysDeduplicated() {
    SessionSettings settings = new SessionSettings();
    settings.set("read-dedup", "true");
    return settings;
  }

  /** The distinct calls of the rollup's stored aggregates, in order. */
  static List<AggregateCall> calls(Rollup rollup) {
    List<AggregateCall> calls = new ArrayList<>();
    for (StoredAggregate aggregate : rollup.aggregates()) {
      if (!calls.contains(aggregate.call())) {
        calls.add(aggregate.call());
      }
    }
    return calls;
  }

  /** The rollup's columns from the rendered route. */
  static PlainSelect rows(Rollup rollup, RoutePlan route, RenderedRoute rendered) {
    PlainSelect rows = new PlainSelect();
    ParenthesedSelect from = new ParenthesedSelect();
    from.setSelect(rendered.relation());
    from.setAlias(new Alias(ROUTED, true));
    rows.setFromItem(from);
    for (String key : rollup.keys()) {
      rows.addSelectItems(SyntaxTrees.item(SyntaxTrees.column(ROUTED, key), key));
    }
    rows.addSelectItems(
        SyntaxTrees.item(SyntaxTrees.column(ROUTED, RouteRenderer.BUCKET), rollup.bucketColumn()));
    List<AggregateCall> calls = route.shape().aggregates();
    for (StoredAggregate aggregate : rollup.aggregates()) {
      Expression value =
          SyntaxTrees.column(ROUTED, RouteRenderer.aggregate(calls.indexOf(aggregate.call())));
      rows.addSelectItems(SyntaxTrees.item(value, aggregate.name()));
    }
    return rows;
  }
}
