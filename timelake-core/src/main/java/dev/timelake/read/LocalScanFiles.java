package dev.timelake.read;

import dev.timelake.storage.LakeFileIO;
import java.util.List;

/**
 * The I/O a scan needs before DuckDB runs it: the files a plan reads, as local paths (a remote
 * file's local copy, downloaded when missing). Plans are values and stay free of I/O; the SQL that
 * reads them is printed from what this gives, just before it runs.
 */
final class LocalScanFiles {
  private LocalScanFiles() {}

  /**
   * The plan with each file's location replaced by the local path DuckDB reads (a local copy of a
   * remote file, downloaded now when missing).
   */
  static ScanPlan localized(ScanPlan plan, LakeFileIO io) {
    List<PlannedFile> all = new java.util.ArrayList<>(plan.independent());
    plan.overlapping().forEach(all::addAll);
    if (allLocal(all)) {
      return plan; // every query of a local warehouse: nothing to copy or map
    }
    java.util.Map<String, String> local = localPaths(all, io);
    return new ScanPlan(
        plan.contract(),
        plan.snapshotId(),
        relocated(plan.independent(), local),
        plan.overlapping().stream().map(group -> relocated(group, local)).toList(),
        plan.filesBeforePruning(),
        plan.partitionsBeforePruning(),
        plan.deduplicated());
  }

  /** The files with their locations replaced by the local paths DuckDB reads. */
  static List<PlannedFile> localized(List<PlannedFile> files, LakeFileIO io) {
    return allLocal(files) ? files : relocated(files, localPaths(files, io));
  }

  private static boolean allLocal(List<PlannedFile> files) {
    return files.stream().noneMatch(f -> LakeFileIO.isRemote(f.location()));
  }

  private static java.util.Map<String, String> localPaths(List<PlannedFile> files, LakeFileIO io) {
    List<String> locations = files.stream().map(PlannedFile::location).toList();
    List<String> paths = io.localPaths(locations);
    java.util.Map<String, String> local = new java.util.HashMap<>();
    for (int i = 0; i < locations.size(); i++) {
      local.put(locations.get(i), paths.get(i));
    }
    return local;
  }

  private static List<PlannedFile> relocated(
      List<PlannedFile> files, java.util.Map<String, String> local) {
    return files.stream().map(f -> f.withLocation(local.get(f.location()))).toList();
  }
}
