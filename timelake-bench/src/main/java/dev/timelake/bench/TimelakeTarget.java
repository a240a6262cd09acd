package dev.timelake.bench;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;

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
      Execution.Cursor<RuntimeException> cursor =
          new Execution.Cursor<>() {
            @Override
            public boolean next() {
              return result.next();
            }

            @Override
            public Object value(int index) {
              return result.value(index);
            }
          };
      return Execution.read(
          cursor,
          result.columnNames().size(),
          keepRows,
          started,
          result::explanation,
          result::isRouted);
    }
  }

  /** A routed session repeats the unrouted one for every query that EXPLAIN shows unrouted. */
  @Override
  public boolean repeatsAnother(String sql) {
    if (configuration != Configuration.TIMELAKE_ROUTED) {
      return false;
    }
    try (QueryResult plan = session.sql("EXPLAIN " + sql)) {
      return !plan.isRouted();
    } catch (RuntimeException e) {
      // The query's own run reports the failure.
      return false;
    }
  }

  @Override
  public void close() {
    session.close();
  }
}
