package dev.timelake.maintain;

import dev.timelake.ErrorCode;
import dev.timelake.TimelakeException;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Deletes files in a local table's folders that no snapshot or metadata file uses, once older than
 * {@code orphan-file-age}: leftovers of writes that failed or were killed. Younger files are kept
 * so a write in progress is never removed. Tables on object storage are skipped.
 */
final class OrphanFiles {
  private OrphanFiles() {}

  static int delete(Table table, TableContract contract, Instant now) {
    Path root = localRoot(table.location());
    if (root == null || !Files.isDirectory(root)) {
      return 0;
    }
    long maxAgeMillis =
        Durations.parse(contract.setting(Settings.ORPHAN_FILE_AGE).orElseThrow()).toMillis();
    long cutoff = now.toEpochMilli() - maxAgeMillis;
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
    int[] deleted = {0};
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              String path = file.toAbsolutePath().normalize().toString();
              if (attributes.isRegularFile()
                  && !referenced.contains(path)
                  && !isLiveLatestIndex(file, liveSnapshots)
                  && attributes.lastModifiedTime().toMillis() < cutoff
                  && Files.deleteIfExists(file)) {
                deleted[0]++;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // removed by a concurrent maintenance run
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL,
          "Cannot clean orphan files of " + table.name() + ": " + e.getMessage(),
          e);
    }
    return deleted[0];
  }

  /** The last-value index of a live snapshot: no metadata names it, yet it is in use. */
  private static boolean isLiveLatestIndex(Path file, Set<Long> liveSnapshots) {
    return dev.timelake.read.LatestIndex.snapshotOf(file.getFileName().toString())
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

  private static String normalize(String location) {
    Path path = localRoot(location);
    return path == null ? location : path.toAbsolutePath().normalize().toString();
  }

  private static Path localRoot(String location) {
    if (location.startsWith("file:")) {
      return Path.of(
          java.net.URI.create(
              location.startsWith("file://")
                  ? location
                  : "file://" + location.substring("file:".length())));
    }
    return location.contains("://") ? null : Path.of(location);
  }
}
