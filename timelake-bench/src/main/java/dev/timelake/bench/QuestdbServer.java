package dev.timelake.bench;

import dev.timelake.ErrorCode;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import io.questdb.ServerMain;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * QuestDB for the benchmark, in a child JVM of its own (its heap, off-heap memory and worker
 * threads apart from the engines measured beside it): started in a folder of its own, bound to
 * 127.0.0.1 with only its PostgreSQL protocol on (no HTTP, no line protocol, no telemetry), loaded
 * with the plant's readings after copies are removed (the newest {@code _ingest_ts} wins, the rule
 * {@code duckdb-qualify} uses) into a WAL table with {@code DEDUP UPSERT KEYS(time, tag)}, and
 * given the materialized views of {@link QuestdbQueries#VIEW_DEFINITIONS}. Closing it stops the
 * server and deletes its folder.
 *
 * <p>The readings travel as one Parquet file sorted by time, written by DuckDB from the table's
 * data files and read by QuestDB's {@code read_parquet}: the fastest bulk path QuestDB offers, so
 * the load figure is QuestDB's own.
 */
public final class QuestdbServer implements AutoCloseable {
  /** QuestDB's built-in user, accepted only on loopback here. */
  private static final String USER = "admin";

  private static final String PASSWORD = "quest";
  private static final Duration WAIT = Duration.ofMinutes(60);

  private static final Duration START = Duration.ofMinutes(2);

  private final Path root;
  private final Process server;
  private final int pgPort;
  private final int httpPort;

  private QuestdbServer(Path root, Process server, int pgPort, int httpPort) {
    this.root = root;
    this.server = server;
    this.pgPort = pgPort;
    this.httpPort = httpPort;
  }

  /**
   * Starts QuestDB in a new folder under {@code parent}.
   *
   * @throws TimelakeException if it cannot start
   */
  static QuestdbServer start(Path parent) {
    return start(parent, false);
  }

  /**
   * Like {@link #start(Path)}; with {@code http}, its HTTP side is on too (on 127.0.0.1, at {@link
   * #httpPort()}), for line protocol over HTTP.
   */
  public static QuestdbServer start(Path parent, boolean http) {
    Path root = null;
    try {
      Files.createDirectories(parent);
      root = Files.createTempDirectory(parent, "questdb-");
      Path conf = Files.createDirectories(root.resolve("conf"));
      Files.createDirectories(root.resolve("import"));
      int pgPort = freePort();
      int httpPort = http ? freePort() : -1;
      Files.writeString(
          conf.resolve("server.conf"),
          String.join(
              "\n",
              "pg.net.bind.to=127.0.0.1:" + pgPort,
              http ? "http.net.bind.to=127.0.0.1:" + httpPort : "http.enabled=false",
              "http.min.enabled=false",
              "line.tcp.enabled=false",
              "line.udp.enabled=false",
              "telemetry.enabled=false",
              // A benchmark query may run for minutes, and a connection waits idle while the
              // other targets run theirs: neither may be cut off (defaults: 1 minute, 5 minutes).
              "query.timeout=2h",
              "pg.net.connection.timeout=86400000",
              "cairo.sql.copy.root=" + root.resolve("import"),
              ""));
      // QuestDB's log goes to a file in its folder: its banner and advisories would bury the
      // progress. Failures reach the runner as SQL errors.
      Files.writeString(
          conf.resolve("log.conf"),
          String.join(
              "\n",
              "writers=file",
              "w.file.class=io.questdb.log.LogFileWriter",
              "w.file.location=" + root.resolve("questdb.log"),
              "w.file.level=ERROR,CRITICAL,ADVISORY",
              ""));
      Process server =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  ServerMain.class.getName(),
                  "-d",
                  root.toString())
              .redirectErrorStream(true)
              .redirectOutput(root.resolve("console.log").toFile())
              .start();
      QuestdbServer started = new QuestdbServer(root, server, pgPort, httpPort);
      try {
        started.awaitConnections();
      } catch (RuntimeException e) {
        server.destroyForcibly();
        throw e;
      }
      return started;
    } catch (IOException | RuntimeException e) {
      if (root != null) {
        delete(root);
      }
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot start QuestDB for the benchmark: " + e.getMessage(), e);
    }
  }

  /** Waits until the child answers on its PostgreSQL port; fails if it exits or takes too long. */
  private void awaitConnections() {
    long deadline = System.nanoTime() + START.toNanos();
    while (true) {
      if (!server.isAlive()) {
        throw new IllegalStateException(
            "QuestDB exited with status "
                + server.exitValue()
                + "; see "
                + root.resolve("console.log"));
      }
      try (Connection ignored = connect()) {
        return;
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "QuestDB did not accept connections within " + START.toSeconds() + " s", e);
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while QuestDB started", e);
      }
    }
  }

  /** QuestDB's version, from its Maven metadata (kept in a shaded jar too). */
  public static String version() {
    try (InputStream in =
        ServerMain.class.getResourceAsStream(
            "/META-INF/maven/org.questdb/questdb/pom.properties")) {
      if (in == null) {
        return "(version unknown)";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "(version unknown)");
    } catch (IOException e) {
      return "(version unknown)";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The port of QuestDB's HTTP side, when started with it. */
  public int httpPort() {
    if (httpPort < 0) {
      throw new IllegalStateException("QuestDB was started without its HTTP side");
    }
    return httpPort;
  }

  /** A new connection over QuestDB's PostgreSQL protocol. */
  public Connection connect() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", USER);
    properties.setProperty("password", PASSWORD);
    properties.setProperty("sslmode", "disable");
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + pgPort + "/qdb", properties);
  }

  /**
   * Loads the readings without copies and the tags, then builds the views; returns the figures of
   * the three steps.
   *
   * @throws TimelakeException if a step fails
   */
  List<OperationFigure> load(
      DataFiles readings, DataFiles tags, String memoryLimit, Consumer<String> progress) {
    List<OperationFigure> figures = new ArrayList<>();
    Path imports = root.resolve("import");
    progress.accept("QuestDB: exporting the readings without copies");
    long exportStarted = System.nanoTime();
    long rows = export(readings, tags, imports, memoryLimit);
    figures.add(
        OperationFigure.measured(
            "QuestDB: export readings without copies to one Parquet file (DuckDB)",
            Duration.ofNanos(System.nanoTime() - exportStarted),
            String.format(Locale.ROOT, "%,d readings, sorted by time", rows)));
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE tags (tag SYMBOL, line SYMBOL, machine SYMBOL, unit SYMBOL, low DOUBLE,"
              + " high DOUBLE)");
      statement.execute(
          "INSERT INTO tags SELECT tag, line, machine, unit, low, high FROM"
              + " read_parquet('tags.parquet')");
      statement.execute(
          "CREATE TABLE readings (tag SYMBOL CAPACITY 4096, time TIMESTAMP, value DOUBLE,"
              + " quality INT) TIMESTAMP(time) PARTITION BY DAY WAL DEDUP UPSERT KEYS(time, tag)");
      progress.accept("QuestDB: loading " + String.format(Locale.ROOT, "%,d", rows) + " readings");
      long loadStarted = System.nanoTime();
      statement.execute(
          "INSERT INTO readings SELECT tag, time, value, quality FROM"
              + " read_parquet('readings.parquet')");
      awaitRows(statement, rows);
      Duration load = Duration.ofNanos(System.nanoTime() - loadStarted);
      figures.add(
          OperationFigure.measured(
              "QuestDB: bulk load (read_parquet into a WAL table with DEDUP UPSERT KEYS(time, tag))",
              load,
              String.format(
                  Locale.ROOT,
                  "%,d readings, %,.0f readings/s, until every row is visible",
                  rows,
                  rows / (load.toNanos() / 1e9))));
      progress.accept("QuestDB: building the materialized views");
      long viewsStarted = System.nanoTime();
      for (String view : QuestdbQueries.VIEW_DEFINITIONS) {
        statement.execute(view);
      }
      awaitViews(statement);
      figures.add(
          OperationFigure.measured(
              "QuestDB: build materialized views readings_1h and readings_1d",
              Duration.ofNanos(System.nanoTime() - viewsStarted),
              "SAMPLE BY 1h and 1d over the loaded table, until both are refreshed"));
    } catch (SQLException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot load QuestDB for the benchmark: " + e.getMessage(), e);
    }
    return figures;
  }

  /**
   * Writes readings.parquet (copies removed, sorted by time) and tags.parquet; returns the rows.
   */
  private static long export(DataFiles readings, DataFiles tags, Path imports, String memoryLimit) {
    List<String> key = new ArrayList<>(readings.seriesKey());
    key.add(readings.timeColumn());
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      statement.execute("SET memory_limit = " + SqlText.literal(memoryLimit));
      statement.execute("SET preserve_insertion_order = false");
      statement.execute(
          "COPY (SELECT tag, time, value, quality FROM "
              + readings.readParquet()
              + " QUALIFY row_number() OVER (PARTITION BY "
              + SqlText.identifiers(key)
              + " ORDER BY "
              + SqlText.identifier(readings.ingestTimeColumn())
              + " DESC) = 1 ORDER BY time) TO "
              + SqlText.literal(imports.resolve("readings.parquet").toString())
              + " (FORMAT parquet)");
      statement.execute(
          "COPY (SELECT tag, line, machine, unit, low, high FROM "
              + tags.readParquet()
              + ") TO "
              + SqlText.literal(imports.resolve("tags.parquet").toString())
              + " (FORMAT parquet)");
      try (ResultSet result =
          statement.executeQuery(
              "SELECT count(*) FROM read_parquet("
                  + SqlText.literal(imports.resolve("readings.parquet").toString())
                  + ")")) {
        result.next();
        return result.getLong(1);
      }
    } catch (SQLException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL,
          "Cannot export the readings for QuestDB: " + e.getMessage() + " (in " + imports + ")",
          e);
    }
  }

  /** WAL tables apply their commits in the background: waits until every row is visible. */
  private static void awaitRows(Statement statement, long rows) throws SQLException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try (ResultSet result = statement.executeQuery("SELECT count() FROM readings")) {
        result.next();
        long visible = result.getLong(1);
        if (visible == rows) {
          return;
        }
        if (visible > rows || System.nanoTime() > deadline) {
          throw new TimelakeException(
              ErrorCode.INTERNAL,
              String.format(
                  Locale.ROOT,
                  "QuestDB shows %,d readings after the load, expected %,d",
                  visible,
                  rows));
        }
      }
      pause();
    }
  }

  /** Views refresh in the background: waits until each has caught up with the table. */
  private static void awaitViews(Statement statement) throws SQLException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      boolean ready = true;
      try (ResultSet result =
          statement.executeQuery(
              "SELECT view_name, view_status, refresh_base_table_txn, base_table_txn,"
                  + " invalidation_reason FROM materialized_views()")) {
        while (result.next()) {
          String status = result.getString(2);
          if ("invalid".equals(status)) {
            throw new TimelakeException(
                ErrorCode.INTERNAL,
                "QuestDB's view " + result.getString(1) + " is invalid: " + result.getString(5));
          }
          ready &= result.getLong(3) == result.getLong(4) && result.getLong(3) > 0;
        }
      }
      if (ready) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new TimelakeException(
            ErrorCode.INTERNAL, "QuestDB's views did not finish refreshing");
      }
      pause();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TimelakeException(ErrorCode.INTERNAL, "Interrupted while waiting for QuestDB", e);
    }
  }

  /** The query targets among {@code chosen}: the raw table, the views, or both. */
  List<QueryTarget> targets(Set<Configuration> chosen) {
    List<QueryTarget> targets = new ArrayList<>();
    try {
      for (Configuration configuration :
          List.of(Configuration.QUESTDB, Configuration.QUESTDB_VIEWS)) {
        if (chosen.contains(configuration)) {
          targets.add(new QuestdbTarget(configuration, this::connect));
        }
      }
      return targets;
    } catch (SQLException e) {
      targets.forEach(QueryTarget::close);
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot connect to QuestDB: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    server.destroy();
    try {
      if (!server.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    delete(root);
  }

  private static void delete(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete QuestDB's folder " + root, e);
    }
  }
}
