package dev.timelake.bench;

import dev.timelake.ErrorCode;
import dev.timelake.QueryFailedException;
import dev.timelake.TimelakeException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * QuestDB over its PostgreSQL protocol on loopback: the raw table ({@link Configuration#QUESTDB})
 * or the materialized views ({@link Configuration#QUESTDB_VIEWS}). QuestDB's timestamps carry no
 * zone and are UTC; they are read as instants so that they compare with Timelake's.
 */
final class QuestdbTarget implements QueryTarget {
  private final Configuration configuration;
  private final Connection connection;

  QuestdbTarget(Configuration configuration, Connection connection) {
    this.configuration = configuration;
    this.connection = connection;
  }

  @Override
  public Configuration configuration() {
    return configuration;
  }

  @Override
  public boolean asks(BenchmarkQuery query) {
    return (configuration == Configuration.QUESTDB ? query.questdb() : query.questdbView())
        .isPresent();
  }

  @Override
  public String sql(BenchmarkQuery query) {
    return (configuration == Configuration.QUESTDB ? query.questdb() : query.questdbView())
        .orElse("");
  }

  @Override
  public Execution run(String sql, boolean keepRows) {
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

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot close the QuestDB connection: " + e.getMessage(), e);
    }
  }
}
