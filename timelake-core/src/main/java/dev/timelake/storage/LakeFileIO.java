package dev.timelake.storage;

import dev.timelake.TimelakeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.DelegateFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The file IO of a lake: local paths and {@code file:} URIs through {@link LocalFileIO}, {@code
 * s3://} locations (S3 and S3-compatible stores such as MinIO, R2 or Ceph) through Iceberg's
 * S3FileIO ({@link S3Storage}); and, because DuckDB reads and writes local paths only, local copies
 * of remote files ({@link #localPaths}) and writes staged locally then uploaded ({@link #write}).
 *
 * <p>Configured by Iceberg catalog properties: S3FileIO's own ({@code s3.endpoint}, {@code
 * s3.access-key-id}, {@code s3.secret-access-key}, {@code s3.path-style-access}, {@code
 * client.region}, …; without them the AWS SDK's standard environment variables and profiles), and
 * {@value #CACHE_DIRECTORY} and {@value #CACHE_MAX_SIZE} for the copies. Thread-safe.
 */
public final class LakeFileIO implements DelegateFileIO {
  /**
   * The local folder for copies of remote files (in {@code files/}) and the lake's temporary files;
   * see {@link Warehouse#localWorkFolder}.
   */
  public static final String CACHE_DIRECTORY = "timelake.cache-dir";

  /** How many bytes of copies are kept, such as {@code 10GB} (default {@value #DEFAULT_MAX}). */
  public static final String CACHE_MAX_SIZE = "timelake.cache-max-size";

  static final String DEFAULT_MAX = "10GB";

  private static final List<String> S3_SCHEMES = List.of("s3", "s3a", "s3n");

  private Map<String, String> properties = Map.of();
  private transient LocalFileIO local;
  private transient volatile DelegateFileIO remote;
  private transient volatile LocalCopies copies;

  /** For Iceberg, which creates file IOs by class name and then {@link #initialize}s them. */
  public LakeFileIO() {}

  private static final Map<FileIO, LakeFileIO> WRAPPED =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

  /**
   * The lake's file IO for a table's {@code io}: itself, or for a catalog that named another file
   * IO class, one Timelake file IO over the same properties, made once per file IO.
   */
  public static LakeFileIO of(FileIO io) {
    if (io instanceof LakeFileIO lake) {
      return lake;
    }
    return WRAPPED.computeIfAbsent(
        io,
        other -> {
          LakeFileIO wrapped = new LakeFileIO();
          wrapped.initialize(other.properties());
          return wrapped;
        });
  }

  @Override
  public void initialize(Map<String, String> catalogProperties) {
    this.properties = Map.copyOf(catalogProperties);
    localIO();
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  /**
   * What went wrong reaching object storage, in words a user can act on: missing credentials name
   * the settings that give them (the SDK lists every provider it tried instead).
   */
  public static String describeFailure(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (message.startsWith("Unable to load credentials")) {
      return "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS"
          + " profile), or give s3.access-key-id and s3.secret-access-key";
    }
    return message;
  }

  /** True for locations on object storage, which DuckDB reads through local copies. */
  public static boolean isRemote(String location) {
    int scheme = location.indexOf("://");
    return scheme > 0 && !location.startsWith("file:");
  }

  /**
   * Checks that Timelake can store files at {@code location}: a local path, a {@code file:} URI or
   * an {@code s3://} location.
   */
  public static void checkSupported(String location) {
    int scheme = location.indexOf("://");
    if (scheme > 0 && !location.startsWith("file:")) {
      String name = location.substring(0, scheme).toLowerCase(Locale.ROOT);
      if (!S3_SCHEMES.contains(name)) {
        throw TimelakeException.validation(
            "Cannot use %s: Timelake stores tables in local folders and on S3 or S3-compatible"
                + " stores (s3://bucket/prefix); %s:// is not supported",
            location, name);
      }
    }
  }

  @Override
  public InputFile newInputFile(String location) {
    if (!isRemote(location)) {
      return localIO().newInputFile(location);
    }
    // A copy, when there is one, answers without a round trip: remote files never change.
    return copies()
        .cached(location)
        .<InputFile>map(
            path -> new CopyInputFile(location, localIO().newInputFile(path.toString())))
        .orElseGet(() -> remote(location).newInputFile(location));
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return isRemote(location) ? newInputFile(location) : localIO().newInputFile(location);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return isRemote(location)
        ? remote(location).newOutputFile(location)
        : localIO().newOutputFile(location);
  }

  private static final System.Logger LOG = System.getLogger(LakeFileIO.class.getName());

  /**
   * True when {@code location} lies inside the warehouse the catalog names (its {@code warehouse}
   * property; anywhere when it names none): the only files the lake ever deletes, whatever a
   * table's metadata lists (a REST client may have committed a manifest naming a file elsewhere).
   */
  boolean isInsideWarehouse(String location) {
    String root = properties.get(org.apache.iceberg.CatalogProperties.WAREHOUSE_LOCATION);
    if (root == null || root.isBlank()) {
      return true;
    }
    if (isRemote(root) != isRemote(location)) {
      return false;
    }
    if (isRemote(root)) {
      String prefix = root.replaceAll("/+$", "") + "/";
      return location.startsWith(prefix)
          && java.util.Arrays.stream(location.substring(prefix.length()).split("/"))
              .noneMatch(part -> part.equals("..") || part.equals("."));
    }
    try {
      return LocalFileIO.path(location)
          .toAbsolutePath()
          .normalize()
          .startsWith(LocalFileIO.path(root).toAbsolutePath().normalize());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Whether {@code location} may be deleted; a refusal is logged, never thrown. */
  private boolean mayDelete(String location) {
    if (isInsideWarehouse(location)) {
      return true;
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "Not deleting {0}: it lies outside the warehouse {1}",
        location,
        properties.get(org.apache.iceberg.CatalogProperties.WAREHOUSE_LOCATION));
    return false;
  }

  @Override
  public void deleteFile(String location) {
    if (!mayDelete(location)) {
      return;
    }
    if (isRemote(location)) {
      remote(location).deleteFile(location);
      copies().forget(location);
    } else {
      localIO().deleteFile(location);
    }
  }

  @Override
  public void deleteFiles(Iterable<String> locations) throws BulkDeletionFailureException {
    List<String> remoteLocations = new ArrayList<>();
    for (String location : locations) {
      if (!mayDelete(location)) {
        continue;
      }
      if (isRemote(location)) {
        remoteLocations.add(location);
      } else {
        localIO().deleteFile(location);
      }
    }
    if (!remoteLocations.isEmpty()) {
      DelegateFileIO io = remote(remoteLocations.get(0));
      try {
        io.deleteFiles(remoteLocations);
      } catch (RuntimeException e) {
        // Some S3-compatible stores refuse multi-object deletes (S3Proxy, older MinIO: the SDK's
        // newer checksums instead of Content-MD5): one request per file then.
        remoteLocations.forEach(io::deleteFile);
      }
      remoteLocations.forEach(copies()::forget);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    return isRemote(prefix) ? remote(prefix).listPrefix(prefix) : localIO().listPrefix(prefix);
  }

  @Override
  public void deletePrefix(String prefix) {
    if (!mayDelete(prefix)) {
      return;
    }
    if (isRemote(prefix)) {
      List<String> files = new ArrayList<>();
      remote(prefix).listPrefix(prefix).forEach(file -> files.add(file.location()));
      deleteFiles(files);
    } else {
      localIO().deletePrefix(prefix);
    }
  }

  /**
   * Deletes the local folders under and including {@code location} that hold no file (object
   * storage has no folders to delete).
   */
  public void deleteEmptyFolders(String location) {
    if (!isRemote(location) && mayDelete(location)) {
      LocalFileIO.deleteEmptyFolders(LocalFileIO.path(location));
    }
  }

  /**
   * Local paths DuckDB reads for {@code locations}, in order: local files as they are, remote ones
   * as local copies, downloaded (several at a time) when missing.
   */
  public List<String> localPaths(List<String> locations) {
    return copies().localPaths(locations);
  }

  /**
   * Writes a file DuckDB produces: {@code writer} writes the whole file to the local path it is
   * given, which then appears at {@code location} at once (a local file is moved in place; a remote
   * one is uploaded, and the written file kept as its copy). A failed write leaves nothing.
   */
  public void write(String location, Consumer<String> writer) {
    if (isRemote(location)) {
      copies().write(location, writer);
    } else {
      writeLocal(LocalFileIO.path(location), writer);
    }
  }

  /** True when a file exists at {@code location} (a remote file with a copy, without asking). */
  public boolean exists(String location) {
    return newInputFile(location).exists();
  }

  /** A local path DuckDB reads for {@code location}: the file itself, or its local copy. */
  public String localPath(String location) {
    return localPaths(List.of(location)).get(0);
  }

  private static void writeLocal(Path target, Consumer<String> writer) {
    Path temporary =
        target.resolveSibling(".tmp-" + java.util.UUID.randomUUID() + "-" + target.getFileName());
    try {
      Files.createDirectories(target.getParent());
      writer.accept(temporary.toString());
      Files.move(
          temporary,
          target,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + target, e);
    } finally {
      deleteQuietly(temporary);
    }
  }

  @Override
  public void close() {
    LocalCopies made = copies;
    if (made != null) {
      made.close();
    }
    DelegateFileIO s3 = remote;
    if (s3 != null) {
      s3.close();
    }
  }

  private LocalFileIO localIO() {
    LocalFileIO io = local;
    if (io == null) {
      io = new LocalFileIO();
      io.initialize(properties);
      local = io;
    }
    return io;
  }

  private LocalCopies copies() {
    LocalCopies made = copies;
    if (made == null) {
      synchronized (this) {
        made = copies;
        if (made == null) {
          made = new LocalCopies(properties, this::remote);
          copies = made;
        }
      }
    }
    return made;
  }

  private DelegateFileIO remote(String location) {
    checkSupported(location);
    DelegateFileIO io = remote;
    if (io == null) {
      synchronized (this) {
        io = remote;
        if (io == null) {
          io = S3Storage.open(location, S3Settings.withDefaults(properties));
          remote = io;
        }
      }
    }
    return io;
  }

  static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // left for orphan cleanup
    }
  }

  /** A remote file read from its local copy: the same bytes, under the remote location. */
  private record CopyInputFile(String location, InputFile copy) implements InputFile {
    @Override
    public long getLength() {
      return copy.getLength();
    }

    @Override
    public org.apache.iceberg.io.SeekableInputStream newStream() {
      return copy.newStream();
    }

    @Override
    public boolean exists() {
      return true;
    }
  }
}
