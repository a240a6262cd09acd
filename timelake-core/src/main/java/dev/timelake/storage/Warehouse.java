package dev.timelake.storage;

import static java.util.Objects.requireNonNull;

import dev.timelake.TimelakeException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a lake's tables are stored: a local folder, or a prefix on object storage ({@code
 * s3://bucket/prefix}). The location is normalized: an absolute path, or a URI without a trailing
 * slash.
 */
public record Warehouse(String location) {
  public Warehouse {
    requireNonNull(location, "location is null");
  }

  /** The warehouse a user names: a folder (relative to the working folder) or an s3:// URI. */
  public static Warehouse parse(String text) {
    requireNonNull(text, "warehouse is null");
    String trimmed = text.strip();
    if (trimmed.isEmpty()) {
      throw TimelakeException.validation("Invalid warehouse '': expected a folder or s3://bucket");
    }
    if (trimmed.startsWith("file:")) {
      return of(LocalFileIO.path(trimmed));
    }
    if (!LakeFileIO.isRemote(trimmed)) {
      return of(Path.of(trimmed));
    }
    LakeFileIO.checkSupported(trimmed);
    int scheme = trimmed.indexOf("://");
    String bucketAndPrefix = trimmed.substring(scheme + 3).replaceAll("/+$", "");
    if (bucketAndPrefix.isEmpty() || bucketAndPrefix.startsWith("/")) {
      throw TimelakeException.validation(
          "Invalid warehouse '%s': expected s3://bucket or s3://bucket/prefix", text);
    }
    return new Warehouse(
        trimmed.substring(0, scheme).toLowerCase(Locale.ROOT) + "://" + bucketAndPrefix);
  }

  /** The warehouse in a local folder. */
  public static Warehouse of(Path folder) {
    return new Warehouse(folder.toAbsolutePath().normalize().toString());
  }

  /** True for a warehouse on object storage. */
  public boolean isRemote() {
    return LakeFileIO.isRemote(location);
  }

  /** The local folder, for a warehouse that is one. */
  public Optional<Path> folder() {
    return isRemote() ? Optional.empty() : Optional.of(Path.of(location));
  }

  /** The location of a file directly in the warehouse. */
  public String resolve(String name) {
    return isRemote() ? location + "/" + name : Path.of(location).resolve(name).toString();
  }

  /**
   * The local folder for the lake's temporary files and copies of remote files: the {@value
   * LakeFileIO#CACHE_DIRECTORY} property when given; inside a local warehouse; else under {@code
   * $TIMELAKE_CACHE_DIR}, {@code $XDG_CACHE_HOME/timelake} or {@code ~/.cache/timelake}, one folder
   * per bucket and prefix.
   */
  public Path localWorkFolder(Map<String, String> environment, Map<String, String> properties) {
    String configured = properties.get(LakeFileIO.CACHE_DIRECTORY);
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    if (!isRemote()) {
      return Path.of(location).resolve(".timelake-tmp");
    }
    Path base;
    if (environment.containsKey("TIMELAKE_CACHE_DIR")) {
      base = Path.of(environment.get("TIMELAKE_CACHE_DIR"));
    } else if (environment.containsKey("XDG_CACHE_HOME")) {
      base = Path.of(environment.get("XDG_CACHE_HOME"), "timelake");
    } else {
      base = Path.of(System.getProperty("user.home"), ".cache", "timelake");
    }
    return base.resolve(location.replace("://", "/")).toAbsolutePath().normalize();
  }

  @Override
  public String toString() {
    return location;
  }
}
