package dev.timelake;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.StoredAggregate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns the implementation's view of a rollup into the public {@link RollupInfo}. */
final class Rollups {
  private Rollups() {}

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
        rollup.grid().width(),
        rollup.grid().originMicros(),
        aggregates,
        rollup.sourceSnapshot(),
        files.stream().mapToLong(PlannedFile::rows).sum(),
        files.size());
  }
}
