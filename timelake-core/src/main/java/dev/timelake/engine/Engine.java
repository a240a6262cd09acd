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
