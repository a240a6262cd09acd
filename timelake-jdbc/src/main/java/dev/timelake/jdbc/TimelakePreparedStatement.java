package dev.timelake.jdbc;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ParameterMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A prepared statement: its {@code ?} parameters become SQL literals at each execution ({@link
 * SqlParameters}). A batch of {@code INSERT … VALUES (?, …)} runs as one INSERT with one row per
 * parameter set, so it commits as one append; other batches run statement by statement.
 */
final class TimelakePreparedStatement extends PreparedStatementDefaults {
  /** {@code INSERT … VALUES (…)} with one row of values, the row as group 2. */
  private static final Pattern INSERT_VALUES =
      Pattern.compile(
          "(?is)^(\\s*(?:INSERT|UPSERT)\\s+INTO\\s.*?\\bVALUES\\s*)(\\(.*\\))\\s*;?\\s*$");

  private final String sql;
  private final SqlParameters parameters;
  private final Map<Integer, String> literals = new HashMap<>();
  private final List<Map<Integer, String>> batch = new ArrayList<>();

  TimelakePreparedStatement(TimelakeConnection connection, String sql) {
    super(connection);
    this.sql = sql;
    this.parameters = SqlParameters.of(sql);
  }

  private void set(int index, Object value) throws SQLException {
    checkOpen();
    if (index < 1 || index > parameters.count()) {
      throw new SQLException(
          "Parameter index " + index + " is out of range: the statement has " + parameters.count(),
          "07009");
    }
    literals.put(index, SqlParameters.literal(value));
  }

  @Override
  public boolean execute() throws SQLException {
    return run(parameters.render(literals));
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    return executeQuery(parameters.render(literals));
  }

  @Override
  public int executeUpdate() throws SQLException {
    return executeUpdate(parameters.render(literals));
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    return executeLargeUpdate(parameters.render(literals));
  }

  @Override
  public void addBatch() throws SQLException {
    checkOpen();
    parameters.render(literals); // every parameter set now, not at executeBatch
    batch.add(Map.copyOf(literals));
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    batch.clear();
  }

  @Override
  public int[] executeBatch() throws SQLException {
    return toInts(executeLargeBatch());
  }

  /**
   * An {@code INSERT … VALUES} batch as one statement (one append: all rows or none); each set then
   * counts {@link java.sql.Statement#SUCCESS_NO_INFO}. Other statements one by one.
   */
  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    List<Map<Integer, String>> sets = List.copyOf(batch);
    batch.clear();
    long[] counts = new long[sets.size()];
    if (sets.isEmpty()) {
      return counts;
    }
    Matcher insert = INSERT_VALUES.matcher(sql);
    if (insert.matches() && SqlParameters.of(insert.group(1)).count() == 0) {
      SqlParameters row = SqlParameters.of(insert.group(2));
      List<String> rows = new ArrayList<>();
      for (Map<Integer, String> set : sets) {
        rows.add(row.render(set));
      }
      executeLargeUpdate(insert.group(1) + String.join(", ", rows));
      java.util.Arrays.fill(counts, java.sql.Statement.SUCCESS_NO_INFO);
      return counts;
    }
    for (int i = 0; i < sets.size(); i++) {
      counts[i] = executeLargeUpdate(parameters.render(sets.get(i)));
    }
    return counts;
  }

  @Override
  public void clearParameters() throws SQLException {
    checkOpen();
    literals.clear();
  }

  @Override
  public void setNull(int index, int sqlType) throws SQLException {
    set(index, null);
  }

  @Override
  public void setNull(int index, int sqlType, String typeName) throws SQLException {
    set(index, null);
  }

  @Override
  public void setBoolean(int index, boolean value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setByte(int index, byte value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setShort(int index, short value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setInt(int index, int value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setLong(int index, long value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setFloat(int index, float value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setDouble(int index, double value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setBigDecimal(int index, BigDecimal value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setString(int index, String value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setNString(int index, String value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setDate(int index, Date value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setDate(int index, Date value, Calendar calendar) throws SQLException {
    set(index, value);
  }

  @Override
  public void setTime(int index, Time value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setTime(int index, Time value, Calendar calendar) throws SQLException {
    set(index, value);
  }

  /** A {@link Timestamp} is a local date-time (TIMESTAMP); pass an Instant for TIMESTAMPTZ. */
  @Override
  public void setTimestamp(int index, Timestamp value) throws SQLException {
    set(index, value);
  }

  /** With a calendar, the timestamp is the instant it denotes in the calendar's zone. */
  @Override
  public void setTimestamp(int index, Timestamp value, Calendar calendar) throws SQLException {
    set(index, value == null || calendar == null ? value : value.toInstant());
  }

  @Override
  public void setObject(int index, Object value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setObject(int index, Object value, int targetSqlType) throws SQLException {
    set(index, value);
  }

  @Override
  public void setObject(int index, Object value, int targetSqlType, int scaleOrLength)
      throws SQLException {
    set(index, value);
  }

  /** Unknown until the statement runs: Timelake plans statements from their text. */
  @Override
  public ResultSetMetaData getMetaData() {
    return null;
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    throw unsupported(
        "PreparedStatement.getParameterMetaData (the statement has "
            + parameters.count()
            + " parameters; their types are known only when it runs)");
  }

  @Override
  public String toString() {
    return sql;
  }
}
