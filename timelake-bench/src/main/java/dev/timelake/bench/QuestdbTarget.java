package dev.timelake.bench;

import dev.timelake.QueryFailedException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * QuestDB over its PostgreSQL protocol on loopback: the raw table ({@link Configuration#QUESTDB})
 * or the materialized views ({@link Configuration#QUESTDB_VIEWS}). QuestDB's timestamps carry no
 * zone and are UTC; they are read as instants so that they compare with Timelake's.
 */
final class QuestdbTarget implements QueryTarget {
  /** Opens a connection to the server. */
  interface Connector {
    Connection connect() throws SQLException;
  }

  private final Configuration configuration;
  private final Connector connector;
  private Connection connection;

  QuestdbTarget(Configuration configuration, Connector connector) throws SQLException {
    this.configuration = configuration;
    this.connector = connector;
    this.connection = connector.connect();
  }

  @Override
  public Configuration configuration() {
    return configuration;
  }

  @Override
  public boolean asks(BenchmarkQuery query) {
    return questdbSql(query).isPresent();
  }

  @Override
  public String sql(BenchmarkQuery query) {
    return questdbSql(query).orElse("");
  }

  private java.util.Optional<String> questdbSql(BenchmarkQuery query) {
    return configuration == Configuration.QUESTDB ? query.questdb() : query.questdbView();
  }

  /** A connection the server closed is opened again once, so one failure does not fail the rest. */
  @Override
  public Execution run(String sql, boolean keepRows) {
    try {
      return JdbcQueries.run(connection, sql, keepRows, configuration);
    } catch (QueryFailedException e) {
      if (!(e.getCause() instanceof SQLException cause)
          || cause.getSQLState() == null
          || !cause.getSQLState().startsWith("08")) {
        throw e;
      }
      close();
      try {
        connection = connector.connect();
      } catch (SQLException again) {
        throw new QueryFailedException(
            "Cannot reconnect to QuestDB in " + configuration.label() + ": " + again.getMessage(),
            again);
      }
      return JdbcQueries.run(connection, sql, keepRows, configuration);
    }
  }

  @Override
  public void close() {
    JdbcQueries.close(connection, "QuestDB");
  }
}
