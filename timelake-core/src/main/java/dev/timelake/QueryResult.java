package dev.timelake;

import dev.timelake.sql.StatementOutcome;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

/**
 * The result of one statement: a cursor over a query's rows (JDBC-style: {@link #next()} then
 * {@link #value(int)}), or a message for statements without rows. Timestamps with time zone come
 * back as {@link java.time.OffsetDateTime} in UTC. Not thread-safe.
 */
public final class QueryResult implements AutoCloseable {
  private final StatementOutcome outcome;
  private final List<String> columnNames;
  private final List<String> columnTypes;

  /**
   * Per column, true for TIMESTAMP WITH TIME ZONE: read as microseconds and made an instant in UTC
   * here, as documented above; the driver's own conversion gives the JVM's default zone's offset.
   */
  private final boolean[] instants;

  QueryResult(StatementOutcome outcome) {
    this.outcome = outcome;
    List<String> names = new ArrayList<>();
    List<String> types = new ArrayList<>();
    if (outcome.resultSet().isPresent()) {
      try {
        ResultSetMetaData metadata = outcome.resultSet().get().getMetaData();
        for (int i = 1; i <= metadata.getColumnCount(); i++) {
          names.add(metadata.getColumnLabel(i));
          types.add(metadata.getColumnTypeName(i));
        }
      } catch (SQLException e) {
        throw new QueryFailedException("Cannot read result columns: " + e.getMessage(), e);
      }
    }
    this.columnNames = Collections.unmodifiableList(names);
    this.columnTypes = Collections.unmodifiableList(types);
    this.instants = new boolean[types.size()];
    for (int i = 0; i < types.size(); i++) {
      instants[i] = "TIMESTAMP WITH TIME ZONE".equals(types.get(i));
    }
  }

  /** What kind of statement ran. */
  public StatementKind kind() {
    return outcome.kind();
  }

  /** The rows the statement wrote (INSERT, a rollup's creation or refresh); empty for others. */
  public OptionalLong rowCount() {
    return outcome.rowCount();
  }

  /** How rollup routing answered each SELECT over a table with rollups. */
  public List<RollupRoute> routes() {
    return outcome.routes();
  }

  /**
   * What Timelake decided to answer this query: per table reference its files, pruning and dedup;
   * routes; the last-value index or newest-first bound it used. {@link QueryPlan#NONE} for a
   * statement that is not a query of the lake.
   */
  public QueryPlan plan() {
    return outcome.plan();
  }

  /** True when rollups answer (part of) some SELECT of the statement. */
  public boolean isRouted() {
    return outcome.routes().stream().anyMatch(RollupRoute::isRouted);
  }

  /** True when the statement returned rows (even zero of them). */
  public boolean hasRows() {
    return outcome.resultSet().isPresent();
  }

  /** Column names of the rows, in order; empty for statements without rows. */
  public List<String> columnNames() {
    return columnNames;
  }

  /** DuckDB type names of the columns, in order. */
  public List<String> columnTypes() {
    return columnTypes;
  }

  /** Moves to the next row; false when there is none. */
  public boolean next() {
    try {
      return outcome.resultSet().isPresent() && outcome.resultSet().get().next();
    } catch (SQLException e) {
      throw new QueryFailedException("Cannot read the next row: " + e.getMessage(), e);
    }
  }

  /** The value of column {@code index} (0-based) in the current row. */
  public Object value(int index) {
    try {
      ResultSet rows = resultSet();
      if (instants[index]) {
        long micros = rows.getLong(index + 1);
        return rows.wasNull() ? null : utc(micros);
      }
      return rows.getObject(index + 1);
    } catch (SQLException e) {
      throw new QueryFailedException(
          "Cannot read column " + index + " of the current row: " + e.getMessage(), e);
    }
  }

  private static java.time.OffsetDateTime utc(long micros) {
    return java.time.Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L)
        .atOffset(java.time.ZoneOffset.UTC);
  }

  /** Reads every remaining row. */
  public List<List<Object>> rows() {
    List<List<Object>> rows = new ArrayList<>();
    while (next()) {
      List<Object> row = new ArrayList<>(columnNames.size());
      for (int i = 0; i < columnNames.size(); i++) {
        row.add(value(i));
      }
      rows.add(row);
    }
    return rows;
  }

  /**
   * The remaining rows as an Arrow stream, in batches of up to {@code batchRows} rows, allocated
   * from {@code allocator}. The reader is valid until this result is closed; close the reader
   * first.
   */
  public ArrowReader arrow(BufferAllocator allocator, long batchRows) {
    try {
      DuckDBResultSet duckdb = resultSet().unwrap(DuckDBResultSet.class);
      return (ArrowReader) duckdb.arrowExportStream(allocator, batchRows);
    } catch (SQLException e) {
      throw new QueryFailedException("Cannot export the result as Arrow: " + e.getMessage(), e);
    }
  }

  /** What a statement without rows reports, e.g. {@code Created table iot.readings}. */
  public String message() {
    return outcome.message();
  }

  /** The append an INSERT made. */
  public Optional<AppendResult> append() {
    return outcome.append();
  }

  /**
   * What the client should be told besides the result: e.g. a COMMIT with no transaction open, or
   * inline maintenance that failed after a committed write (the write stands).
   */
  public List<String> warnings() {
    return outcome.warnings();
  }

  /** What Timelake did to run the statement: files planned, pruned, deduplicated; the SQL run. */
  public List<String> explanation() {
    return outcome.explanation();
  }

  /**
   * The rows as a JDBC result set (DuckDB's, with its SQL types and metadata), for drivers that
   * hand them on; valid until this result is closed.
   *
   * @throws IllegalStateException when the statement returned no rows
   */
  public ResultSet resultSet() {
    return outcome
        .resultSet()
        .orElseThrow(() -> new IllegalStateException("The statement returned no rows"));
  }

  @Override
  public void close() {
    if (outcome.resultSet().isPresent()) {
      try {
        outcome.resultSet().get().close();
      } catch (SQLException e) {
        throw new QueryFailedException("Cannot close the result: " + e.getMessage(), e);
      }
    }
  }
}
