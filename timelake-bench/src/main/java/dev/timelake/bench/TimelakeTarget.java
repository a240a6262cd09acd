package dev.timelake.bench;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A Timelake session, rollup routing on or off; copies are removed on read. */
final class TimelakeTarget implements QueryTarget {
  private final Configuration configuration;
  private final Session session;
  private final SqlDialect dialect = SqlDialect.forTimelake();

  private TimelakeTarget(Configuration configuration, Session session) {
    this.configuration = configuration;
    this.session = session;
  }

  /** A session with routing off ({@link Configuration#TIMELAKE}). */
  static TimelakeTarget unrouted(Lake lake) {
    return new TimelakeTarget(
        Configuration.TIMELAKE, lake.newSession().set("rollup-routing", "false"));
  }

  /** A session with routing on ({@link Configuration#TIMELAKE_ROUTED}). */
  static TimelakeTarget routed(Lake lake) {
    return new TimelakeTarget(
        Configuration.TIMELAKE_ROUTED, lake.newSession().set("rollup-routing", "true"));
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
    long started = System.nanoTime();
    try (QueryResult result = session.sql(sql)) {
      int columns = result.columnNames().size();
      List<List<Object>> rows = keepRows ? new ArrayList<>() : null;
      long count = 0;
      while (result.next()) {
        List<Object> row = keepRows ? new ArrayList<>(columns) : null;
        for (int i = 0; i < columns; i++) {
          Object value = result.value(i);
          if (row != null) {
            row.add(value);
          }
        }
        if (rows != null) {
          rows.add(row);
        }
        count++;
      }
      long nanos = System.nanoTime() - started;
      return new Execution(
          count,
          nanos,
          rows == null ? Optional.empty() : Optional.of(new Answer(rows)),
          result.explanation());
    }
  }

  @Override
  public void close() {
    session.close();
  }
}
