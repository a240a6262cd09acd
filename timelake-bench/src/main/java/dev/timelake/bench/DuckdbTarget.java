package dev.timelake.bench;

import dev.timelake.ErrorCode;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import dev.timelake.signal.SignalFunctions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain DuckDB, its own in-memory database in UTC, over the data files of the tables' current
 * snapshots: as they are ({@link Configuration#DUCKDB}) or deduplicated with {@code QUALIFY
 * row_number() OVER (PARTITION BY key…, time ORDER BY _ingest_ts DESC) = 1} ({@link
 * Configuration#DUCKDB_QUALIFY}), what a DuckDB user would write. Like the Timelake engine it
 * caches Parquet footers, so that the two differ only in what Timelake adds.
 */
final class DuckdbTarget implements QueryTarget {
  private final Configuration configuration;
  private final Connection connection;
  private final SqlDialect dialect;

  private DuckdbTarget(Configuration configuration, Connection connection, SqlDialect dialect) {
    this.configuration = configuration;
    this.connection = connection;
    this.dialect = dialect;
  }

  /** Plain DuckDB over the files of {@code readings} and {@code tags}, copies included. */
  static DuckdbTarget plain(DataFiles readings, DataFiles tags, String memoryLimit) {
    return open(readings, tags, Configuration.DUCKDB, memoryLimit);
  }

  /**
   * DuckDB over the same files keeping only the newest copy of each (key…, time), by QUALIFY on the
   * insertion time.
   */
  static DuckdbTarget qualified(DataFiles readings, DataFiles tags, String memoryLimit) {
    return open(readings, tags, Configuration.DUCKDB_QUALIFY, memoryLimit);
  }

  private static DuckdbTarget open(
      DataFiles readings, DataFiles tags, Configuration configuration, String memoryLimit) {
    boolean qualify = configuration == Configuration.DUCKDB_QUALIFY;
    try {
      Connection connection = DriverManager.getConnection("jdbc:duckdb:");
      try (Statement statement = connection.createStatement()) {
        statement.execute("SET TimeZone = 'UTC'");
        statement.execute("SET parquet_metadata_cache = true");
        statement.execute("SET memory_limit = " + SqlText.literal(memoryLimit));
        statement.execute("CREATE VIEW tags AS SELECT * FROM " + tags.readParquet());
        // The signal aggregates are plain DuckDB macros, so both baselines run the same SQL.
        SignalFunctions.install(connection);
        String select = "SELECT * FROM " + readings.readParquet();
        if (qualify) {
          List<String> key = new ArrayList<>(readings.seriesKey());
          key.add(readings.timeColumn());
          select +=
              " QUALIFY row_number() OVER (PARTITION BY "
                  + SqlText.identifiers(key)
                  + " ORDER BY "
                  + SqlText.identifier(readings.ingestTimeColumn())
                  + " DESC) = 1";
        }
        statement.execute("CREATE VIEW readings AS " + select);
      } catch (SQLException e) {
        connection.close();
        throw e;
      }
      return new DuckdbTarget(configuration, connection, SqlDialect.forDuckdb("readings", "tags"));
    } catch (SQLException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot open plain DuckDB for the benchmark: " + e.getMessage(), e);
    }
  }

  @Override
  public Configuration configuration() {
    return configuration;
  }

  @Override
  public String sql(BenchmarkQuery query) {
    return query.sql(dialect);
  }

  @Override
  public Execution run(String sql, boolean keepRows) {
    return JdbcQueries.run(connection, sql, keepRows, configuration);
  }

  @Override
  public void close() {
    JdbcQueries.close(connection, "DuckDB");
  }
}
