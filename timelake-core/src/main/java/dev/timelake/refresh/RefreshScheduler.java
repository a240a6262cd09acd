package dev.timelake.refresh;

import dev.timelake.RefreshReport;
import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupDefinition;
import dev.timelake.rollup.RollupStore;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.iceberg.Snapshot;

/**
 * Refreshes rollups: one on request, or a raw table's rollups narrowest first (each refresh pins
 * the raw table and the other rollups afresh, so a wider rollup is computed from the narrower ones
 * just refreshed). Not thread-safe; concurrent refreshes from several processes are safe (the later
 * commit wins each bucket, and its record names the raw snapshot those rows reflect).
 */
public final class RefreshScheduler {
  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final Consumer<String> progress;

  public RefreshScheduler(
      LakeCatalog catalog, EngineConnection connection, Consumer<String> progress) {
    this.catalog = catalog;
    this.connection = connection;
    this.progress = progress;
  }

  /**
   * Creates the rollup {@code definition} describes and fills it with its first refresh, computed
   * from the raw table's other rollups where they are up to date. If the refresh fails, the new
   * rollup is dropped again.
   */
  public RefreshReport create(RollupDefinition definition, Instant now) {
    RollupStore.create(catalog, definition);
    try {
      return refresh(definition.name(), now);
    } catch (RuntimeException e) {
      try {
        RollupStore.drop(catalog, definition.name());
      } catch (RuntimeException dropFailure) {
        e.addSuppressed(dropFailure);
      }
      throw e;
    }
  }

  /** What a refresh of {@code rollup} now would do; changes nothing. */
  public RefreshPlan plan(TableName rollup) {
    Rollup pinned = RollupStore.require(catalog, rollup);
    return RefreshPlanner.plan(pinned, PinnedTable.current(catalog.require(pinned.source())));
  }

  /** Refreshes {@code rollup} to the raw table's current snapshot. */
  public RefreshReport refresh(TableName rollup, Instant now) {
    PlannedRefresh planned = planned(rollup);
    return new RefreshRunner(catalog, connection, progress)
        .run(planned.plan(), planned.rollup(), planned.raw(), planned.sources(), now);
  }

  /**
   * What a refresh of {@code rollup} to the raw table's current snapshot reads and does: the
   * rollup, the raw table and the other rollups pinned now, and the plan.
   */
  public PlannedRefresh planned(TableName rollup) {
    Rollup pinned = RollupStore.require(catalog, rollup);
    LoadedTable raw = catalog.require(pinned.source());
    // Sources first: a source pinned after the raw table could reflect rows newer than the raw
    // snapshot this refresh records.
    List<Rollup> sources = new ArrayList<>();
    for (Rollup other : RollupStore.rollupsOf(catalog, raw)) {
      if (!other.name().equals(rollup)) {
        sources.add(other);
      }
    }
    PinnedTable rawPinned = PinnedTable.current(catalog.require(pinned.source()));
    return new PlannedRefresh(RefreshPlanner.plan(pinned, rawPinned), pinned, rawPinned, sources);
  }

  /**
   * The same refresh planned again from the snapshots {@link #planned} pinned ({@code -1}: a table
   * without commits), in another process: planning is a function of them, so the windows are the
   * same.
   */
  public PlannedRefresh replanned(
      TableName rollup, long rollupSnapshot, long rawSnapshot, Map<TableName, Long> sources) {
    Rollup pinned = rollupAt(rollup, rollupSnapshot);
    PinnedTable raw = PinnedTable.atOrEmpty(catalog.require(pinned.source()), rawSnapshot);
    List<Rollup> others = new ArrayList<>();
    sources.forEach((name, snapshot) -> others.add(rollupAt(name, snapshot)));
    return new PlannedRefresh(RefreshPlanner.plan(pinned, raw), pinned, raw, others);
  }

  private Rollup rollupAt(TableName name, long snapshot) {
    return Rollup.of(PinnedTable.atOrEmpty(catalog.require(name), snapshot))
        .orElseThrow(() -> new IllegalStateException(name + " is no longer a rollup"));
  }

  /** Computes window {@code index} of a planned refresh into a Parquet file at {@code location}. */
  public void writeWindow(PlannedRefresh refresh, int index, String location) {
    new RefreshRunner(catalog, connection, progress)
        .writeWindow(
            refresh.plan(), refresh.rollup(), refresh.raw(), refresh.sources(), index, location);
  }

  /**
   * Commits a planned refresh whose windows' rows were computed into {@code staged} (one Parquet
   * file per window, in order), as {@link #refresh} commits them.
   */
  public RefreshReport commitStaged(PlannedRefresh refresh, List<String> staged, Instant now) {
    return new RefreshRunner(catalog, connection, progress)
        .runStaged(refresh.plan(), refresh.rollup(), refresh.raw(), refresh.sources(), now, staged);
  }

  /** A refresh as planned: the plan and the snapshots it was made from. */
  public record PlannedRefresh(
      RefreshPlan plan, Rollup rollup, PinnedTable raw, List<Rollup> sources) {
    public PlannedRefresh {
      sources = List.copyOf(sources);
    }
  }

  /**
   * Refreshes every rollup of {@code raw}, narrowest first. A rollup whose refresh fails is skipped
   * and the others go on; the first failure is thrown once all were tried.
   */
  public List<RefreshReport> refreshAll(TableName raw, Instant now) {
    return refreshEach(raw, rollup -> true, now);
  }

  /**
   * Refreshes, narrowest first, each rollup of {@code raw} whose last refresh is older than its
   * {@code rollup-refresh-interval} ({@code off}: never), so a busy table does not commit to its
   * rollups on every append.
   */
  public List<RefreshReport> refreshDue(TableName raw, Instant now) {
    return refreshEach(raw, rollup -> isDue(rollup, now), now);
  }

  private List<RefreshReport> refreshEach(TableName raw, Predicate<Rollup> due, Instant now) {
    List<Rollup> rollups = new ArrayList<>(RollupStore.rollupsOf(catalog, catalog.require(raw)));
    rollups.sort(
        Comparator.comparingLong((Rollup r) -> r.grid().longestMicros())
            .thenComparing(r -> r.name().toString()));
    List<RefreshReport> reports = new ArrayList<>();
    RuntimeException failure = null;
    for (Rollup rollup : rollups) {
      if (due.test(rollup)) {
        // One rollup's failure must not keep the others stale; the first is thrown at the end.
        try {
          reports.add(refresh(rollup.name(), now));
        } catch (RuntimeException e) {
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return reports;
  }

  private static boolean isDue(Rollup rollup, Instant now) {
    String interval = rollup.contract().setting(Settings.ROLLUP_REFRESH_INTERVAL).orElse("1m");
    if (interval.equals("off")) {
      return false;
    }
    Snapshot last = rollup.table().snapshot().orElse(null);
    return last == null
        || now.toEpochMilli() >= last.timestampMillis() + Durations.parse(interval).toMillis();
  }
}
