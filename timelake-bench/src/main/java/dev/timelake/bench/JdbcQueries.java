package dev.timelake.bench;

import dev.timelake.QueryFailedException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/** Runs a benchmark query over JDBC, for the targets that are other engines. */
final class JdbcQueries {
  private JdbcQueries() {}

  /**
   * Runs {@code sql} on {@code connection} and reads every row (see {@link Execution#read});
   * columns of SQL type {@code TIMESTAMP} (no zone) are read as UTC instants.
   *
   * @throws QueryFailedException naming {@code configuration} and the SQL
   */
  static Execution run(
      Connection connection, String sql, boolean keepRows, Configuration configuration) {
    long started = System.nanoTime();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      ResultSetMetaData metadata = result.getMetaData();
      boolean[] timestamp = new boolean[metadata.getColumnCount()];
      for (int i = 0; i < timestamp.length; i++) {
        timestamp[i] = metadata.getColumnType(i + 1) == Types.TIMESTAMP;
      }
      Execution.Cursor<SQLException> cursor =
          new Execution.Cursor<>() {
            @Override
            public boolean next() throws SQLException {
              return result.next();
            }

            @Override
            public Object value(int index) throws SQLException {
              if (timestamp[index]) {
                LocalDateTime time = result.getObject(index + 1, LocalDateTime.class);
                return time == null ? null : time.toInstant(ZoneOffset.UTC);
              }
              return result.getObject(index + 1);
            }
          };
      return Execution.read(cursor, timestamp.length, keepRows, started, List::of, () -> false);
    } catch (SQLException e) {
      throw new QueryFailedException(
          "Cannot run the query in " + configuration.label() + ": " + e.getMessage() + "\n" + sql,
          e);
    }
  }

  /**
   * Closes {@code connection} to {@code engine}.
   *
   * @throws dev.timelake.TimelakeException naming the engine if closing fails
   */
  static void close(Connection connection, String engine) {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new dev.timelake.TimelakeException(
          dev.timelake.ErrorCode.INTERNAL,
          "Cannot close the connection to " + engine + ": " + e.getMessage(),
          e);
    }
  }
}
