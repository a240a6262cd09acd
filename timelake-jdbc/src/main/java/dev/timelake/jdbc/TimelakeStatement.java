package dev.timelake.jdbc;

import dev.timelake.QueryResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A statement of a Timelake connection: each execution runs one SQL statement in the connection's
 * session. A query's rows come back as DuckDB's result set ({@link TimelakeResultSet}); an INSERT
 * reports the rows it appended as its update count. Limits, fetch sizes and timeouts are kept as
 * hints, as JDBC allows.
 */
class TimelakeStatement extends StatementDefaults {
  final TimelakeConnection connection;
  private final List<String> batch = new ArrayList<>();
  private ResultSet current;
  private long updateCount = -1;
  private int maxRows;
  private int fetchSize;
  private int queryTimeout;
  private boolean closeOnCompletion;
  private boolean poolable;
  private boolean closed;

  TimelakeStatement(TimelakeConnection connection) {
    this.connection = connection;
  }

  void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLException("The statement is closed", "HY010");
    }
    connection.checkOpen();
  }

  /** Cancels statements past their query timeout; one daemon thread for every connection. */
  private static final java.util.concurrent.ScheduledExecutorService TIMEOUTS =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "timelake-jdbc-timeout");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * Runs {@code sql}; true when it returned rows, as {@link Statement#execute(String)}. Past the
   * query timeout the statement is cancelled and this throws {@link java.sql.SQLTimeoutException}.
   */
  boolean run(String sql) throws SQLException {
    checkOpen();
    closeCurrent();
    QueryResult result;
    if (queryTimeout <= 0) {
      result = connection.run(sql);
    } else {
      java.util.concurrent.atomic.AtomicBoolean expired =
          new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.ScheduledFuture<?> alarm =
          TIMEOUTS.schedule(
              () -> {
                expired.set(true);
                connection.cancel();
              },
              queryTimeout,
              java.util.concurrent.TimeUnit.SECONDS);
      try {
        result = connection.run(sql);
      } catch (SQLException e) {
        if (expired.get()) {
          throw new java.sql.SQLTimeoutException(
              "The statement ran longer than its query timeout of "
                  + queryTimeout
                  + " s and was cancelled; nothing of it was committed",
              "57014",
              e);
        }
        throw e;
      } finally {
        alarm.cancel(false);
      }
    }
    if (result.hasRows()) {
      current = new TimelakeResultSet(result.resultSet(), this, result);
      updateCount = -1;
      return true;
    }
    updateCount = result.rowCount().orElse(0);
    result.close();
    return false;
  }

  private void closeCurrent() throws SQLException {
    if (current != null) {
      ResultSet open = current;
      current = null;
      open.close();
    }
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    return run(sql);
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    if (!run(sql)) {
      throw new SQLException("The statement returned no rows: " + sql, "02000");
    }
    return current;
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    return Math.toIntExact(executeLargeUpdate(sql));
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    if (run(sql)) {
      closeCurrent();
      throw new SQLException("executeUpdate ran a query; use executeQuery: " + sql, "21000");
    }
    return updateCount;
  }

  @Override
  public ResultSet getResultSet() throws SQLException {
    checkOpen();
    return current;
  }

  @Override
  public int getUpdateCount() throws SQLException {
    return (int) Math.min(Integer.MAX_VALUE, getLargeUpdateCount());
  }

  @Override
  public long getLargeUpdateCount() throws SQLException {
    checkOpen();
    return current == null ? updateCount : -1;
  }

  /** One statement gives one result: there is never another. */
  @Override
  public boolean getMoreResults() throws SQLException {
    checkOpen();
    closeCurrent();
    updateCount = -1;
    return false;
  }

  @Override
  public boolean getMoreResults(int current) throws SQLException {
    return getMoreResults();
  }

  @Override
  public void addBatch(String sql) throws SQLException {
    checkOpen();
    batch.add(sql);
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    batch.clear();
  }

  /** Runs the batch's statements in order; each commits on its own. */
  @Override
  public int[] executeBatch() throws SQLException {
    return toInts(executeLargeBatch());
  }

  /** Update counts as {@code int}s, the largest ones capped as JDBC allows. */
  static int[] toInts(long[] counts) {
    int[] small = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      small[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
    }
    return small;
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    List<String> statements = List.copyOf(batch);
    batch.clear();
    long[] counts = new long[statements.size()];
    for (int i = 0; i < statements.size(); i++) {
      counts[i] = executeLargeUpdate(statements.get(i));
    }
    return counts;
  }

  @Override
  public void close() throws SQLException {
    if (!closed) {
      closeCurrent();
      closed = true;
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public Connection getConnection() throws SQLException {
    checkOpen();
    return connection;
  }

  @Override
  public int getMaxRows() throws SQLException {
    checkOpen();
    return maxRows;
  }

  @Override
  public void setMaxRows(int max) throws SQLException {
    checkOpen();
    if (max < 0) {
      throw new SQLException("maxRows must be zero or more, not " + max);
    }
    this.maxRows = max;
  }

  @Override
  public long getLargeMaxRows() throws SQLException {
    return getMaxRows();
  }

  @Override
  public void setLargeMaxRows(long max) throws SQLException {
    setMaxRows((int) Math.min(Integer.MAX_VALUE, max));
  }

  @Override
  public int getFetchSize() throws SQLException {
    checkOpen();
    return fetchSize;
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
    this.fetchSize = rows;
  }

  @Override
  public int getFetchDirection() {
    return ResultSet.FETCH_FORWARD;
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    if (direction != ResultSet.FETCH_FORWARD) {
      throw unsupported("fetch directions other than FETCH_FORWARD");
    }
  }

  /** Interrupts the statement this statement's connection is running, from another thread. */
  @Override
  public void cancel() throws SQLException {
    checkOpen();
    connection.cancel();
  }

  @Override
  public int getQueryTimeout() throws SQLException {
    checkOpen();
    return queryTimeout;
  }

  @Override
  public void setQueryTimeout(int seconds) throws SQLException {
    checkOpen();
    this.queryTimeout = seconds;
  }

  @Override
  public int getMaxFieldSize() {
    return 0;
  }

  @Override
  public void setMaxFieldSize(int max) {
    // No limit on field sizes.
  }

  @Override
  public void setEscapeProcessing(boolean enable) {
    // JDBC escapes are not rewritten; DuckDB's SQL is passed as written.
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    checkOpen();
    return null;
  }

  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
  }

  @Override
  public int getResultSetType() {
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public int getResultSetConcurrency() {
    return ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public int getResultSetHoldability() {
    return ResultSet.CLOSE_CURSORS_AT_COMMIT;
  }

  @Override
  public void setPoolable(boolean poolable) {
    this.poolable = poolable;
  }

  @Override
  public boolean isPoolable() {
    return poolable;
  }

  @Override
  public void closeOnCompletion() {
    closeOnCompletion = true;
  }

  @Override
  public boolean isCloseOnCompletion() {
    return closeOnCompletion;
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return Results.unwrap(this, type, "A Timelake statement");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }
}
