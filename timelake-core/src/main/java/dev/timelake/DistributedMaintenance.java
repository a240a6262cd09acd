package dev.timelake;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.maintain.MaintenancePlan;
import dev.timelake.maintain.MaintenanceRunner;
import dev.timelake.maintain.Rewrite;
import dev.timelake.read.PlannedFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A maintenance run whose compactions other processes carry out (Spark executors, say): {@link
 * #tasks()} are handed out, each {@link CompactionTask#run runs} where the lake is open and writes
 * its merged files, and {@link #commit} commits every result in one transaction with retention,
 * keeping each merged run's data sequence number, then expires snapshots, deletes orphan files and
 * refreshes rollups, as {@link Maintenance#run()} does. Appends may go on meanwhile.
 *
 * <pre>{@code
 * DistributedMaintenance maintenance = table.newMaintenance().distribute();
 * List<CompactionResult> results = runEverywhere(maintenance.tasks()); // task.run(lake)
 * MaintenanceReport report = maintenance.commit(results);
 * }</pre>
 *
 * <p>If the commit fails, the written files are deleted and the table is unchanged; files of tasks
 * whose results never arrive are left to orphan cleanup.
 */
public final class DistributedMaintenance {
  private final LakeCatalog catalog;
  private final LoadedTable table;
  private final MaintenancePlan plan;
  private final Maintenance settings;
  private final long started = System.nanoTime();
  private boolean committed;

  DistributedMaintenance(
      LakeCatalog catalog, LoadedTable table, MaintenancePlan plan, Maintenance settings) {
    this.catalog = catalog;
    this.table = table;
    this.plan = plan;
    this.settings = settings;
  }

  /** The compactions to run, one per merged run of files. */
  public List<CompactionTask> tasks() {
    List<CompactionTask> tasks = new ArrayList<>();
    List<Rewrite> rewrites = plan.rewrites();
    for (int i = 0; i < rewrites.size(); i++) {
      Rewrite rewrite = rewrites.get(i);
      tasks.add(
          new CompactionTask(
              table.name(),
              plan.snapshotId(),
              i,
              rewrite.partition(),
              rewrite.files().stream().map(PlannedFile::location).toList()));
    }
    return tasks;
  }

  /** What the run does, one line per decision. */
  public List<String> explanation() {
    return plan.explanation();
  }

  /**
   * Commits the tasks' files (one result per task) and finishes the run. A maintenance commits at
   * most once: whether or not the commit succeeded, its files may be live afterwards, so a second
   * call is refused rather than risk deleting them.
   *
   * @throws ValidationException when a task's result is missing or repeated, names no task, comes
   *     from another maintenance or names a file outside the table, or when this maintenance
   *     already committed
   */
  public synchronized MaintenanceReport commit(List<CompactionResult> results) {
    if (committed) {
      throw TimelakeException.validation(
          "Cannot commit maintenance of %s again: it committed once (plan a new one with"
              + " distribute())",
          table.name());
    }
    Map<Rewrite, List<String>> written = written(results);
    committed = true;
    try (EngineConnection connection = catalog.engine().connect()) {
      MaintenanceReport report =
          new MaintenanceRunner(catalog.require(table.name()), connection, settings.progress())
              .commit(plan, settings.now(), written, started);
      settings.refreshRollups(connection);
      return report;
    }
  }

  private Map<Rewrite, List<String>> written(List<CompactionResult> results) {
    List<Rewrite> rewrites = plan.rewrites();
    Map<Integer, CompactionResult> byTask = new HashMap<>();
    String folder = table.iceberg().location() + "/";
    for (CompactionResult result : results) {
      if (!result.table().equals(table.name()) || result.snapshotId() != plan.snapshotId()) {
        throw TimelakeException.validation(
            "Cannot commit maintenance of %s: result %d comes from another maintenance (of %s,"
                + " planned on snapshot %d, not %d)",
            table.name(), result.index(), result.table(), result.snapshotId(), plan.snapshotId());
      }
      for (String file : result.files()) {
        if (!file.startsWith(folder)) {
          throw TimelakeException.validation(
              "Cannot commit maintenance of %s: result %d names %s, which is not in the table's"
                  + " folder %s",
              table.name(), result.index(), file, folder);
        }
      }
      if (result.index() < 0 || result.index() >= rewrites.size()) {
        throw TimelakeException.validation(
            "Cannot commit maintenance of %s: result %d names no task (there are %d)",
            table.name(), result.index(), rewrites.size());
      }
      if (byTask.put(result.index(), result) != null) {
        throw TimelakeException.validation(
            "Cannot commit maintenance of %s: task %d reported twice",
            table.name(), result.index());
      }
    }
    Map<Rewrite, List<String>> written = new LinkedHashMap<>();
    for (int i = 0; i < rewrites.size(); i++) {
      CompactionResult result = byTask.get(i);
      if (result == null) {
        throw TimelakeException.validation(
            "Cannot commit maintenance of %s: task %d of %d has no result; run it, or plan the"
                + " maintenance again",
            table.name(), i, rewrites.size());
      }
      written.put(rewrites.get(i), result.files());
    }
    return written;
  }
}
