package dev.timelake.maintain;

import dev.timelake.MaintenanceReport;
import dev.timelake.RefreshReport;
import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.refresh.RefreshScheduler;
import dev.timelake.table.Settings;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Maintenance after an append, when the table's thresholds are crossed. It runs on the newest table
 * state; its failure is reported to the caller and never undoes the append.
 */
public final class InlineMaintenance {
  private InlineMaintenance() {}

  private static final System.Logger LOG = System.getLogger(InlineMaintenance.class.getName());

  /**
   * The result of a write with the inline maintenance that follows its commit (see {@link
   * #afterAppend}): a write that did not commit is returned as it is; a maintenance failure never
   * undoes the write — it is logged and kept in the result with its exception.
   */
  public static dev.timelake.AppendResult afterCommit(
      dev.timelake.AppendResult result,
      LakeCatalog catalog,
      TableName name,
      EngineConnection connection,
      Set<Integer> touchedPartitions,
      Map<String, String> overrides,
      Instant now,
      Consumer<String> progress) {
    if (result.outcome() != dev.timelake.AppendResult.Outcome.COMMITTED) {
      return result;
    }
    try {
      return result.withMaintenance(
          afterAppend(catalog, name, connection, touchedPartitions, overrides, now, progress),
          Optional.empty());
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Inline maintenance of " + name + " failed after a committed write (the write stands)",
          e);
      return result.withMaintenance(Optional.empty(), Optional.of(e));
    }
  }

  /**
   * Runs inline maintenance of {@code name} if {@code auto-maintain} is on (the call's override
   * wins over the table's value). Returns the report, or empty when nothing was due.
   */
  public static Optional<MaintenanceReport> afterAppend(
      LakeCatalog catalog,
      TableName name,
      EngineConnection connection,
      Set<Integer> touchedPartitions,
      Map<String, String> overrides,
      Instant now,
      Consumer<String> progress) {
    LoadedTable table = catalog.require(name);
    String auto =
        overrides.getOrDefault(
            Settings.AUTO_MAINTAIN.name(),
            table.contract().setting(Settings.AUTO_MAINTAIN).orElse("true"));
    if (!Boolean.parseBoolean(auto)) {
      return Optional.empty();
    }
    MaintenanceOptions options =
        new MaintenanceOptions(
            MaintenanceMode.INLINE, now, touchedPartitions, catalog.heat().of(name), overrides);
    MaintenancePlan plan = MaintenancePlanner.plan(table, options);
    Optional<MaintenanceReport> report =
        plan.isEmpty()
            ? Optional.empty()
            : Optional.of(new MaintenanceRunner(table, connection, progress).run(plan, now));
    refreshDueRollups(catalog, catalog.require(name), connection, now, progress);
    return report;
  }

  /**
   * Refreshes the rollups of {@code raw} that are due (narrowest first), then runs each refreshed
   * rollup's own inline maintenance, since the refresh appended to it.
   */
  static void refreshDueRollups(
      LakeCatalog catalog,
      LoadedTable raw,
      EngineConnection connection,
      Instant now,
      Consumer<String> progress) {
    for (RefreshReport refreshed :
        new RefreshScheduler(catalog, connection, progress).refreshDue(raw.name(), now)) {
      maintainRollup(catalog, refreshed.rollup(), connection, now, progress);
    }
  }

  /**
   * A rollup's own inline maintenance after a refresh or its creation appended to it, when its
   * {@code auto-maintain} is on: a refresh writes a file per window, which a routed query would
   * otherwise bind one by one. A failure is logged and never undoes the refresh.
   */
  public static void afterRefresh(
      LakeCatalog catalog,
      TableName rollup,
      EngineConnection connection,
      Instant now,
      Consumer<String> progress) {
    try {
      if (Boolean.parseBoolean(
          catalog.require(rollup).contract().setting(Settings.AUTO_MAINTAIN).orElse("true"))) {
        maintainRollup(catalog, rollup, connection, now, progress);
      }
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Inline maintenance of rollup "
              + rollup
              + " failed after its refresh (the refresh stands)",
          e);
    }
  }

  /** A rollup's own inline maintenance after a refresh appended to it. */
  private static void maintainRollup(
      LakeCatalog catalog,
      TableName rollup,
      EngineConnection connection,
      Instant now,
      Consumer<String> progress) {
    LoadedTable table = catalog.require(rollup);
    MaintenancePlan plan =
        MaintenancePlanner.plan(
            table,
            new MaintenanceOptions(MaintenanceMode.INLINE, now, Set.of(), Map.of(), Map.of()));
    if (!plan.isEmpty()) {
      new MaintenanceRunner(table, connection, progress).run(plan, now);
    }
  }
}
