package dev.timelake;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.engine.EngineConnection;
import dev.timelake.refresh.RefreshScheduler;
import dev.timelake.refresh.RefreshScheduler.PlannedRefresh;
import dev.timelake.rollup.Rollup;
import dev.timelake.storage.LakeFileIO;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A rollup refresh whose windows other processes compute (Spark executors, say): {@link #tasks()}
 * are handed out, each {@link RefreshTask#run runs} where the lake is open and writes its window's
 * rows to a file beside the rollup, and {@link #commit} appends them window by window exactly as
 * {@link Lake#refreshRollup} does (the same rows, records and commits), then deletes the files.
 *
 * <pre>{@code
 * DistributedRefresh refresh = lake.distributeRefresh(TableName.parse("iot.readings_1h"));
 * List<RefreshResult> results = runEverywhere(refresh.tasks()); // task.run(lake)
 * RefreshReport report = refresh.commit(results);
 * }</pre>
 */
public final class DistributedRefresh {
  private final LakeCatalog catalog;
  private final PlannedRefresh planned;
  private final List<RefreshTask> tasks;
  private final String staging;
  private boolean committed;

  DistributedRefresh(LakeCatalog catalog, TableName rollup) {
    this.catalog = catalog;
    try (EngineConnection connection = catalog.engine().connect()) {
      this.planned = new RefreshScheduler(catalog, connection, m -> {}).planned(rollup);
    }
    Map<TableName, Long> sources = new LinkedHashMap<>();
    for (Rollup source : planned.sources()) {
      sources.put(source.name(), source.table().snapshotId());
    }
    this.staging = catalog.require(rollup).iceberg().location() + "/staging";
    String folder = staging + "/refresh-" + UUID.randomUUID();
    int windows = planned.plan().windows().size();
    List<RefreshTask> planTasks = new ArrayList<>();
    for (int i = 0; i < windows; i++) {
      planTasks.add(
          new RefreshTask(
              rollup,
              planned.rollup().table().snapshotId(),
              planned.raw().snapshotId(),
              sources,
              i,
              windows,
              folder + "/window-" + i + ".parquet"));
    }
    this.tasks = List.copyOf(planTasks);
  }

  /** The windows to compute, one task each (none when the rollup is up to date). */
  public List<RefreshTask> tasks() {
    return tasks;
  }

  /** What the refresh does, one line per decision. */
  public List<String> explanation() {
    return planned.plan().explanation();
  }

  /**
   * Appends every window's rows (one result per task) and records the raw snapshot they reflect.
   *
   * @throws ValidationException when a window's result is missing, repeated, names no window or
   *     another file than its task's, or when this refresh already committed
   */
  public synchronized RefreshReport commit(List<RefreshResult> results) {
    TableName rollup = planned.rollup().name();
    if (committed) {
      throw TimelakeException.validation(
          "Cannot commit the refresh of %s again: it committed once (plan a new one)", rollup);
    }
    Map<Integer, RefreshResult> byWindow = new HashMap<>();
    for (RefreshResult result : results) {
      if (result.window() < 0 || result.window() >= tasks.size()) {
        throw TimelakeException.validation(
            "Cannot commit the refresh of %s: result %d names no window (there are %d)",
            rollup, result.window(), tasks.size());
      }
      if (!result.location().equals(tasks.get(result.window()).location())) {
        throw TimelakeException.validation(
            "Cannot commit the refresh of %s: window %d names %s, not its task's file %s",
            rollup, result.window(), result.location(), tasks.get(result.window()).location());
      }
      if (byWindow.put(result.window(), result) != null) {
        throw TimelakeException.validation(
            "Cannot commit the refresh of %s: window %d reported twice", rollup, result.window());
      }
    }
    List<String> staged = new ArrayList<>();
    for (int i = 0; i < tasks.size(); i++) {
      RefreshResult result = byWindow.get(i);
      if (result == null) {
        throw TimelakeException.validation(
            "Cannot commit the refresh of %s: window %d of %d has no result; run it, or plan the"
                + " refresh again",
            rollup, i, tasks.size());
      }
      staged.add(result.location());
    }
    committed = true;
    try (EngineConnection connection = catalog.engine().connect()) {
      return new RefreshScheduler(catalog, connection, m -> {})
          .commitStaged(planned, staged, Instant.now());
    } finally {
      LakeFileIO io = catalog.require(rollup).files();
      try {
        io.deleteFiles(staged);
        io.deleteEmptyFolders(staging);
      } catch (RuntimeException e) {
        // Left for orphan cleanup: the rollup's commits never name them.
      }
    }
  }
}
