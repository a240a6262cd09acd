package dev.timelake.engine;

import dev.timelake.QueryFailedException;
import dev.timelake.signal.SignalFunctions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * One DuckDB connection. Every failure becomes a {@link QueryFailedException} that carries DuckDB's
 * reason; callers add what they were doing. Not thread-safe.
 */
public final class EngineConnection implements AutoCloseable {
  /**
   * Results of constant expressions that do not depend on when they run, kept across statements.
   */
  private static final int STABLE_CONSTANTS = 1024;

  private final Connection connection;

  private final java.util.Map<String, java.util.Optional<Object>> stableConstants =
      new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(
            java.util.Map.Entry<String, java.util.Optional<Object>> eldest) {
          return size() > STABLE_CONSTANTS;
        }
      };

  private final Engine engine;

  /** The statement running now, for {@link #cancel}. */
  private volatile Statement running;

  private java.util.Set<String> aggregateFunctions;
  private String timeZone = "UTC";

  EngineConnection(Connection connection, Engine engine) {
    this.connection = connection;
    this.engine = engine;
  }

  /**
   * Constant results that stay the same for this connection's life (its time zone is fixed), keyed
   * by the evaluating SQL; dashboards repeat the same bounds and widths in every statement.
   */
  java.util.Map<String, java.util.Optional<Object>> stableConstants() {
    return stableConstants;
  }

  /** The names (lower case) of every aggregate function DuckDB knows, read once. */
  public java.util.Set<String> aggregateFunctions() {
    if (aggregateFunctions == null) {
      java.util.Set<String> names = new java.util.HashSet<>();
      for (List<Object> row :
          rows(
              "SELECT DISTINCT lower(function_name) FROM duckdb_functions()"
                  + " WHERE function_type = 'aggregate'")) {
        names.add(String.valueOf(row.get(0)));
      }
      aggregateFunctions = java.util.Set.copyOf(names);
    }
    return aggregateFunctions;
  }

  /**
   * The connection's time zone, as last read: UTC unless a statement changed it. Timelake's bucket
   * arithmetic and rollups work in UTC, so they step aside in any other zone.
   */
  public String timeZone() {
    return timeZone;
  }

  /** True when the connection's time zone is UTC. */
  public boolean isUtc() {
    return timeZone.equals("UTC") || timeZone.equals("Etc/UTC");
  }

  /**
   * Reads the time zone again after a statement that may have changed it; constants kept so far (a
   * TIMESTAMP literal's instant depends on the zone) are forgotten when it did.
   */
  public void readTimeZone() {
    String current = String.valueOf(scalar("SELECT current_setting('TimeZone')"));
    if (!current.equals(timeZone)) {
      timeZone = current;
      stableConstants.clear();
    }
  }

  /** Runs a statement that returns no rows. */
  public void execute(String sql) {
    engine.functionsFor(sql);
    try (Statement statement = connection.createStatement()) {
      running = statement;
      statement.execute(sql);
    } catch (SQLException e) {
      throw failed(sql, e);
    } finally {
      running = null;
    }
  }

  /**
   * Interrupts the statement this connection is running, from another thread: it fails with
   * DuckDB's interrupt error. Nothing happens when none runs.
   */
  public void cancel() {
    Statement statement = running;
    if (statement != null) {
      try {
        statement.cancel();
      } catch (SQLException e) {
        // It ended meanwhile.
      }
    }
  }

  /** Runs a query and returns its open result set; the caller closes it. */
  public ResultSet query(String sql) {
    engine.functionsFor(sql);
    try {
      Statement statement = connection.createStatement();
      statement.closeOnCompletion();
      running = statement;
      return statement.executeQuery(sql);
    } catch (SQLException e) {
      throw failed(sql, e);
    } finally {
      running = null;
    }
  }

  /** Runs a query and returns every row as a list of column values. */
  public List<List<Object>> rows(String sql) {
    try (ResultSet result = query(sql)) {
      int columns = result.getMetaData().getColumnCount();
      List<List<Object>> rows = new ArrayList<>();
      while (result.next()) {
        List<Object> row = new ArrayList<>(columns);
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    } catch (SQLException e) {
      throw failed(sql, e);
    }
  }

  /** Runs a query expected to return one value (or none, giving null). */
  public Object scalar(String sql) {
    List<List<Object>> rows = rows(sql);
    return rows.isEmpty() ? null : rows.get(0).get(0);
  }

  /** A prepared statement on this connection; the caller closes it. */
  public PreparedStatement prepare(String sql) {
    engine.functionsFor(sql);
    try {
      return connection.prepareStatement(sql);
    } catch (SQLException e) {
      throw failed(sql, e);
    }
  }

  /**
   * Defines the signal aggregates first when {@code sql} names one, for SQL run on {@link #jdbc()}
   * directly; {@link #execute}, {@link #query} and {@link #prepare} do this themselves.
   */
  public void defineFunctionsFor(String sql) {
    engine.functionsFor(sql);
  }

  /** The underlying JDBC connection, for Arrow import and export inside Timelake. */
  public Connection jdbc() {
    return connection;
  }

  /** Wraps a DuckDB failure with the statement that failed. */
  public static QueryFailedException failed(String sql, SQLException e) {
    String reason =
        SignalFunctions.explainFailure(
            javaFailure(e.getMessage() == null ? e.toString() : e.getMessage().strip()));
    return new QueryFailedException(withoutStatementContext(reason), abbreviate(sql), e);
  }

  /**
   * DuckDB's reason without the excerpt of the statement it points into ({@code LINE 1: …} and a
   * caret line): that statement is Timelake's rewrite, with file paths and internal names, not the
   * user's; {@link QueryFailedException#statement} keeps it.
   */
  static String withoutStatementContext(String reason) {
    int line = reason.indexOf("\nLINE ");
    String kept = line < 0 ? reason : reason.substring(0, line);
    return kept.replaceAll("\\b__tl_\\w+\\.", "").strip();
  }

  /**
   * A Timelake error thrown inside a Java function reaches us as DuckDB's text with the exception
   * class and stack trace in it; users need only its message.
   */
  private static String javaFailure(String message) {
    java.util.regex.Matcher thrown = JAVA_FAILURE.matcher(message);
    return thrown.find() ? thrown.group(1).strip() : message;
  }

  private static final java.util.regex.Pattern JAVA_FAILURE =
      java.util.regex.Pattern.compile(
          "^\\w+ Error: dev\\.timelake\\.(?:\\w+\\.)*\\w+Exception: (.*?)(?:\\n\\s+at |$)",
          java.util.regex.Pattern.DOTALL);

  private static String abbreviate(String sql) {
    return sql.length() <= 2000 ? sql : sql.substring(0, 2000) + " …";
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new QueryFailedException("Cannot close a DuckDB connection: " + e.getMessage(), e);
    }
  }
}
