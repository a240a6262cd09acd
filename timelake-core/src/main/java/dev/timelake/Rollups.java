package dev.timelake;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.StoredAggregate;
import dev.timelake.table.Durations;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.FixedGrid;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns the implementation's view of a rollup into the public {@link RollupInfo}. */
final class Rollups {
  private Rollups() {}

  /** E.g. {@code 1h}, or {@code 1 month in Europe/Berlin}. */
  private static String bucket(BucketGrid grid) {
    return grid instanceof FixedGrid fixed ? Durations.format(fixed.width()) : grid.toString();
  }

  static RollupInfo info(LakeCatalog catalog, Rollup rollup) {
    List<PlannedFile> files = ScanPlanner.liveFiles(rollup.table());
    Map<String, String> aggregates = new LinkedHashMap<>();
    for (StoredAggregate aggregate : rollup.aggregates()) {
      aggregates.put(aggregate.name(), aggregate.call().toString());
    }
    return new RollupInfo(
        rollup.name(),
        rollup.source(),
        rollup.keys(),
        bucket(rollup.grid()),
        rollup.grid() instanceof FixedGrid fixed ? fixed.originMicros() : 0,
        aggregates,
        rollup.filter().toString(),
        rollup.sourceSnapshot(),
        files.stream().mapToLong(PlannedFile::rows).sum(),
        files.size());
  }
}
