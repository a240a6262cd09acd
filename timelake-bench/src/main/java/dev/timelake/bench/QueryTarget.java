package dev.timelake.bench;

/** Where a configuration runs its queries. Not thread-safe; close it when done. */
interface QueryTarget extends AutoCloseable {
  Configuration configuration();

  /** The query as this target runs it. */
  String sql(BenchmarkQuery query);

  /**
   * False when this target cannot ask {@code query} (QuestDB has no SQL for it, or no view answers
   * it); such a cell is not measured.
   */
  default boolean asks(BenchmarkQuery query) {
    return true;
  }

  /**
   * Runs {@code sql} and reads every row; keeps the rows when {@code keepRows} is set.
   *
   * @throws dev.timelake.TimelakeException if the query fails
   */
  Execution run(String sql, boolean keepRows);

  /**
   * True when running {@code sql} here would only repeat another configuration's plan, as a routed
   * session does for a query its router declines; such a cell is not measured, which keeps large
   * runs to the measurements that differ.
   */
  default boolean repeatsAnother(String sql) {
    return false;
  }

  @Override
  void close();
}
