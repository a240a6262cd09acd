package dev.timelake.engine;

import dev.timelake.ErrorCode;
import dev.timelake.QueryFailedException;
import dev.timelake.TimelakeException;
import dev.timelake.signal.SignalFunctions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.duckdb.DuckDBConnection;

/**
 * The embedded DuckDB database that runs every query, staging and file write. One per lake; {@link
 * #connect()} hands out connections that share its memory and threads but keep their own temporary
 * views and settings. Thread-safe.
 */
public final class Engine implements AutoCloseable {
  /** The name DuckDB gives the in-memory database, where the signal aggregates are defined. */
  public static final String CATALOG = "memory";

  private final DuckDBConnection database;
  private volatile boolean functionsInstalled;

  private Engine(DuckDBConnection database) {
    this.database = database;
  }

  /** Starts an in-memory DuckDB; its spill files go under {@code tempDirectory}. */
  public static Engine start(String tempDirectory) {
    try {
      Properties properties = new Properties();
      properties.setProperty("temp_directory", tempDirectory);
      properties.setProperty("preserve_insertion_order", "true");
      Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties);
      try (java.sql.Statement statement = connection.createStatement()) {
        // Timelake's data files never change once written, so their footers can be cached.
        statement.execute("SET parquet_metadata_cache = true");
      }
      return new Engine(connection.unwrap(DuckDBConnection.class));
    } catch (SQLException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot start the DuckDB engine: " + e.getMessage(), e);
    }
  }

  /**
   * Defines the signal aggregates (docs/SPEC.md §7) before {@code sql} runs when it names one of
   * them and they are not defined yet. Defining them costs about 300 ms (time_weighted_mean alone
   * 110 ms), which a command that uses none should not pay at start-up.
   */
  void functionsFor(String sql) {
    for (Installer installer : installers) {
      if (!installer.installed
          && installer.installing != Thread.currentThread()
          && installer.mention.matcher(sql).find()) {
        synchronized (installer) {
          if (!installer.installed) {
            // The installer's own statements mention the functions too.
            installer.installing = Thread.currentThread();
            try (EngineConnection connection = connect()) {
              installer.install.accept(connection);
            } finally {
              installer.installing = null;
            }
            installer.installed = true;
          }
        }
      }
    }
    if (!functionsInstalled && SignalFunctions.mentions(sql)) {
      synchronized (this) {
        if (!functionsInstalled) {
          try {
            SignalFunctions.install(database);
          } catch (SQLException e) {
            throw new TimelakeException(
                ErrorCode.INTERNAL, "Cannot define the signal aggregates: " + e.getMessage(), e);
          }
          functionsInstalled = true;
        }
      }
    }
  }

  /** Functions defined on the database the first time a statement mentions them. */
  private static final class Installer {
    final String name;
    final java.util.regex.Pattern mention;
    final java.util.function.Consumer<EngineConnection> install;
    volatile boolean installed;
    volatile Thread installing;

    Installer(
        String name,
        java.util.regex.Pattern mention,
        java.util.function.Consumer<EngineConnection> install) {
      this.name = name;
      this.mention = mention;
      this.install = install;
    }
  }

  private final java.util.List<Installer> installers =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * Defines functions on the shared database the first time a statement matches {@code mention}
   * (like the signal aggregates); a second call with the same {@code name} does nothing.
   */
  public synchronized void installWhenMentioned(
      String name,
      java.util.regex.Pattern mention,
      java.util.function.Consumer<EngineConnection> install) {
    if (installers.stream().noneMatch(installer -> installer.name.equals(name))) {
      installers.add(new Installer(name, mention, install));
    }
  }

  /** A new connection to the shared database, with the session time zone set to UTC. */
  public EngineConnection connect() {
    try {
      Connection connection = database.duplicate();
      EngineConnection engineConnection = new EngineConnection(connection, this);
      engineConnection.execute("SET TimeZone = 'UTC'");
      FunctionStability.load(engineConnection);
      return engineConnection;
    } catch (SQLException e) {
      throw new QueryFailedException("Cannot open a DuckDB connection: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      database.close();
    } catch (SQLException e) {
      throw new TimelakeException(ErrorCode.INTERNAL, "Cannot close DuckDB: " + e.getMessage(), e);
    }
  }
}
