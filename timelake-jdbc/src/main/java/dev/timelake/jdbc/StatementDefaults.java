package dev.timelake.jdbc;

import java.sql.*;

/**
 * Every {@link Statement} method {@link TimelakeStatement} does not support, failing with {@link
 * SQLFeatureNotSupportedException} that names it. Generated from the interface.
 */
abstract class StatementDefaults implements Statement {
  static SQLFeatureNotSupportedException unsupported(String method) {
    return ConnectionDefaults.unsupported(method);
  }

  @Override
  public ResultSet executeQuery(String a0) throws SQLException {
    throw unsupported("Statement.executeQuery");
  }

  @Override
  public int executeUpdate(String a0) throws SQLException {
    throw unsupported("Statement.executeUpdate");
  }

  @Override
  public void close() throws SQLException {
    throw unsupported("Statement.close");
  }

  @Override
  public int getMaxFieldSize() throws SQLException {
    throw unsupported("Statement.getMaxFieldSize");
  }

  @Override
  public void setMaxFieldSize(int a0) throws SQLException {
    throw unsupported("Statement.setMaxFieldSize");
  }

  @Override
  public int getMaxRows() throws SQLException {
    throw unsupported("Statement.getMaxRows");
  }

  @Override
  public void setMaxRows(int a0) throws SQLException {
    throw unsupported("Statement.setMaxRows");
  }

  @Override
  public void setEscapeProcessing(boolean a0) throws SQLException {
    throw unsupported("Statement.setEscapeProcessing");
  }

  @Override
  public int getQueryTimeout() throws SQLException {
    throw unsupported("Statement.getQueryTimeout");
  }

  @Override
  public void setQueryTimeout(int a0) throws SQLException {
    throw unsupported("Statement.setQueryTimeout");
  }

  @Override
  public void cancel() throws SQLException {
    throw unsupported("Statement.cancel");
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    throw unsupported("Statement.getWarnings");
  }

  @Override
  public void clearWarnings() throws SQLException {
    throw unsupported("Statement.clearWarnings");
  }

  @Override
  public void setCursorName(String a0) throws SQLException {
    throw unsupported("Statement.setCursorName");
  }

  @Override
  public boolean execute(String a0) throws SQLException {
    throw unsupported("Statement.execute");
  }

  @Override
  public ResultSet getResultSet() throws SQLException {
    throw unsupported("Statement.getResultSet");
  }

  @Override
  public int getUpdateCount() throws SQLException {
    throw unsupported("Statement.getUpdateCount");
  }

  @Override
  public boolean getMoreResults() throws SQLException {
    throw unsupported("Statement.getMoreResults");
  }

  @Override
  public void setFetchDirection(int a0) throws SQLException {
    throw unsupported("Statement.setFetchDirection");
  }

  @Override
  public int getFetchDirection() throws SQLException {
    throw unsupported("Statement.getFetchDirection");
  }

  @Override
  public void setFetchSize(int a0) throws SQLException {
    throw unsupported("Statement.setFetchSize");
  }

  @Override
  public int getFetchSize() throws SQLException {
    throw unsupported("Statement.getFetchSize");
  }

  @Override
  public int getResultSetConcurrency() throws SQLException {
    throw unsupported("Statement.getResultSetConcurrency");
  }

  @Override
  public int getResultSetType() throws SQLException {
    throw unsupported("Statement.getResultSetType");
  }

  @Override
  public void addBatch(String a0) throws SQLException {
    throw unsupported("Statement.addBatch");
  }

  @Override
  public void clearBatch() throws SQLException {
    throw unsupported("Statement.clearBatch");
  }

  @Override
  public int[] executeBatch() throws SQLException {
    throw unsupported("Statement.executeBatch");
  }

  @Override
  public Connection getConnection() throws SQLException {
    throw unsupported("Statement.getConnection");
  }

  @Override
  public boolean getMoreResults(int a0) throws SQLException {
    throw unsupported("Statement.getMoreResults");
  }

  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    throw unsupported("Statement.getGeneratedKeys");
  }

  @Override
  public int executeUpdate(String a0, int a1) throws SQLException {
    throw unsupported("Statement.executeUpdate");
  }

  @Override
  public int executeUpdate(String a0, int[] a1) throws SQLException {
    throw unsupported("Statement.executeUpdate");
  }

  @Override
  public int executeUpdate(String a0, String[] a1) throws SQLException {
    throw unsupported("Statement.executeUpdate");
  }

  @Override
  public boolean execute(String a0, int a1) throws SQLException {
    throw unsupported("Statement.execute");
  }

  @Override
  public boolean execute(String a0, int[] a1) throws SQLException {
    throw unsupported("Statement.execute");
  }

  @Override
  public boolean execute(String a0, String[] a1) throws SQLException {
    throw unsupported("Statement.execute");
  }

  @Override
  public int getResultSetHoldability() throws SQLException {
    throw unsupported("Statement.getResultSetHoldability");
  }

  @Override
  public boolean isClosed() throws SQLException {
    throw unsupported("Statement.isClosed");
  }

  @Override
  public void setPoolable(boolean a0) throws SQLException {
    throw unsupported("Statement.setPoolable");
  }

  @Override
  public boolean isPoolable() throws SQLException {
    throw unsupported("Statement.isPoolable");
  }

  @Override
  public void closeOnCompletion() throws SQLException {
    throw unsupported("Statement.closeOnCompletion");
  }

  @Override
  public boolean isCloseOnCompletion() throws SQLException {
    throw unsupported("Statement.isCloseOnCompletion");
  }
}
