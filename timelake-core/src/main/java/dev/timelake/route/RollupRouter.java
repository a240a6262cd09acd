package dev.timelake.route;

import dev.timelake.TableName;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.read.TableReferences;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupStore;
import dev.timelake.rollup.UnsupportedPart;
import dev.timelake.table.SessionSettings;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Answers the SELECTs of a statement from rollups where they can: each SELECT over one raw table
 * with rollups is taken apart ({@link SelectAnalyzer}), planned over the tables pinned for the
 * statement ({@link RoutePlanner}), rendered ({@link RouteRenderer}) and rewritten in place ({@link
 * SelectRewriter}). A SELECT that cannot be routed is left as it is, with the reason.
 */
public final class RollupRouter {
  private final PinnedTables tables;
  private final SessionSettings settings;
  private final ConstantEvaluator constants;
  private final EngineConnection connection;
  private java.util.function.Function<dev.timelake.TableName, List<dev.timelake.read.PlannedFile>>
      heldRows = name -> List.of();

  public RollupRouter(
      PinnedTables tables,
      SessionSettings settings,
      ConstantEvaluator constants,
      EngineConnection connection) {
    this.tables = tables;
    this.settings = settings;
    this.constants = constants;
    this.connection = connection;
  }

  /**
   * Weighs, for each raw table, the files {@code heldRows} gives beside its committed ones (rows a
   * session's tier holds): the buckets they touch are changed buckets, answered from raw data.
   */
  public RollupRouter withHeldRows(
      java.util.function.Function<dev.timelake.TableName, List<dev.timelake.read.PlannedFile>>
          heldRows) {
    this.heldRows = heldRows;
    return this;
  }

  /** Routes every SELECT of {@code statement} that rollups answer; one entry per SELECT weighed. */
  public List<SelectRoute> route(Statement statement) {
    List<SelectRoute> routes = new ArrayList<>();
    Set<PlainSelect> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (TableReferences.Reference reference : TableReferences.of(statement)) {
      PlainSelect select = reference.enclosing();
      if (select != null && select.getFromItem() == reference.table() && seen.add(select)) {
        route(select, reference.table()).ifPresent(routes::add);
      }
    }
    return routes;
  }

  private Optional<SelectRoute> route(PlainSelect select, Table from) {
    if (from.getName() == null || from.getNameParts().size() > 2) {
      return Optional.empty();
    }
    TableName name;
    try {
      name = SyntaxNames.tableName(from);
    } catch (dev.timelake.ValidationException e) {
      return Optional.empty();
    }
    Optional<PinnedTable> found = tables.find(name);
    if (found.isEmpty() || !found.get().contract().deduplicates() || found.get().snapshotId() < 0) {
      return Optional.empty();
    }
    PinnedTable raw = found.get();
    if (!RollupStore.listsRollups(raw.contract())) {
      return Optional.empty();
    }
    return Optional.of(new SelectRoute(name, decide(select, raw)));
  }

  /**
   * The session's time zone, in which date_trunc buckets instants (time_bucket without a zone
   * argument buckets them in UTC in any session, DuckDB's rule as TimescaleDB's).
   */
  private java.time.ZoneId sessionZone() {
    try {
      return java.time.ZoneId.of(connection.timeZone());
    } catch (java.time.DateTimeException e) {
      throw new UnsupportedPart(
          "the session's TimeZone " + connection.timeZone() + " is not an IANA zone name");
    }
  }

  /**
   * Whether and how the rollups answer {@code select}. The SELECT is taken apart before the rollups
   * are looked up, so a query no rollup could answer (a point read) costs no lookup.
   */
  private RouteDecision decide(PlainSelect select, PinnedTable raw) {
    TableContract contract = raw.contract();
    if (!settings.isEnabled(Settings.ROLLUP_ROUTING, contract)) {
      return RouteDecision.notRouted("rollup-routing is off", List.of());
    }
    if (!settings.isEnabled(Settings.READ_DEDUP, contract)) {
      return RouteDecision.notRouted(
          "read-dedup is off, and rollups count each reading once", List.of());
    }
    AnalyzedSelect analyzed;
    try {
      analyzed =
          SelectAnalyzer.analyze(
              select, contract, constants, connection.aggregateFunctions(), sessionZone());
    } catch (UnsupportedPart e) {
      return RouteDecision.notRouted(e.getMessage(), List.of());
    }
    List<Rollup> rollups = RollupStore.rollupsOf(tables, contract);
    if (rollups.isEmpty()) {
      return RouteDecision.notRouted(
          "the rollups " + contract.name() + " lists no longer exist", List.of());
    }
    RouteCandidates weighed = new RouteCandidates(raw, heldRows.apply(raw.name()));
    List<RouteCandidate> candidates = weighed.of(rollups);
    List<net.sf.jsqlparser.expression.Expression> terms = new java.util.ArrayList<>();
    terms.addAll(analyzed.keyFilters());
    terms.addAll(analyzed.rowFilters());
    QueryShape shape =
        analyzed
            .shape()
            .withImplied(
                dev.timelake.rollup.RollupFilter.implied(
                    terms,
                    candidates.stream().map(RouteCandidate::filter).toList(),
                    contract,
                    constants));
    RouteDecision decision = RoutePlanner.plan(shape, weighed.facts(), candidates);
    if (decision.plan().isPresent()) {
      List<String> labels =
          OutputLabels.of(select, analyzed.alias(), contract, constants, connection);
      Select route =
          RouteRenderer.render(
                  decision.plan().get(),
                  contract,
                  new RenderSpec(
                      analyzed.alias(),
                      analyzed.keyFilters(),
                      analyzed.rowFilters(),
                      Optional.empty()))
              .relation();
      SelectRewriter.rewrite(select, analyzed, route, labels);
    }
    return decision;
  }
}
