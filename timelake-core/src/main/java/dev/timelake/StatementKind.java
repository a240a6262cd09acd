package dev.timelake;

/** What kind of statement ran, for clients that report it (a PostgreSQL command tag, a shell). */
public enum StatementKind {
  /** A query: its rows are in the result. */
  QUERY,
  /** EXPLAIN: the plan's lines are the result's rows. */
  EXPLAIN,
  INSERT,
  UPSERT,
  /** UPDATE: a correction of a lake table's rows, written as an upsert. */
  UPDATE,
  /** DELETE: every copy of the selected rows' keys removed from a lake table. */
  DELETE,
  CREATE_TABLE,
  ALTER_TABLE,
  DROP_TABLE,
  /** TRUNCATE: every row of a lake table removed in one commit. */
  TRUNCATE,
  CREATE_ROLLUP,
  REFRESH_ROLLUP,
  DROP_ROLLUP,
  /** OPTIMIZE: an entity-layout optimization; its report is the result's rows. */
  OPTIMIZE,
  SET,
  SHOW,
  DESCRIBE,
  /** BEGIN: a transaction opened (see {@link TransactionState#OPEN}). */
  BEGIN,
  /** COMMIT: the transaction's writes committed. */
  COMMIT,
  /** ROLLBACK (or COMMIT of a failed transaction): the transaction's writes discarded. */
  ROLLBACK,
  /** Any other statement, passed to DuckDB as it is. */
  OTHER
}
