package dev.timelake.bench;

/** Where a configuration runs its queries. Not thread-safe; close it when done. */
interface QueryTarget extends AutoCloseable {
  Configuration configuration();

  /** The query as this target runs it. */
  String sql(BenchmarkQuery query);

  /**
   * Runs {@code sql} and reads every row; keeps the rows when {@code keepRows} is set.
   *
   * @throws dev.timelake.TimelakeException if the query fails
   */
  Execution run(String sql, boolean keepRows);

  @Override
  void close();
}
