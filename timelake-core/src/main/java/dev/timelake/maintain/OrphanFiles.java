package dev.timelake.maintain;

import dev.timelake.ErrorCode;
import dev.timelake.TimelakeException;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
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
    Set<String> referenced = referenced(table);
    int deleted = 0;
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        String path = file.toAbsolutePath().normalize().toString();
        if (!referenced.contains(path) && Files.getLastModifiedTime(file).toMillis() < cutoff) {
          Files.deleteIfExists(file);
          deleted++;
        }
      }
    } catch (IOException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL,
          "Cannot clean orphan files of " + table.name() + ": " + e.getMessage(),
          e);
    }
    return deleted;
  }

  private static Set<String> referenced(Table table) {
    Set<String> paths = new HashSet<>();
    ReachableFileUtil.metadataFileLocations(table, true).forEach(p -> paths.add(normalize(p)));
    ReachableFileUtil.manifestListLocations(table).forEach(p -> paths.add(normalize(p)));
    paths.add(normalize(ReachableFileUtil.versionHintLocation(table)));
    for (Snapshot snapshot : table.snapshots()) {
      List<ManifestFile> manifests = snapshot.allManifests(table.io());
      for (ManifestFile manifest : manifests) {
        paths.add(normalize(manifest.path()));
        try (CloseableIterable<String> files =
            ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
          files.forEach(p -> paths.add(normalize(p)));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
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
