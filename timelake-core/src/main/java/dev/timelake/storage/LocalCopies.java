package dev.timelake.storage;

import static java.util.Objects.requireNonNull;

import dev.timelake.ErrorCode;
import dev.timelake.TimelakeException;
import dev.timelake.table.ByteSizes;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.io.DelegateFileIO;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * Local copies of a lake's remote files, because DuckDB reads and writes local paths only: copies
 * downloaded when missing (several at a time) and reused until evicted ({@link FileCache}: least
 * recently used past a size), and files written locally, uploaded, then kept as copies. {@link
 * LakeFileIO} routes locations; this class owns the copies, the download threads and the uploads.
 * Thread-safe.
 */
final class LocalCopies implements AutoCloseable {
  private final Map<String, String> properties;
  private final Function<String, DelegateFileIO> remote;
  private volatile FileCache cache;
  private volatile ExecutorService downloads;

  /** Copies configured by the lake's {@code properties}, of files {@code remote} reads. */
  LocalCopies(Map<String, String> properties, Function<String, DelegateFileIO> remote) {
    this.properties = requireNonNull(properties, "properties is null");
    this.remote = requireNonNull(remote, "remote is null");
  }

  /**
   * Local paths DuckDB reads for {@code locations}, in order: local files as they are, remote ones
   * as local copies, downloaded (several at a time) when missing.
   */
  List<String> localPaths(List<String> locations) {
    String[] paths = new String[locations.size()];
    Map<Integer, Future<Path>> pending = new HashMap<>();
    for (int i = 0; i < paths.length; i++) {
      String location = locations.get(i);
      if (!LakeFileIO.isRemote(location)) {
        paths[i] = LocalFileIO.path(location).toString();
        continue;
      }
      var copy = cache().cached(location);
      if (copy.isPresent()) {
        paths[i] = copy.get().toString();
      } else {
        pending.put(i, downloads().submit(() -> download(location)));
      }
    }
    for (Map.Entry<Integer, Future<Path>> entry : pending.entrySet()) {
      paths[entry.getKey()] = await(entry.getValue(), locations.get(entry.getKey())).toString();
    }
    return List.of(paths);
  }

  private Path download(String location) {
    return cache()
        .download(location, () -> remote.apply(location).newInputFile(location).newStream());
  }

  /**
   * Writes a remote file: {@code writer} writes the whole file to a local path, which is uploaded
   * and kept as the file's copy. A failed write leaves nothing.
   */
  void write(String location, Consumer<String> writer) {
    Path staged = cache().newPartialFile();
    try {
      writer.accept(staged.toString());
      upload(staged, location);
      cache().adopt(location, staged);
    } catch (RuntimeException e) {
      LakeFileIO.deleteQuietly(staged);
      throw e;
    }
  }

  /**
   * Uploads a whole local file. S3FileIO's stream completes its upload when closed, even after a
   * failed copy, so the object's size is checked afterwards and a short object deleted.
   */
  private void upload(Path staged, String location) {
    DelegateFileIO io = remote.apply(location);
    long size;
    try (PositionOutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      size = Files.size(staged);
      Files.copy(staged, (OutputStream) out);
    } catch (IOException | RuntimeException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL,
          "Cannot upload " + location + ": " + LakeFileIO.describeFailure(e),
          e);
    }
    long uploaded = io.newInputFile(location).getLength();
    if (uploaded != size) {
      io.deleteFile(location);
      throw new TimelakeException(
          ErrorCode.INTERNAL,
          "Cannot upload " + location + ": " + uploaded + " of " + size + " bytes arrived",
          null);
    }
  }

  /** Forgets the copy of a deleted remote file. */
  void forget(String location) {
    if (properties.containsKey(LakeFileIO.CACHE_DIRECTORY)) {
      cache().remove(location);
    }
  }

  /** The copy of a remote file, when this file IO keeps copies and has one. */
  java.util.Optional<Path> cached(String location) {
    return properties.containsKey(LakeFileIO.CACHE_DIRECTORY)
        ? cache().cached(location)
        : java.util.Optional.empty();
  }

  private FileCache cache() {
    FileCache files = cache;
    if (files == null) {
      synchronized (this) {
        files = cache;
        if (files == null) {
          String folder = properties.get(LakeFileIO.CACHE_DIRECTORY);
          if (folder == null) {
            throw new TimelakeException(
                ErrorCode.INTERNAL,
                "Cannot read files on object storage: no local cache folder ("
                    + LakeFileIO.CACHE_DIRECTORY
                    + ") was configured",
                null);
          }
          files = FileCache.in(Path.of(folder), maxBytes());
          cache = files;
        }
      }
    }
    return files;
  }

  private long maxBytes() {
    String value = properties.getOrDefault(LakeFileIO.CACHE_MAX_SIZE, LakeFileIO.DEFAULT_MAX);
    try {
      return ByteSizes.parse(value);
    } catch (IllegalArgumentException e) {
      throw TimelakeException.validation(
          "Invalid %s '%s' (%s)", LakeFileIO.CACHE_MAX_SIZE, value, e.getMessage());
    }
  }

  private ExecutorService downloads() {
    ExecutorService pool = downloads;
    if (pool == null) {
      synchronized (this) {
        pool = downloads;
        if (pool == null) {
          pool =
              Executors.newFixedThreadPool(
                  8,
                  task -> {
                    Thread thread = new Thread(task, "timelake-download");
                    thread.setDaemon(true);
                    return thread;
                  });
          downloads = pool;
        }
      }
    }
    return pool;
  }

  private static Path await(Future<Path> download, String location) {
    try {
      return download.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TimelakeException(ErrorCode.INTERNAL, "Interrupted downloading " + location, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new TimelakeException(
          ErrorCode.INTERNAL,
          "Cannot read " + location + ": " + LakeFileIO.describeFailure(cause),
          cause);
    }
  }

  @Override
  public void close() {
    ExecutorService pool = downloads;
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
