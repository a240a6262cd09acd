package dev.timelake.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Iceberg file IO for a local disk through {@code java.nio}: no Hadoop configuration to parse, no
 * checksum side files and no processes forked to set permissions, which made every commit of the
 * embedded lake several times slower. Accepts plain paths and {@code file:} URIs.
 */
public final class LocalFileIO implements FileIO, SupportsPrefixOperations {
  private java.util.Map<String, String> properties = java.util.Map.of();

  @Override
  public void initialize(java.util.Map<String, String> catalogProperties) {
    this.properties = java.util.Map.copyOf(catalogProperties);
  }

  /** The catalog properties, which Iceberg reads for settings such as the manifest cache. */
  @Override
  public java.util.Map<String, String> properties() {
    return properties;
  }

  @Override
  public InputFile newInputFile(String location) {
    return new LocalInputFile(location, path(location));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new LocalOutputFile(location, path(location));
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(path(location));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + location, e);
    }
  }

  /**
   * Every file under the folder {@code prefix}, as absolute paths with their size and last
   * modification (the nearest a local disk has to a creation time); nothing when it is no folder.
   */
  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Path root = path(prefix);
    if (!Files.isDirectory(root)) {
      return java.util.List.of();
    }
    java.util.List<FileInfo> files = new java.util.ArrayList<>();
    try {
      Files.walkFileTree(
          root,
          new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(
                Path file, java.nio.file.attribute.BasicFileAttributes attributes) {
              if (attributes.isRegularFile()) {
                files.add(
                    new FileInfo(
                        file.toAbsolutePath().normalize().toString(),
                        attributes.size(),
                        attributes.lastModifiedTime().toMillis()));
              }
              return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e)
                throws IOException {
              if (e instanceof NoSuchFileException) {
                return java.nio.file.FileVisitResult.CONTINUE; // deleted while listed
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + prefix, e);
    }
    return files;
  }

  /** Deletes every file under the folder {@code prefix}, and the folders. */
  @Override
  public void deletePrefix(String prefix) {
    for (FileInfo file : listPrefix(prefix)) {
      deleteFile(file.location());
    }
    deleteEmptyFolders(path(prefix));
  }

  /**
   * Deletes the folders under (and including) {@code root} that hold no file: Iceberg's purge of a
   * dropped table deletes files, not folders. A file someone else put there keeps its folders.
   */
  public static void deleteEmptyFolders(Path root) {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
      java.util.List<Path> folders =
          paths.filter(Files::isDirectory).sorted(java.util.Comparator.reverseOrder()).toList();
      for (Path folder : folders) {
        try (java.util.stream.Stream<Path> entries = Files.list(folder)) {
          if (entries.findAny().isEmpty()) {
            Files.delete(folder);
          }
        }
      }
    } catch (IOException e) {
      // Folders left behind are untidy, not wrong.
    }
  }

  /** The local path of a plain path or {@code file:} URI. */
  public static Path path(String location) {
    if (location.startsWith("file:")) {
      return Path.of(
          URI.create(
              location.startsWith("file:/") && !location.startsWith("file://")
                  ? "file://" + location.substring("file:".length())
                  : location));
    }
    return Path.of(location);
  }

  private record LocalInputFile(String location, Path path) implements InputFile {
    @Override
    public long getLength() {
      try {
        return Files.size(path);
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the size of " + location, e);
      }
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new ChannelInputStream(FileChannel.open(path, StandardOpenOption.READ));
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot open " + location, e);
      }
    }

    @Override
    public boolean exists() {
      return Files.exists(path);
    }
  }

  private record LocalOutputFile(String location, Path path) implements OutputFile {
    @Override
    public PositionOutputStream create() {
      return open(StandardOpenOption.CREATE_NEW);
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private PositionOutputStream open(StandardOpenOption... options) {
      try {
        Files.createDirectories(path.getParent());
        OutputStream stream = Files.newOutputStream(path, with(options, StandardOpenOption.WRITE));
        return new CountingOutputStream(new java.io.BufferedOutputStream(stream, 64 * 1024));
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException(e, "File already exists: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create " + location, e);
      }
    }

    private static StandardOpenOption[] with(
        StandardOpenOption[] options, StandardOpenOption extra) {
      StandardOpenOption[] all = java.util.Arrays.copyOf(options, options.length + 1);
      all[options.length] = extra;
      return all;
    }

    @Override
    public InputFile toInputFile() {
      return new LocalInputFile(location, path);
    }
  }

  private static final class ChannelInputStream extends SeekableInputStream {
    private final FileChannel channel;

    ChannelInputStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void seek(long newPos) throws IOException {
      channel.position(newPos);
    }

    @Override
    public int read() throws IOException {
      ByteBuffer one = ByteBuffer.allocate(1);
      int read = channel.read(one);
      return read <= 0 ? -1 : one.get(0) & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
      return channel.read(ByteBuffer.wrap(bytes, offset, length));
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private static final class CountingOutputStream extends PositionOutputStream {
    private final OutputStream out;
    private long position;

    CountingOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
      position += length;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
