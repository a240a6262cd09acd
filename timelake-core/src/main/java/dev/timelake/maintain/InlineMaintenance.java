package dev.timelake.maintain;

import dev.timelake.MaintenanceReport;
import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupRefresher;
import dev.timelake.rollup.RollupStore;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;

/**
 * Maintenance after an append, when the table's thresholds are crossed. It runs on the newest table
 * state; its failure is reported to the caller and never undoes the append.
 */
public final class InlineMaintenance {
  private InlineMaintenance() {}

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
   * Refreshes each rollup of {@code raw} whose last refresh is older than its {@code
   * rollup-refresh-interval} ({@code off}: never inline), so a busy table does not commit to its
   * rollups on every append.
   */
  static void refreshDueRollups(
      LakeCatalog catalog,
      LoadedTable raw,
      EngineConnection connection,
      Instant now,
      Consumer<String> progress) {
    for (Rollup rollup : RollupStore.rollupsOf(catalog, raw)) {
      String interval =
          rollup.table().contract().setting(Settings.ROLLUP_REFRESH_INTERVAL).orElse("1m");
      if (interval.equals("off")) {
        continue;
      }
      Snapshot last = rollup.table().iceberg().currentSnapshot();
      long dueAt =
          last == null
              ? Long.MIN_VALUE
              : last.timestampMillis() + Durations.parse(interval).toMillis();
      if (now.toEpochMilli() >= dueAt) {
        new RollupRefresher(catalog, connection, progress).refresh(rollup, now);
        maintainRollup(catalog, rollup, connection, now, progress);
      }
    }
  }

  /** A rollup's own inline maintenance after a refresh appended to it. */
  private static void maintainRollup(
      LakeCatalog catalog,
      Rollup rollup,
      EngineConnection connection,
      Instant now,
      Consumer<String> progress) {
    LoadedTable table = catalog.require(rollup.name());
    MaintenancePlan plan =
        MaintenancePlanner.plan(
            table,
            new MaintenanceOptions(
                MaintenanceMode.INLINE, now, java.util.Set.of(), Map.of(), Map.of()));
    if (!plan.isEmpty()) {
      new MaintenanceRunner(table, connection, progress).run(plan, now);
    }
  }

  /** Refreshes every rollup of {@code raw} now (maintain and REFRESH always refresh). */
  public static void refreshAllRollups(
      LakeCatalog catalog,
      LoadedTable raw,
      EngineConnection connection,
      Instant now,
      Consumer<String> progress) {
    for (Rollup rollup : RollupStore.rollupsOf(catalog, raw)) {
      new RollupRefresher(catalog, connection, progress).refresh(rollup, now);
    }
  }
}
