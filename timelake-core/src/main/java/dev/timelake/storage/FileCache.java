package dev.timelake.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Local copies of files on object storage, for DuckDB, which reads and writes local paths only.
 *
 * <p>Every file a lake writes there is immutable (data files, last-value indexes and coverage files
 * have unique names), so a copy is valid for as long as it exists: a copy in {@code files/} is
 * always whole, because downloads and staged writes land in {@code partial/} and are moved in
 * atomically. Copies are kept up to a size limit; beyond it the least recently used are deleted,
 * but never one used in the last ten minutes (a running query may still be reading it). Several
 * processes may share a cache folder: each records use in the file's modification time.
 *
 * <p>Thread-safe. One instance per folder in a process ({@link #in}).
 */
final class FileCache {
  /** A copy used this recently is never evicted: a query may have it planned or open. */
  static final long PROTECTED_MILLIS = 10 * 60 * 1000L;

  private static final Map<Path, FileCache> OPEN = new ConcurrentHashMap<>();

  private final Path files;
  private final Path partial;
  private final long maxBytes;
  private final java.util.function.LongSupplier clock;
  private final LinkedHashMap<Path, Long> sizes = new LinkedHashMap<>(256, 0.75f, true);
  private final Map<Path, Long> touched = new ConcurrentHashMap<>();
  private final Map<Path, Long> modifiedSet = new ConcurrentHashMap<>();
  private long totalBytes;
  private boolean indexed;

  /** A cache in {@code root} whose time (epoch milliseconds) is {@code clock}'s. */
  FileCache(Path root, long maxBytes, java.util.function.LongSupplier clock) {
    this.files = root.resolve("files");
    this.partial = root.resolve("partial");
    this.maxBytes = maxBytes;
    this.clock = clock;
  }

  /**
   * The cache in {@code root}, shared by every lake of this process that uses the folder (the first
   * one's size limit applies to all).
   */
  static FileCache in(Path root, long maxBytes) {
    Path normalized = root.toAbsolutePath().normalize();
    FileCache cache =
        OPEN.computeIfAbsent(
            normalized, r -> new FileCache(r, maxBytes, System::currentTimeMillis));
    return cache;
  }

  /** Where the copy of {@code location} lives (whether or not it is there). */
  Path pathOf(String location) {
    int scheme = location.indexOf("://");
    String rest =
        scheme < 0
            ? location
            : location.substring(0, scheme) + "/" + location.substring(scheme + 3);
    Path path = files.resolve(rest).normalize();
    if (!path.startsWith(files) || rest.contains("/../") || rest.endsWith("/")) {
      throw new IllegalArgumentException("Cannot cache " + location + ": not a file location");
    }
    return path;
  }

  /**
   * The copy of {@code location} when it is cached, marking it used. The use is recorded before the
   * copy is looked for, under the lock eviction holds, so a copy found here is not evicted for
   * {@link #PROTECTED_MILLIS}.
   */
  java.util.Optional<Path> cached(String location) {
    Path path = pathOf(location);
    synchronized (this) {
      touched.put(path, clock.getAsLong());
      if (!Files.isRegularFile(path)) {
        forget(path);
        return java.util.Optional.empty();
      }
    }
    use(path);
    return java.util.Optional.of(path);
  }

  /** Something that opens a stream, which may fail. */
  interface Content {
    InputStream open() throws IOException;
  }

  /** Copies {@code content} in as {@code location}'s copy, atomically; returns the copy. */
  Path download(String location, Content content) {
    Path temporary = newPartialFile();
    try (InputStream in = content.open()) {
      Files.copy(in, temporary, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      deleteQuietly(temporary);
      throw new UncheckedIOException("Cannot download " + location + " into " + partial, e);
    } catch (RuntimeException e) {
      deleteQuietly(temporary);
      throw e;
    }
    return adopt(location, temporary);
  }

  /** A new file in the cache's work folder, for a write that {@link #adopt} moves in. */
  Path newPartialFile() {
    try {
      Files.createDirectories(partial);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the cache folder " + partial, e);
    }
    return partial.resolve(UUID.randomUUID().toString());
  }

  /** Moves a whole file from the work folder in as {@code location}'s copy. */
  Path adopt(String location, Path written) {
    Path path = pathOf(location);
    try {
      Files.createDirectories(path.getParent());
      Files.move(
          written, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      long size = Files.size(path);
      synchronized (this) {
        index();
        Long previous = sizes.put(path, size);
        totalBytes += size - (previous == null ? 0 : previous);
      }
      touched.put(path, clock.getAsLong());
    } catch (IOException e) {
      deleteQuietly(written);
      throw new UncheckedIOException("Cannot keep a copy of " + location + " in " + files, e);
    }
    evict();
    return path;
  }

  /** Deletes the copy of {@code location}, if any. */
  void remove(String location) {
    Path path = pathOf(location);
    deleteQuietly(path);
    forget(path);
  }

  /** The bytes of every copy this process knows of. */
  synchronized long totalBytes() {
    index();
    return totalBytes;
  }

  private void use(Path path) {
    long now = clock.getAsLong();
    Long written = modifiedSet.get(path);
    if (written == null || now - written > 60_000) {
      // Other processes see use through the modification time; once a minute is enough.
      try {
        Files.setLastModifiedTime(path, FileTime.fromMillis(now));
      } catch (IOException e) {
        // Evicted by another process: DuckDB reports the missing file.
      }
      modifiedSet.put(path, now);
    }
    synchronized (this) {
      if (indexed && !sizes.containsKey(path)) {
        try {
          long size = Files.size(path);
          sizes.put(path, size);
          totalBytes += size;
        } catch (IOException e) {
          // gone
        }
      } else {
        sizes.get(path); // moves it to the most recently used end
      }
    }
  }

  private synchronized void forget(Path path) {
    Long size = sizes.remove(path);
    if (size != null) {
      totalBytes -= size;
    }
    modifiedSet.remove(path);
  }

  /**
   * Deletes the least recently used copies while the cache is over its limit, under the lock that
   * {@link #cached} records a use under: a copy handed out is never deleted within {@link
   * #PROTECTED_MILLIS}.
   */
  private synchronized void evict() {
    long now = clock.getAsLong();
    long excess = totalBytes - maxBytes;
    Iterator<Map.Entry<Path, Long>> eldest = sizes.entrySet().iterator();
    while (excess > 0 && eldest.hasNext()) {
      Map.Entry<Path, Long> entry = eldest.next();
      Path path = entry.getKey();
      if (now - lastUse(path) < PROTECTED_MILLIS) {
        continue;
      }
      excess -= entry.getValue();
      totalBytes -= entry.getValue();
      eldest.remove();
      touched.remove(path);
      modifiedSet.remove(path);
      deleteQuietly(path);
    }
  }

  private long lastUse(Path path) {
    Long inProcess = touched.get(path);
    long modified;
    try {
      modified = Files.getLastModifiedTime(path).toMillis();
    } catch (IOException e) {
      modified = 0;
    }
    return Math.max(inProcess == null ? 0 : inProcess, modified);
  }

  /** Reads the sizes of the copies already on disk, oldest first, once. */
  private void index() {
    if (indexed) {
      return;
    }
    indexed = true;
    if (!Files.isDirectory(files)) {
      return;
    }
    List<Map.Entry<Path, BasicFileAttributes>> found = new ArrayList<>();
    try {
      Files.walkFileTree(
          files,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()) {
                found.add(Map.entry(file, attributes));
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the cache folder " + files, e);
    }
    deleteStalePartialFiles();
    found.sort(
        java.util.Comparator.comparing(
            (Map.Entry<Path, BasicFileAttributes> f) -> f.getValue().lastModifiedTime()));
    for (Map.Entry<Path, BasicFileAttributes> file : found) {
      sizes.put(file.getKey(), file.getValue().size());
      totalBytes += file.getValue().size();
    }
  }

  /** Downloads and writes that a killed process left in the work folder a day ago or more. */
  private void deleteStalePartialFiles() {
    if (!Files.isDirectory(partial)) {
      return;
    }
    long cutoff = clock.getAsLong() - 24 * 3600 * 1000L;
    try (var entries = Files.list(partial)) {
      entries
          .filter(
              file -> {
                try {
                  return Files.getLastModifiedTime(file).toMillis() < cutoff;
                } catch (IOException e) {
                  return false;
                }
              })
          .forEach(FileCache::deleteQuietly);
    } catch (IOException e) {
      // tried again next time
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // A copy that cannot be deleted is found and reused, or deleted next time.
    }
  }
}
