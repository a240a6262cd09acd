package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.maintain.MaintenanceMode;
import dev.timelake.maintain.MaintenanceOptions;
import dev.timelake.maintain.MaintenancePlan;
import dev.timelake.maintain.MaintenancePlanner;
import dev.timelake.maintain.MaintenanceRunner;
import dev.timelake.refresh.RefreshScheduler;
import dev.timelake.table.Level;
import dev.timelake.table.Setting;
import dev.timelake.table.Settings;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Builds a maintenance run of one table: retention, compaction with dedup, snapshot expiry and
 * orphan-file cleanup. {@link #dryRun()} returns the plan without changing anything; {@link #run()}
 * carries it out.
 *
 * <pre>{@code
 * MaintenanceReport report = lake.table("iot.readings").newMaintenance().run();
 * }</pre>
 */
public final class Maintenance {
  private final LakeCatalog catalog;
  private final LoadedTable table;
  private final Map<String, String> callSettings = new LinkedHashMap<>();
  private MaintenanceMode mode = MaintenanceMode.FULL;
  private Clock clock = Clock.systemUTC();
  private Consumer<String> progress = message -> {};

  Maintenance(LakeCatalog catalog, LoadedTable table) {
    this.catalog = catalog;
    this.table = table;
  }

  /** Only what inline maintenance would do after an append (thresholds, size tiers). */
  public Maintenance inlineOnly() {
    this.mode = MaintenanceMode.INLINE;
    return this;
  }

  /** Sets a call-level setting such as {@code compact-min-files}. */
  public Maintenance option(String setting, String value) {
    Map.Entry<Setting, String> checked = Settings.check(setting, value, Level.CALL);
    callSettings.put(checked.getKey().name(), checked.getValue());
    return this;
  }

  /** Uses {@code clock} for retention and expiry cut-offs. */
  public Maintenance clock(Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
    return this;
  }

  /** Receives short progress messages while the run goes. */
  public Maintenance progress(Consumer<String> listener) {
    this.progress = requireNonNull(listener, "listener is null");
    return this;
  }

  /** What a run would do, one line per decision; changes nothing. */
  public List<String> dryRun() {
    return plan(catalog.require(table.name())).explanation();
  }

  /** Runs maintenance and reports what changed. */
  public MaintenanceReport run() {
    LoadedTable current = catalog.require(table.name());
    MaintenancePlan plan = plan(current);
    try (EngineConnection connection = catalog.engine().connect()) {
      MaintenanceReport report =
          new MaintenanceRunner(current, connection, progress).run(plan, clock.instant());
      refreshRollups(connection);
      return report;
    }
  }

  /**
   * Plans a run whose compactions other processes carry out; see {@link DistributedMaintenance}.
   * Nothing changes until its {@code commit}.
   */
  public DistributedMaintenance distribute() {
    LoadedTable current = catalog.require(table.name());
    return new DistributedMaintenance(catalog, current, plan(current), this);
  }

  /** After a full run, the table's rollups are brought up to date. */
  void refreshRollups(EngineConnection connection) {
    if (mode == MaintenanceMode.FULL) {
      new RefreshScheduler(catalog, connection, progress).refreshAll(table.name(), clock.instant());
    }
  }

  Consumer<String> progress() {
    return progress;
  }

  java.time.Instant now() {
    return clock.instant();
  }

  private MaintenancePlan plan(LoadedTable current) {
    return MaintenancePlanner.plan(
        current,
        new MaintenanceOptions(
            mode, clock.instant(), Set.of(), catalog.heat().of(table.name()), callSettings));
  }
}
