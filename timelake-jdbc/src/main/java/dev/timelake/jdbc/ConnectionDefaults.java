package dev.timelake.jdbc;

import java.sql.*;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * Every {@link Connection} method {@link TimelakeConnection} does not support, failing with {@link
 * SQLFeatureNotSupportedException} that names it. Generated from the interface.
 */
abstract class ConnectionDefaults implements Connection {
  static SQLFeatureNotSupportedException unsupported(String method) {
    return new SQLFeatureNotSupportedException("Timelake's JDBC driver does not support " + method);
  }

  @Override
  public Statement createStatement() throws SQLException {
    throw unsupported("Connection.createStatement");
  }

  @Override
  public PreparedStatement prepareStatement(String a0) throws SQLException {
    throw unsupported("Connection.prepareStatement");
  }

  @Override
  public CallableStatement prepareCall(String a0) throws SQLException {
    throw unsupported("Connection.prepareCall");
  }

  @Override
  public String nativeSQL(String a0) throws SQLException {
    throw unsupported("Connection.nativeSQL");
  }

  @Override
  public void setAutoCommit(boolean a0) throws SQLException {
    throw unsupported("Connection.setAutoCommit");
  }

  @Override
  public boolean getAutoCommit() throws SQLException {
    throw unsupported("Connection.getAutoCommit");
  }

  @Override
  public void commit() throws SQLException {
    throw unsupported("Connection.commit");
  }

  @Override
  public void rollback() throws SQLException {
    throw unsupported("Connection.rollback");
  }

  @Override
  public void close() throws SQLException {
    throw unsupported("Connection.close");
  }

  @Override
  public boolean isClosed() throws SQLException {
    throw unsupported("Connection.isClosed");
  }

  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    throw unsupported("Connection.getMetaData");
  }

  @Override
  public void setReadOnly(boolean a0) throws SQLException {
    throw unsupported("Connection.setReadOnly");
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    throw unsupported("Connection.isReadOnly");
  }

  @Override
  public void setCatalog(String a0) throws SQLException {
    throw unsupported("Connection.setCatalog");
  }

  @Override
  public String getCatalog() throws SQLException {
    throw unsupported("Connection.getCatalog");
  }

  @Override
  public void setTransactionIsolation(int a0) throws SQLException {
    throw unsupported("Connection.setTransactionIsolation");
  }

  @Override
  public int getTransactionIsolation() throws SQLException {
    throw unsupported("Connection.getTransactionIsolation");
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    throw unsupported("Connection.getWarnings");
  }

  @Override
  public void clearWarnings() throws SQLException {
    throw unsupported("Connection.clearWarnings");
  }

  @Override
  public Statement createStatement(int a0, int a1) throws SQLException {
    throw unsupported("Connection.createStatement");
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int a1, int a2) throws SQLException {
    throw unsupported("Connection.prepareStatement");
  }

  @Override
  public CallableStatement prepareCall(String a0, int a1, int a2) throws SQLException {
    throw unsupported("Connection.prepareCall");
  }

  @Override
  public Map<String, Class<?>> getTypeMap() throws SQLException {
    throw unsupported("Connection.getTypeMap");
  }

  @Override
  public void setTypeMap(Map<String, Class<?>> a0) throws SQLException {
    throw unsupported("Connection.setTypeMap");
  }

  @Override
  public void setHoldability(int a0) throws SQLException {
    throw unsupported("Connection.setHoldability");
  }

  @Override
  public int getHoldability() throws SQLException {
    throw unsupported("Connection.getHoldability");
  }

  @Override
  public Savepoint setSavepoint() throws SQLException {
    throw unsupported("Connection.setSavepoint");
  }

  @Override
  public Savepoint setSavepoint(String a0) throws SQLException {
    throw unsupported("Connection.setSavepoint");
  }

  @Override
  public void rollback(Savepoint a0) throws SQLException {
    throw unsupported("Connection.rollback");
  }

  @Override
  public void releaseSavepoint(Savepoint a0) throws SQLException {
    throw unsupported("Connection.releaseSavepoint");
  }

  @Override
  public Statement createStatement(int a0, int a1, int a2) throws SQLException {
    throw unsupported("Connection.createStatement");
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int a1, int a2, int a3) throws SQLException {
    throw unsupported("Connection.prepareStatement");
  }

  @Override
  public CallableStatement prepareCall(String a0, int a1, int a2, int a3) throws SQLException {
    throw unsupported("Connection.prepareCall");
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int a1) throws SQLException {
    throw unsupported("Connection.prepareStatement");
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int[] a1) throws SQLException {
    throw unsupported("Connection.prepareStatement");
  }

  @Override
  public PreparedStatement prepareStatement(String a0, String[] a1) throws SQLException {
    throw unsupported("Connection.prepareStatement");
  }

  @Override
  public Clob createClob() throws SQLException {
    throw unsupported("Connection.createClob");
  }

  @Override
  public Blob createBlob() throws SQLException {
    throw unsupported("Connection.createBlob");
  }

  @Override
  public NClob createNClob() throws SQLException {
    throw unsupported("Connection.createNClob");
  }

  @Override
  public SQLXML createSQLXML() throws SQLException {
    throw unsupported("Connection.createSQLXML");
  }

  @Override
  public boolean isValid(int a0) throws SQLException {
    throw unsupported("Connection.isValid");
  }

  @Override
  public void setClientInfo(String a0, String a1) throws SQLClientInfoException {
    throw new UnsupportedOperationException(unsupported("Connection.setClientInfo").getMessage());
  }

  @Override
  public void setClientInfo(Properties a0) throws SQLClientInfoException {
    throw new UnsupportedOperationException(unsupported("Connection.setClientInfo").getMessage());
  }

  @Override
  public String getClientInfo(String a0) throws SQLException {
    throw unsupported("Connection.getClientInfo");
  }

  @Override
  public Properties getClientInfo() throws SQLException {
    throw unsupported("Connection.getClientInfo");
  }

  @Override
  public Array createArrayOf(String a0, Object[] a1) throws SQLException {
    throw unsupported("Connection.createArrayOf");
  }

  @Override
  public Struct createStruct(String a0, Object[] a1) throws SQLException {
    throw unsupported("Connection.createStruct");
  }

  @Override
  public void setSchema(String a0) throws SQLException {
    throw unsupported("Connection.setSchema");
  }

  @Override
  public String getSchema() throws SQLException {
    throw unsupported("Connection.getSchema");
  }

  @Override
  public void abort(Executor a0) throws SQLException {
    throw unsupported("Connection.abort");
  }

  @Override
  public void setNetworkTimeout(Executor a0, int a1) throws SQLException {
    throw unsupported("Connection.setNetworkTimeout");
  }

  @Override
  public int getNetworkTimeout() throws SQLException {
    throw unsupported("Connection.getNetworkTimeout");
  }
}
