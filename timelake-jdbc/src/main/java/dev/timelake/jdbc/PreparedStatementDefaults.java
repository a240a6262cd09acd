package dev.timelake.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.*;
import java.util.Calendar;

/**
 * Every {@link PreparedStatement} method {@link TimelakePreparedStatement} does not support,
 * failing with {@link SQLFeatureNotSupportedException} that names it. Generated from the interface.
 */
abstract class PreparedStatementDefaults extends TimelakeStatement implements PreparedStatement {
  PreparedStatementDefaults(TimelakeConnection connection) {
    super(connection);
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    throw unsupported("PreparedStatement.executeQuery");
  }

  @Override
  public int executeUpdate() throws SQLException {
    throw unsupported("PreparedStatement.executeUpdate");
  }

  @Override
  public void setNull(int a0, int a1) throws SQLException {
    throw unsupported("PreparedStatement.setNull");
  }

  @Override
  public void setBoolean(int a0, boolean a1) throws SQLException {
    throw unsupported("PreparedStatement.setBoolean");
  }

  @Override
  public void setByte(int a0, byte a1) throws SQLException {
    throw unsupported("PreparedStatement.setByte");
  }

  @Override
  public void setShort(int a0, short a1) throws SQLException {
    throw unsupported("PreparedStatement.setShort");
  }

  @Override
  public void setInt(int a0, int a1) throws SQLException {
    throw unsupported("PreparedStatement.setInt");
  }

  @Override
  public void setLong(int a0, long a1) throws SQLException {
    throw unsupported("PreparedStatement.setLong");
  }

  @Override
  public void setFloat(int a0, float a1) throws SQLException {
    throw unsupported("PreparedStatement.setFloat");
  }

  @Override
  public void setDouble(int a0, double a1) throws SQLException {
    throw unsupported("PreparedStatement.setDouble");
  }

  @Override
  public void setBigDecimal(int a0, BigDecimal a1) throws SQLException {
    throw unsupported("PreparedStatement.setBigDecimal");
  }

  @Override
  public void setString(int a0, String a1) throws SQLException {
    throw unsupported("PreparedStatement.setString");
  }

  @Override
  public void setBytes(int a0, byte[] a1) throws SQLException {
    throw unsupported("PreparedStatement.setBytes");
  }

  @Override
  public void setDate(int a0, Date a1) throws SQLException {
    throw unsupported("PreparedStatement.setDate");
  }

  @Override
  public void setTime(int a0, Time a1) throws SQLException {
    throw unsupported("PreparedStatement.setTime");
  }

  @Override
  public void setTimestamp(int a0, Timestamp a1) throws SQLException {
    throw unsupported("PreparedStatement.setTimestamp");
  }

  @Override
  public void setAsciiStream(int a0, InputStream a1, int a2) throws SQLException {
    throw unsupported("PreparedStatement.setAsciiStream");
  }

  @Override
  public void setUnicodeStream(int a0, InputStream a1, int a2) throws SQLException {
    throw unsupported("PreparedStatement.setUnicodeStream");
  }

  @Override
  public void setBinaryStream(int a0, InputStream a1, int a2) throws SQLException {
    throw unsupported("PreparedStatement.setBinaryStream");
  }

  @Override
  public void clearParameters() throws SQLException {
    throw unsupported("PreparedStatement.clearParameters");
  }

  @Override
  public void setObject(int a0, Object a1, int a2) throws SQLException {
    throw unsupported("PreparedStatement.setObject");
  }

  @Override
  public void setObject(int a0, Object a1) throws SQLException {
    throw unsupported("PreparedStatement.setObject");
  }

  @Override
  public boolean execute() throws SQLException {
    throw unsupported("PreparedStatement.execute");
  }

  @Override
  public void addBatch() throws SQLException {
    throw unsupported("PreparedStatement.addBatch");
  }

  @Override
  public void setCharacterStream(int a0, Reader a1, int a2) throws SQLException {
    throw unsupported("PreparedStatement.setCharacterStream");
  }

  @Override
  public void setRef(int a0, Ref a1) throws SQLException {
    throw unsupported("PreparedStatement.setRef");
  }

  @Override
  public void setBlob(int a0, Blob a1) throws SQLException {
    throw unsupported("PreparedStatement.setBlob");
  }

  @Override
  public void setClob(int a0, Clob a1) throws SQLException {
    throw unsupported("PreparedStatement.setClob");
  }

  @Override
  public void setArray(int a0, Array a1) throws SQLException {
    throw unsupported("PreparedStatement.setArray");
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    throw unsupported("PreparedStatement.getMetaData");
  }

  @Override
  public void setDate(int a0, Date a1, Calendar a2) throws SQLException {
    throw unsupported("PreparedStatement.setDate");
  }

  @Override
  public void setTime(int a0, Time a1, Calendar a2) throws SQLException {
    throw unsupported("PreparedStatement.setTime");
  }

  @Override
  public void setTimestamp(int a0, Timestamp a1, Calendar a2) throws SQLException {
    throw unsupported("PreparedStatement.setTimestamp");
  }

  @Override
  public void setNull(int a0, int a1, String a2) throws SQLException {
    throw unsupported("PreparedStatement.setNull");
  }

  @Override
  public void setURL(int a0, URL a1) throws SQLException {
    throw unsupported("PreparedStatement.setURL");
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    throw unsupported("PreparedStatement.getParameterMetaData");
  }

  @Override
  public void setRowId(int a0, RowId a1) throws SQLException {
    throw unsupported("PreparedStatement.setRowId");
  }

  @Override
  public void setNString(int a0, String a1) throws SQLException {
    throw unsupported("PreparedStatement.setNString");
  }

  @Override
  public void setNCharacterStream(int a0, Reader a1, long a2) throws SQLException {
    throw unsupported("PreparedStatement.setNCharacterStream");
  }

  @Override
  public void setNClob(int a0, NClob a1) throws SQLException {
    throw unsupported("PreparedStatement.setNClob");
  }

  @Override
  public void setClob(int a0, Reader a1, long a2) throws SQLException {
    throw unsupported("PreparedStatement.setClob");
  }

  @Override
  public void setBlob(int a0, InputStream a1, long a2) throws SQLException {
    throw unsupported("PreparedStatement.setBlob");
  }

  @Override
  public void setNClob(int a0, Reader a1, long a2) throws SQLException {
    throw unsupported("PreparedStatement.setNClob");
  }

  @Override
  public void setSQLXML(int a0, SQLXML a1) throws SQLException {
    throw unsupported("PreparedStatement.setSQLXML");
  }

  @Override
  public void setObject(int a0, Object a1, int a2, int a3) throws SQLException {
    throw unsupported("PreparedStatement.setObject");
  }

  @Override
  public void setAsciiStream(int a0, InputStream a1, long a2) throws SQLException {
    throw unsupported("PreparedStatement.setAsciiStream");
  }

  @Override
  public void setBinaryStream(int a0, InputStream a1, long a2) throws SQLException {
    throw unsupported("PreparedStatement.setBinaryStream");
  }

  @Override
  public void setCharacterStream(int a0, Reader a1, long a2) throws SQLException {
    throw unsupported("PreparedStatement.setCharacterStream");
  }

  @Override
  public void setAsciiStream(int a0, InputStream a1) throws SQLException {
    throw unsupported("PreparedStatement.setAsciiStream");
  }

  @Override
  public void setBinaryStream(int a0, InputStream a1) throws SQLException {
    throw unsupported("PreparedStatement.setBinaryStream");
  }

  @Override
  public void setCharacterStream(int a0, Reader a1) throws SQLException {
    throw unsupported("PreparedStatement.setCharacterStream");
  }

  @Override
  public void setNCharacterStream(int a0, Reader a1) throws SQLException {
    throw unsupported("PreparedStatement.setNCharacterStream");
  }

  @Override
  public void setClob(int a0, Reader a1) throws SQLException {
    throw unsupported("PreparedStatement.setClob");
  }

  @Override
  public void setBlob(int a0, InputStream a1) throws SQLException {
    throw unsupported("PreparedStatement.setBlob");
  }

  @Override
  public void setNClob(int a0, Reader a1) throws SQLException {
    throw unsupported("PreparedStatement.setNClob");
  }
}
