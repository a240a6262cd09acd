package dev.timelake.refresh;

import dev.timelake.AppendResult;
import dev.timelake.QueryFailedException;
import dev.timelake.RefreshReport;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.QueryRewriter;
import dev.timelake.rollup.Rollup;
import dev.timelake.route.Cells;
import dev.timelake.route.QueryShape;
import dev.timelake.route.RenderedRoute;
import dev.timelake.route.RouteCandidates;
import dev.timelake.route.RouteDecision;
import dev.timelake.route.RoutePlan;
import dev.timelake.route.RoutePlanner;
import dev.timelake.route.RouteRenderer;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.time.BucketGrid;
import dev.timelake.write.AppendSource;
import dev.timelake.write.PendingAppend;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Carries out a {@link RefreshPlan}: empties the rollup first for a rebuild, then recomputes each
 * window — routed to the raw table's other rollups at their pinned snapshots, limited to the
 * window's changed cells — and appends it. Each window is one commit; only the last records the raw
 * snapshot the plan reflects. Not thread-safe.
 */
final class RefreshRunner {
  private static final String ALIAS = "__tl_raw";

  /** The temporary table holding a window's changed cells. */
  private static final String CELLS = "__tl_refresh_cells";

  /** The temporary table of one window's rows while they are committed. */
  private static final String WINDOW_ROWS = "__tl_refresh_window";

  /** The temporary table holding the cells a window removes before it appends. */
  private static final String REMOVED = "__tl_refresh_removed";

  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final Consumer<String> progress;

  RefreshRunner(LakeCatalog catalog, EngineConnection connection, Consumer<String> progress) {
    this.catalog = catalog;
    this.connection = connection;
    this.progress = progress;
  }

  /**
   * Runs {@code plan} for {@code rollup}; {@code raw} is pinned at the plan's snapshot and {@code
   * sources} are the raw table's other rollups, pinned, that windows may be computed from.
   */
  RefreshReport run(
      RefreshPlan plan, Rollup rollup, PinnedTable raw, List<Rollup> sources, Instant now) {
    return run(
        plan,
        rollup,
        raw,
        sources,
        (index, route, record, pendingRecord) ->
            withWindowRows(
                rollup,
                raw,
                sources,
                route,
                plan.windows().get(index),
                (sql, cells) ->
                    appendRows(
                        rollup,
                        sql,
                        record,
                        pendingRecord,
                        now,
                        cells,
                        "window " + (index + 1) + " of " + plan.windows().size())));
  }

  /**
   * Like {@link #run(RefreshPlan, Rollup, PinnedTable, List, Instant)}, with each window's rows
   * already computed (by {@link #writeWindow}, here or in another process) into the Parquet files
   * at {@code staged}, one per window in order.
   */
  RefreshReport runStaged(
      RefreshPlan plan,
      Rollup rollup,
      PinnedTable raw,
      List<Rollup> sources,
      Instant now,
      List<String> staged) {
    LakeFileIO io = catalog.require(rollup.name()).files();
    return run(
        plan,
        rollup,
        raw,
        sources,
        (index, route, record, pendingRecord) ->
            appendRows(
                rollup,
                "SELECT * FROM read_parquet("
                    + dev.timelake.engine.SqlText.literal(io.localPath(staged.get(index)))
                    + ")",
                record,
                pendingRecord,
                now,
                Optional.empty(),
                "window " + (index + 1) + " of " + plan.windows().size()));
  }

  /**
   * Computes window {@code index} of the plan into a Parquet file at {@code location} (the rows an
   * embedded refresh would append), committing nothing.
   */
  void writeWindow(
      RefreshPlan plan,
      Rollup rollup,
      PinnedTable raw,
      List<Rollup> sources,
      int index,
      String location) {
    RoutePlan route = route(plan.windows().get(index), rollup, raw, sources);
    LoadedTable target = catalog.require(rollup.name());
    LakeFileIO io = target.files();
    withWindowRows(
        rollup,
        raw,
        sources,
        route,
        plan.windows().get(index),
        (sql, cells) -> {
          io.write(
              location,
              path ->
                  connection.execute(
                      "COPY ("
                          + RawOnlyRows.typed(target.contract(), sql)
                          + ") TO "
                          + dev.timelake.engine.SqlText.literal(path)
                          + " (FORMAT parquet)"));
          return null;
        });
  }

  /** Appends one window's rows to the rollup, with the record its commit carries. */
  private interface WindowAppend {
    /**
     * Appends window {@code index}'s rows; its last commit carries {@code record}, any commit
     * before it {@code pendingRecord}.
     */
    AppendResult append(
        int index, RoutePlan route, Map<String, String> record, Map<String, String> pendingRecord);
  }

  private RefreshReport run(
      RefreshPlan plan,
      Rollup rollup,
      PinnedTable raw,
      List<Rollup> sources,
      WindowAppend windowAppend) {
    long started = System.nanoTime();
    List<String> explanation = new ArrayList<>(plan.explanation());
    if (plan.rebuild()) {
      RefreshCommitter.clear(catalog.require(rollup.name()));
    }
    Map<String, String> record =
        record(plan.rawSnapshotId(), plan.rawSequence(), plan.lagFromMicros());
    Map<String, String> oldRecord =
        new java.util.HashMap<>(
            record(
                plan.recordedSnapshotId(),
                plan.recordedSequence(),
                plan.rebuild() ? Long.MAX_VALUE : rollup.lagFrom()));
    // Until the last window commits, rows newer than the record are in the rollup: a rollback past
    // the snapshot they reflect must be noticed too.
    oldRecord.put(SnapshotSummaries.ROLLUP_SOURCE_PENDING, Long.toString(plan.rawSnapshotId()));
    long rows = 0;
    boolean recorded = false;
    List<RefreshWindow> windows = plan.windows();
    for (int i = 0; i < windows.size(); i++) {
      boolean last = i == windows.size() - 1;
      progress.accept(
          "refreshing " + rollup.name() + " window " + (i + 1) + " of " + windows.size());
      RoutePlan route = route(windows.get(i), rollup, raw, sources);
      String window = "window " + (i + 1) + ": ";
      route.explanation().forEach(line -> explanation.add(window + line));
      AppendResult result;
      try {
        long removed = removeDeletedCells(rollup, raw, windows.get(i), oldRecord);
        if (removed > 0) {
          explanation.add(window + "removed " + removed + " cells whose raw rows were deleted");
        }
        long emptied = emptyFilteredWindow(rollup, windows.get(i), oldRecord);
        if (emptied > 0) {
          explanation.add(
              window
                  + "removed its "
                  + emptied
                  + " rows first: a filtered rollup's cell may be"
                  + " left without rows");
        }
        result = windowAppend.append(i, route, last ? record : oldRecord, oldRecord);
      } catch (QueryFailedException e) {
        throw new QueryFailedException(
            "Cannot refresh rollup "
                + rollup.name()
                + " (window "
                + (i + 1)
                + " of "
                + windows.size()
                + ", the old record stays): "
                + e.getMessage(),
            e);
      }
      rows += result.rows();
      recorded = last && result.outcome() == AppendResult.Outcome.COMMITTED;
    }
    if (!recorded
        && (plan.rebuild()
            || rollup.sourceSnapshot() != plan.rawSnapshotId()
            || rollup.lagFrom() != plan.lagFromMicros())) {
      RefreshCommitter.recordOnly(catalog.require(rollup.name()), record);
    }
    return new RefreshReport(
        rollup.name(),
        rows,
        windows.size(),
        plan.rebuild(),
        plan.rawSnapshotId(),
        Duration.ofNanos(System.nanoTime() - started),
        explanation);
  }

  /** The record of a raw snapshot, with the first bucket left to raw data for the lag, if any. */
  private static Map<String, String> record(long snapshot, long sequence, long lagFrom) {
    Map<String, String> record = new java.util.HashMap<>();
    record.put(SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT, Long.toString(snapshot));
    record.put(SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE, Long.toString(sequence));
    if (lagFrom != Long.MAX_VALUE) {
      record.put(SnapshotSummaries.ROLLUP_LAG_FROM, Long.toString(lagFrom));
    }
    return Map.copyOf(record);
  }

  /**
   * The window's query — the rollup's definition over the window's buckets, its WHERE included —
   * routed to the other rollups where they answer it.
   */
  private RoutePlan route(
      RefreshWindow window, Rollup rollup, PinnedTable raw, List<Rollup> sources) {
    RouteCandidates weighed = new RouteCandidates(raw);
    List<dev.timelake.route.RouteCandidate> candidates = weighed.of(sources);
    dev.timelake.rollup.RollupFilter filter = rollup.filter();
    QueryShape shape =
        new QueryShape(
            raw.name(),
            rollup.keys(),
            Optional.of(rollup.grid()),
            RawOnlyRows.calls(rollup),
            window.buckets(),
            RawOnlyRows.keyColumns(filter, rollup),
            Optional.of(rollup.name()),
            filter.rowTexts(),
            dev.timelake.rollup.RollupFilter.implied(
                filter.terms(),
                candidates.stream().map(dev.timelake.route.RouteCandidate::filter).toList(),
                raw.contract(),
                new dev.timelake.engine.ConstantEvaluator(connection)));
    RouteDecision decision = RoutePlanner.plan(shape, weighed.facts(), candidates);
    RoutePlan plan =
        decision
            .plan()
            .orElseGet(() -> RoutePlanner.rawOnly(shape, weighed.facts(), decision.explanation()));
    if (plan.parts().isEmpty() && plan.rawIntervals().isEmpty()) {
      // The raw table has no rows left in the window (a DELETE emptied it): its query reads the
      // raw table there all the same, finds nothing, and the window gives no row.
      return new RoutePlan(
          shape, plan.rawSnapshotId(), List.of(), window.buckets(), false, plan.considered());
    }
    return plan;
  }

  /**
   * What is done with a window's rows: {@code sql} computes them; {@code cells}, when the window
   * recomputes only changed cells, is how many rows they must give.
   */
  private interface WindowRows<T> {
    T use(String sql, Optional<CellCount> cells);
  }

  /**
   * The rows a window of changed cells must give: one per cell a changed file holds, and at most
   * one more per cell only deleted rows were in (it gives none when they were its last).
   */
  private record CellCount(long least, long most) {
    boolean admits(long rows) {
      return rows >= least && rows <= most;
    }

    @Override
    public String toString() {
      return least == most ? Long.toString(least) : least + " to " + most;
    }
  }

  /**
   * Gives {@code use} the SQL of the window's rows, routed and limited to its changed cells; the
   * cells' temporary table lives while {@code use} runs.
   */
  private <T> T withWindowRows(
      Rollup rollup,
      PinnedTable raw,
      List<Rollup> sources,
      RoutePlan route,
      RefreshWindow window,
      WindowRows<T> use) {
    String time = raw.contract().timeColumn().orElseThrow();
    Optional<CellCount> counted = Optional.empty();
    Optional<Cells> cells = Optional.empty();
    if (window.cellsFrom().isPresent()) {
      counted = Optional.of(cells(window, rollup, time, raw.table().files()));
      cells = Optional.of(listed(rollup, CELLS));
    }
    try {
      RenderedRoute rendered =
          RouteRenderer.render(route, raw.contract(), RawOnlyRows.spec(ALIAS, rollup, cells));
      PinnedTables tables = new PinnedTables(catalog).pin(raw);
      sources.forEach(source -> tables.pin(source.table()));
      QueryRewriter rewriter =
          new QueryRewriter(catalog, tables, connection, RawOnlyRows.alwaysDeduplicated());
      // The cells are a filter on key columns: applied to every raw file before copies are
      // removed, so the dedup of the window's data only handles the changed cells' rows.
      if (cells.isPresent() && rendered.rawTable().isPresent()) {
        rewriter.pushDown(rendered.rawTable().get(), cellFilter(cells.get(), rollup, time));
      }
      return use.use(rewriter.rewrite(RawOnlyRows.rows(rollup, route, rendered)), counted);
    } finally {
      if (cells.isPresent()) {
        connection.execute("DROP TABLE IF EXISTS temp." + CELLS);
      }
    }
  }

  /** Cells of the temporary table {@code cells} whose bucket lies in {@code buckets}. */
  private long cellsIn(String cells, dev.timelake.time.IntervalSet buckets) {
    return ((Number)
            connection.scalar(
                "SELECT count(*) FROM temp." + cells + " WHERE " + inBuckets(buckets)))
        .longValue();
  }

  /** A condition on a cells table: the cell's bucket lies in {@code buckets}. */
  private static String inBuckets(dev.timelake.time.IntervalSet buckets) {
    List<String> ranges = new ArrayList<>();
    for (dev.timelake.time.TimeInterval interval : buckets.intervals()) {
      List<String> bounds = new ArrayList<>();
      if (interval.start() != Long.MIN_VALUE) {
        bounds.add(Cells.BUCKET + " >= " + interval.start());
      }
      if (interval.end() != Long.MAX_VALUE) {
        bounds.add(Cells.BUCKET + " < " + interval.end());
      }
      ranges.add(bounds.isEmpty() ? "true" : "(" + String.join(" AND ", bounds) + ")");
    }
    return ranges.isEmpty() ? "false" : String.join(" OR ", ranges);
  }

  /**
   * Appends the rows of {@code sql} to the rollup, the commit carrying {@code record}; when the
   * window's changed {@code cells} are counted, refuses to commit unless there is one row for each.
   */
  private AppendResult appendRows(
      Rollup rollup,
      String sql,
      Map<String, String> record,
      Map<String, String> pendingRecord,
      Instant now,
      Optional<CellCount> cells,
      String window) {
    connection.execute("CREATE OR REPLACE TEMPORARY TABLE " + WINDOW_ROWS + " AS " + sql);
    try {
      long rows =
          ((Number) connection.scalar("SELECT count(*) FROM temp." + WINDOW_ROWS)).longValue();
      checkCells(rollup, cells, rows, window);
      // About a million rows a commit (seed 000; timelake.rollup-refresh-commit-rows), so a
      // 1-minute rollup of thousands of series never writes tens of millions in one.
      long perCommit =
          Math.max(
              1,
              Long.parseLong(
                  rollup
                      .contract()
                      .setting(dev.timelake.table.Settings.ROLLUP_REFRESH_COMMIT_ROWS)
                      .orElse("1000000")));
      List<Long> splits = rows > perCommit ? splits(rollup, perCommit) : List.of();
      AppendResult result = null;
      for (int i = 0; i <= splits.size(); i++) {
        long from = i == 0 ? Long.MIN_VALUE : splits.get(i - 1);
        long to = i == splits.size() ? Long.MAX_VALUE : splits.get(i);
        // Every commit but the window's last keeps the record the last one replaces.
        Map<String, String> carried = i == splits.size() ? record : pendingRecord;
        result = commitRows(rollup, bucketsBetween(rollup, from, to), carried, now);
      }
      return splits.isEmpty()
          ? result
          : new AppendResult(
              rows,
              0,
              0,
              result.files(),
              result.snapshotId(),
              result.outcome(),
              Optional.empty(),
              Optional.empty());
    } finally {
      connection.execute("DROP TABLE IF EXISTS temp." + WINDOW_ROWS);
    }
  }

  /**
   * The bucket starts (µs) that cut the window's rows into commits of about {@code perCommit} rows
   * each: the bucket of every {@code perCommit}-th row in bucket order, so a cell is never split.
   */
  private List<Long> splits(Rollup rollup, long perCommit) {
    String bucket = SqlText.identifier(rollup.bucketColumn());
    List<Long> splits = new ArrayList<>();
    for (List<Object> row :
        connection.rows(
            "SELECT DISTINCT epoch_us("
                + bucket
                + ") AS b FROM (SELECT "
                + bucket
                + ", row_number() OVER (ORDER BY "
                + bucket
                + ") AS n FROM temp."
                + WINDOW_ROWS
                + ") WHERE n > 1 AND n % "
                + perCommit
                + " = 1 ORDER BY b")) {
      splits.add(((Number) row.get(0)).longValue());
    }
    return splits;
  }

  private static String bucketsBetween(Rollup rollup, long from, long to) {
    String bucket = "epoch_us(" + SqlText.identifier(rollup.bucketColumn()) + ")";
    List<String> bounds = new ArrayList<>();
    if (from != Long.MIN_VALUE) {
      bounds.add(bucket + " >= " + from);
    }
    if (to != Long.MAX_VALUE) {
      bounds.add(bucket + " < " + to);
    }
    return "SELECT * FROM temp."
        + WINDOW_ROWS
        + (bounds.isEmpty() ? "" : " WHERE " + String.join(" AND ", bounds));
  }

  private AppendResult commitRows(
      Rollup rollup, String sql, Map<String, String> record, Instant now) {
    LoadedTable target = catalog.require(rollup.name());
    try (PendingAppend pending = new PendingAppend(target, connection)) {
      pending.add(new AppendSource.Query(sql, AppendSource.Casting.INTERNAL), now);
      return pending.commit("rollup-refresh", Optional.empty(), record, progress);
    }
  }

  private static void checkCells(
      Rollup rollup, Optional<CellCount> cells, long rows, String window) {
    if (cells.isPresent() && !cells.get().admits(rows)) {
      throw new dev.timelake.CommitFailedException(
          String.format(
              "Cannot commit the refresh of rollup %s (%s): the raw data changed cells of the"
                  + " window that must give %s rows but the refresh computed %d;"
                  + " nothing of the window was committed and the rollup keeps its record, so"
                  + " queries read raw data where it is behind. This is a bug in Timelake:"
                  + " please report it with the rollup's and %s's snapshot history",
              rollup.name(), window, cells.get(), rows, rollup.source()));
    }
  }

  /**
   * The window's (keys…, bucket) cells — those its changed files hold, and those rows DELETEs
   * removed were in — kept in a temporary table of the connection for the window: every part of the
   * window's query, and every raw file read, is limited to them.
   */
  private CellCount cells(RefreshWindow window, Rollup rollup, String time, LakeFileIO io) {
    List<String> changed =
        window.cellsFrom().orElseThrow().stream().map(PlannedFile::location).toList();
    List<String> deleted = deletedRowFiles(window);
    long least = 0;
    if (changed.isEmpty()) {
      createCells(CELLS, io.localPaths(deleted), rollup, time);
    } else {
      createCells(CELLS, io.localPaths(changed), rollup, time);
      dev.timelake.rollup.RollupFilter filter = rollup.filter();
      if (!filter.keyTerms().isEmpty()) {
        // Cells of series outside the rollup's WHERE give no row.
        connection.execute(
            "DELETE FROM temp."
                + CELLS
                + " WHERE NOT ("
                + SyntaxTrees.and(filter.keyTerms())
                + ")");
      }
      least = cellsIn(CELLS, window.buckets());
      if (!deleted.isEmpty()) {
        connection.execute(
            "INSERT INTO temp."
                + CELLS
                + " "
                + cellsOf(io.localPaths(deleted), rollup, time)
                + " EXCEPT SELECT * FROM temp."
                + CELLS);
      }
    }
    return new CellCount(least, cellsIn(CELLS, window.buckets()));
  }

  /** The files of the rows the window's DELETEs removed. */
  private static List<String> deletedRowFiles(RefreshWindow window) {
    return window.deleted().stream().map(rows -> rows.file().orElseThrow()).distinct().toList();
  }

  /** Creates the temporary table {@code name} of the distinct cells the files' rows are in. */
  private void createCells(String name, List<String> paths, Rollup rollup, String time) {
    connection.execute(
        "CREATE OR REPLACE TEMPORARY TABLE " + name + " AS " + cellsOf(paths, rollup, time));
  }

  /** The distinct (keys…, bucket) cells of the rows of the Parquet files at {@code paths}. */
  private static PlainSelect cellsOf(List<String> paths, Rollup rollup, String time) {
    BucketGrid grid = rollup.grid();
    PlainSelect select = new PlainSelect();
    select.setDistinct(new Distinct());
    for (String key : rollup.keys()) {
      select.addSelectItems(SyntaxTrees.item(SyntaxTrees.column(key), key));
    }
    select.addSelectItems(
        SyntaxTrees.item(
            SyntaxTrees.bucketStartMicros(
                SyntaxTrees.call("epoch_us", SyntaxTrees.column(time)), grid),
            Cells.BUCKET));
    select.setFromItem(SyntaxTrees.readParquet(paths));
    return select;
  }

  /** The cells of the temporary table {@code name}. */
  private static Cells listed(Rollup rollup, String name) {
    PlainSelect listed = new PlainSelect();
    for (String key : rollup.keys()) {
      listed.addSelectItems(SyntaxTrees.item(SyntaxTrees.column(key), key));
    }
    listed.addSelectItems(SyntaxTrees.item(SyntaxTrees.column(Cells.BUCKET), Cells.BUCKET));
    listed.setFromItem(new net.sf.jsqlparser.schema.Table("temp", name));
    return new Cells(rollup.keys(), listed);
  }

  /**
   * Removes from the rollup, copy-on-write, its rows of the window's cells that rows DELETEs
   * removed were in (every copy), committed with {@code record}: the window's rows appended next
   * put back those that still have raw rows, so one left without disappears. Returns how many cells
   * were removed.
   */
  private long removeDeletedCells(
      Rollup rollup, PinnedTable raw, RefreshWindow window, Map<String, String> record) {
    if (window.deleted().isEmpty()) {
      return 0;
    }
    LoadedTable target = catalog.require(rollup.name());
    PinnedTable pinned = PinnedTable.current(target);
    List<PlannedFile> stored = dev.timelake.read.ScanPlanner.liveFiles(pinned);
    if (stored.isEmpty()) {
      return 0;
    }
    String time = raw.contract().timeColumn().orElseThrow();
    LakeFileIO io = raw.table().files();
    createCells(REMOVED, io.localPaths(deletedRowFiles(window)), rollup, time);
    try {
      List<String> same = new ArrayList<>();
      for (String key : rollup.keys()) {
        String column = dev.timelake.engine.SqlText.identifier(key);
        same.add("__tl_row." + column + " IS NOT DISTINCT FROM __tl_cell." + column);
      }
      same.add(
          "epoch_us(__tl_row."
              + dev.timelake.engine.SqlText.identifier(rollup.bucketColumn())
              + ") = __tl_cell."
              + Cells.BUCKET);
      String rows =
          "SELECT __tl_row.* FROM "
              + dev.timelake.read.ScanSql.readParquet(target.contract(), stored, target.files())
              + " AS __tl_row SEMI JOIN (SELECT * FROM temp."
              + REMOVED
              + " WHERE "
              + inBuckets(window.buckets())
              + ") AS __tl_cell ON "
              + String.join(" AND ", same);
      return new dev.timelake.write.RowDeletion(target, connection)
          .delete(rows, pinned, List.of(), record)
          .rows();
    } finally {
      connection.execute("DROP TABLE IF EXISTS temp." + REMOVED);
    }
  }

  /**
   * Removes a rollup's rows in the window's buckets when its WHERE filters on a column it does not
   * hold: a newer copy of a raw row may have left the filter, and its cell then gives no row to
   * replace the stored one. Returns the rows removed.
   */
  private long emptyFilteredWindow(
      Rollup rollup, RefreshWindow window, Map<String, String> record) {
    if (rollup.filter().rowTerms().isEmpty()) {
      return 0;
    }
    LoadedTable target = catalog.require(rollup.name());
    PinnedTable pinned = PinnedTable.current(target);
    List<PlannedFile> stored = dev.timelake.read.ScanPlanner.liveFiles(pinned);
    if (stored.isEmpty()) {
      return 0;
    }
    String rows =
        "SELECT * FROM "
            + dev.timelake.read.ScanSql.readParquet(target.contract(), stored, target.files())
            + " AS __tl_row WHERE "
            + SyntaxTrees.within(
                SyntaxTrees.column("__tl_row", rollup.bucketColumn()), window.buckets());
    return new dev.timelake.write.RowDeletion(target, connection)
        .delete(rows, pinned, List.of(), record)
        .rows();
  }

  /** The cells as a filter on a raw file's own (unqualified) key and time columns. */
  private static Expression cellFilter(Cells cells, Rollup rollup, String time) {
    List<Expression> keys = new ArrayList<>();
    for (String key : cells.keys()) {
      keys.add(SyntaxTrees.column(key));
    }
    return RouteRenderer.inCells(
        cells, rollup.grid(), keys, SyntaxTrees.call("epoch_us", SyntaxTrees.column(time)));
  }
}
