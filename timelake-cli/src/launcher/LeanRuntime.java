import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Run by the ./timelake launcher as a single-file program after each build: makes RUNTIME_DIR
 * (target/runtime/ beside timelake.jar or timelake-bench.jar) with a copy of the jar that holds no
 * DuckDB native library and the libraries themselves next to it. DuckDB's driver then loads the
 * library from beside the jar instead of unpacking 70 MB to a temporary file at every start (0.3
 * s); the launcher adds a class-data-sharing archive of its own. timelake-s3.jar, when built beside the jar, is copied too.
 * Usage: java LeanRuntime.java JAR RUNTIME_DIR
 */
public class LeanRuntime {
  public static void main(String[] args) throws IOException {
    Path jar = Path.of(args[0]);
    Path runtime = Path.of(args[1]);
    Path staging = runtime.resolveSibling(runtime.getFileName() + ".tmp");
    deleteTree(staging);
    Files.createDirectories(staging);
    Path lean = staging.resolve(jar.getFileName().toString());
    Files.copy(jar, lean);
    try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + lean.toUri()), Map.of())) {
      List<Path> natives;
      try (Stream<Path> entries = Files.list(zip.getPath("/"))) {
        natives =
            entries.filter(p -> p.getFileName().toString().startsWith("libduckdb_java.so_")).toList();
      }
      for (Path library : natives) {
        Files.copy(library, staging.resolve(library.getFileName().toString()));
        Files.delete(library);
      }
      // SQLite's too (the embedded catalog), which its driver otherwise copies to a temporary file
      // and checks with a child process at every start: sqlite/<OS>/<arch>/, which the launcher
      // names with -Dorg.sqlite.lib.path. They stay in the jar for other ways of running it.
      Path sqlite = zip.getPath("/org/sqlite/native");
      if (Files.isDirectory(sqlite)) {
        try (Stream<Path> files = Files.walk(sqlite)) {
          for (Path library : files.filter(Files::isRegularFile).toList()) {
            Path target = staging.resolve("sqlite").resolve(sqlite.relativize(library).toString());
            Files.createDirectories(target.getParent());
            Files.copy(library, target);
          }
        }
      }
    }
    // The jar's Class-Path names timelake-s3.jar beside it (object storage).
    Path s3 = jar.resolveSibling("timelake-s3.jar");
    if (Files.exists(s3)) {
      Files.copy(s3, staging.resolve(s3.getFileName()));
    }
    deleteTree(runtime);
    Files.move(staging, runtime, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.delete(path);
      }
    }
  }
}
