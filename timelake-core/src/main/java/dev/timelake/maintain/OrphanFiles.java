package dev.timelake.maintain;

import dev.timelake.ErrorCode;
import dev.timelake.TimelakeException;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.storage.LocalFileIO;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;

/**
 * Deletes files under a table's location that no snapshot or metadata file uses, once older than
 * {@code orphan-file-age}: leftovers of writes that failed or were killed. Younger files are kept
 * so a write in progress is never removed. Works the same on local folders and object storage
 * (through the file IO's listing).
 */
final class OrphanFiles {
  private OrphanFiles() {}

  static int delete(Table table, TableContract contract, Instant now) {
    long maxAgeMillis =
        Durations.parse(contract.setting(Settings.ORPHAN_FILE_AGE).orElseThrow()).toMillis();
    long cutoff = now.toEpochMilli() - maxAgeMillis;
    LakeFileIO io = LakeFileIO.of(table.io());
    List<FileInfo> candidates = new ArrayList<>();
    try {
      for (FileInfo file : io.listPrefix(table.location() + "/")) {
        // Some stores list folder markers ("data/") as objects: not files of the table.
        if (file.createdAtMillis() < cutoff && !file.location().endsWith("/")) {
          candidates.add(file);
        }
      }
    } catch (RuntimeException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL,
          "Cannot clean orphan files of " + table.name() + ": " + e.getMessage(),
          e);
    }
    if (candidates.isEmpty()) {
      return 0;
    }
    Set<String> referenced;
    try {
      referenced = referenced(table);
    } catch (RuntimeException e) {
      if (isMissingFile(e)) {
        // A concurrent expiry removed metadata while it was listed: delete nothing this time.
        return 0;
      }
      throw e;
    }
    Set<Long> liveSnapshots = new java.util.HashSet<>();
    table.snapshots().forEach(snapshot -> liveSnapshots.add(snapshot.snapshotId()));
    List<String> orphans = new ArrayList<>();
    for (FileInfo file : candidates) {
      if (!referenced.contains(normalize(file.location()))
          && !isLiveLatestIndex(file.location(), liveSnapshots)) {
        orphans.add(file.location());
      }
    }
    for (String orphan : orphans) {
      try {
        io.deleteFile(orphan);
      } catch (RuntimeException e) {
        if (!isMissingFile(e)) {
          throw new TimelakeException(
              ErrorCode.INTERNAL,
              "Cannot clean orphan files of " + table.name() + ": " + e.getMessage(),
              e);
        }
      }
    }
    return orphans.size();
  }

  /** The last-value index of a live snapshot: no metadata names it, yet it is in use. */
  private static boolean isLiveLatestIndex(String location, Set<Long> liveSnapshots) {
    return dev.timelake.read.LatestIndex.snapshotOf(
            location.substring(location.lastIndexOf('/') + 1))
        .map(liveSnapshots::contains)
        .orElse(false);
  }

  private static boolean isMissingFile(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof NoSuchFileException
          || cause instanceof java.io.FileNotFoundException
          || cause instanceof org.apache.iceberg.exceptions.NotFoundException) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> referenced(Table table) {
    Set<String> paths = new HashSet<>();
    ReachableFileUtil.metadataFileLocations(table, true).forEach(p -> paths.add(normalize(p)));
    ReachableFileUtil.manifestListLocations(table).forEach(p -> paths.add(normalize(p)));
    // Coverage of the ordered index (and any other statistics) lives in Puffin files.
    ReachableFileUtil.statisticsFilesLocations(table).forEach(p -> paths.add(normalize(p)));
    paths.add(normalize(ReachableFileUtil.versionHintLocation(table)));
    // Snapshots share most of their manifests: read each manifest once, not once per snapshot
    // (with hundreds of snapshots the repeated reads were most of a maintenance run).
    java.util.Map<String, ManifestFile> manifests = new java.util.LinkedHashMap<>();
    for (Snapshot snapshot : table.snapshots()) {
      // A DELETE's record of the rows it removed: read by refreshes while its snapshot is kept.
      String deletedRows =
          snapshot.summary().get(dev.timelake.table.SnapshotSummaries.DELETED_ROWS_FILE);
      if (deletedRows != null) {
        paths.add(normalize(deletedRows));
      }
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        manifests.putIfAbsent(manifest.path(), manifest);
      }
    }
    for (ManifestFile manifest : manifests.values()) {
      paths.add(normalize(manifest.path()));
      try (CloseableIterable<String> files =
          ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
        files.forEach(p -> paths.add(normalize(p)));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return paths;
  }

  /** One spelling per file: local paths absolute, s3a:// and s3n:// as s3://. */
  private static String normalize(String location) {
    if (!LakeFileIO.isRemote(location)) {
      return LocalFileIO.path(location).toAbsolutePath().normalize().toString();
    }
    return location.replaceFirst("^s3[an]://", "s3://");
  }
}
