package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.engine.EngineConnection;
import dev.timelake.refresh.RefreshScheduler;
import dev.timelake.refresh.RefreshScheduler.PlannedRefresh;
import java.io.Serializable;
import java.util.Map;

/**
 * One window of a {@link DistributedRefresh}, to run in any process that opens the same lake: plans
 * the refresh again from the snapshots the planning process pinned, computes the window's rollup
 * rows (routed to the other rollups as a local refresh would) and writes them to a Parquet file at
 * {@link #location}. It commits nothing.
 *
 * @param rollup the rollup
 * @param rollupSnapshot the rollup's pinned snapshot (-1: none yet)
 * @param rawSnapshot the raw table's pinned snapshot (-1: none)
 * @param sources the raw table's other rollups and their pinned snapshots
 * @param window the window's number, from 0
 * @param windows how many windows the refresh has
 * @param location where the window's rows go
 */
public record RefreshTask(
    TableName rollup,
    long rollupSnapshot,
    long rawSnapshot,
    Map<TableName, Long> sources,
    int window,
    int windows,
    String location)
    implements Serializable {
  public RefreshTask {
    requireNonNull(rollup, "rollup is null");
    sources = Map.copyOf(sources);
    requireNonNull(location, "location is null");
  }

  /** Writes the window's rows with {@code lake}'s engine. */
  public RefreshResult run(Lake lake) {
    try (EngineConnection connection = lake.catalog().engine().connect()) {
      RefreshScheduler scheduler = new RefreshScheduler(lake.catalog(), connection, m -> {});
      PlannedRefresh planned = scheduler.replanned(rollup, rollupSnapshot, rawSnapshot, sources);
      if (planned.plan().windows().size() != windows) {
        throw new ConflictException(
            "Cannot refresh "
                + rollup
                + " window "
                + window
                + ": planned again it has "
                + planned.plan().windows().size()
                + " windows, not "
                + windows
                + "; plan the refresh again");
      }
      scheduler.writeWindow(planned, window, location);
      return new RefreshResult(window, location);
    }
  }
}
