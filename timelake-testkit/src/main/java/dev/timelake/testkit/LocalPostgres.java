package dev.timelake.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests: initdb in a temporary folder, started on a free loopback port
 * with trust authentication, stopped and deleted on close. Found on the PATH or in Debian's {@code
 * /usr/lib/postgresql/N/bin}; as root the server runs as the {@code postgres} user (it refuses
 * root). {@link #find()} is empty where no server is installed.
 */
public final class LocalPostgres implements AutoCloseable {
  private final Path bin;
  private final Path data;
  private final int port;
  private final boolean asPostgresUser;

  private LocalPostgres(Path bin, Path data, int port, boolean asPostgresUser) {
    this.bin = bin;
    this.data = data;
    this.port = port;
    this.asPostgresUser = asPostgresUser;
  }

  /** The folder holding initdb, pg_ctl and postgres, if a server is installed. */
  public static Optional<Path> find() {
    List<Path> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      candidates.add(Path.of(dir));
    }
    Path debian = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(debian)) {
      try (Stream<Path> versions = Files.list(debian)) {
        versions
            .sorted(Comparator.reverseOrder())
            .forEach(version -> candidates.add(version.resolve("bin")));
      } catch (IOException e) {
        // none there
      }
    }
    return candidates.stream()
        .filter(dir -> Files.isExecutable(dir.resolve("initdb")))
        .filter(dir -> Files.isExecutable(dir.resolve("pg_ctl")))
        .findFirst()
        .map(LocalPostgres::realBin);
  }

  /** The folder initdb really lives in (a PATH entry may hold only links to some programs). */
  private static Path realBin(Path dir) {
    try {
      return dir.resolve("initdb").toRealPath().getParent();
    } catch (IOException e) {
      return dir.toAbsolutePath();
    }
  }

  /** Starts a new server with database {@code lake}, owned by user {@code lake}. */
  public static LocalPostgres start(Path bin) throws Exception {
    boolean root = "root".equals(System.getProperty("user.name"));
    Path data = Files.createTempDirectory("timelake-pg-");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    LocalPostgres server = new LocalPostgres(bin, data, port, root);
    if (root) {
      run(List.of("chown", "postgres", data.toString()), false);
    }
    try {
      server.pg(
          "initdb", "-D", data.resolve("db").toString(), "-A", "trust", "-U", "lake", "-E", "UTF8");
      server.pg(
          "pg_ctl",
          "-D",
          data.resolve("db").toString(),
          "-l",
          data.resolve("log.txt").toString(),
          "-w",
          "-o",
          "-h 127.0.0.1 -p " + port + " -k " + data,
          "start");
      server.pg("createdb", "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "lake", "lake");
    } catch (Exception e) {
      // A server that started before a later step failed is stopped, its folder deleted.
      try {
        server.close();
      } catch (Exception stopping) {
        e.addSuppressed(stopping);
      }
      throw e;
    }
    return server;
  }

  /** The JDBC URL of database {@code lake}. */
  public String jdbcUrl() {
    return jdbcUrl("lake");
  }

  /** The JDBC URL of a database of this server. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** Creates database {@code name}, owned by user {@code lake}; returns its JDBC URL. */
  public String newDatabase(String name) throws Exception {
    pg("createdb", "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "lake", name);
    return jdbcUrl(name);
  }

  @Override
  public void close() throws Exception {
    try {
      pg("pg_ctl", "-D", data.resolve("db").toString(), "-m", "immediate", "-w", "stop");
    } finally {
      run(List.of("rm", "-rf", data.toString()), false);
    }
  }

  private void pg(String program, String... arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(bin.resolve(program).toString());
    command.addAll(List.of(arguments));
    run(command, asPostgresUser);
  }

  private static void run(List<String> command, boolean asPostgresUser) throws Exception {
    List<String> full = new ArrayList<>();
    if (asPostgresUser) {
      full.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    full.addAll(command);
    Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", full) + " failed: " + output);
    }
  }
}
