package dev.timelake.table;

/**
 * Snapshot summary keys Timelake writes. Other engines ignore them; Timelake reads them for
 * idempotent appends and incremental rollup refresh.
 */
public final class SnapshotSummaries {
  /** The caller's batch id; a later append with the same id is skipped. */
  public static final String BATCH_ID = "timelake.batch-id";

  /** First µs of time the append touched. */
  public static final String TIME_MIN = "timelake.time-min";

  /** Last µs of time the append touched. */
  public static final String TIME_MAX = "timelake.time-max";

  /**
   * Time ranges touched per partition: {@code label=minMicros..maxMicros} entries joined by {@code
   * ;}, e.g. {@code 2026-01-01=1767225600000000..1767311999000000}.
   */
  public static final String TOUCHED_RANGES = "timelake.touched-ranges";

  /** Rows dropped within the append because a later row had the same key. */
  public static final String COPIES_DROPPED = "timelake.copies-dropped";

  /** What wrote the snapshot: append, insert, compaction, … */
  public static final String OPERATION = "timelake.operation";

  /**
   * Who wrote the snapshot, when a server's client did: its login name (several, comma-separated,
   * for a line-protocol group commit of several clients' requests). Absent for embedded writers.
   */
  public static final String USER = "timelake.user";

  /** On a rollup snapshot: the raw snapshot its rows reflect ({@code -1}: nothing). */
  public static final String ROLLUP_SOURCE_SNAPSHOT = "timelake.rollup-source-snapshot";

  /** On a rollup snapshot: the sequence number of that raw snapshot ({@code -1}: nothing). */
  public static final String ROLLUP_SOURCE_SEQUENCE = "timelake.rollup-source-sequence";

  /**
   * On a rollup snapshot committed by a refresh that has more windows to go: the raw snapshot the
   * rows committed so far reflect, newer than the record. A rollback past it is a rollback too.
   */
  public static final String ROLLUP_SOURCE_PENDING = "timelake.rollup-source-pending";

  /**
   * On a rollup snapshot of a rollup with a refresh lag: the start (µs since 1970) of its first
   * bucket that the refresh left to raw data because it is newer than the raw snapshot's commit
   * time less the lag. The buckets from there on are not materialized.
   */
  public static final String ROLLUP_LAG_FROM = "timelake.rollup-lag-from";

  /** Prefix of rollup summary keys, which compaction of a rollup carries forward. */
  public static final String ROLLUP_PREFIX = "timelake.rollup-";

  /** The operation of a DELETE's commits: files rewritten without the deleted rows. */
  public static final String DELETE_OPERATION = "delete";

  /** On a DELETE's commits: the first µs of time of the rows it removed. */
  public static final String DELETED_TIME_MIN = "timelake.deleted-time-min";

  /** On a DELETE's commits: the last µs of time of the rows it removed. */
  public static final String DELETED_TIME_MAX = "timelake.deleted-time-max";

  /**
   * On a DELETE's commits, when the table had rollups that follow deletes: a Parquet file in the
   * table's metadata folder holding the distinct (grouping columns…, time) of the rows it removed,
   * so a refresh recomputes just the cells they were in.
   */
  public static final String DELETED_ROWS_FILE = "timelake.deleted-rows-file";

  /** On a DELETE's commits: the columns of that file, as a JSON array of names. */
  public static final String DELETED_ROWS_COLUMNS = "timelake.deleted-rows-columns";

  /**
   * True when {@code snapshot} moved rows between files without removing any (a compaction):
   * Iceberg's replace operation, except a DELETE's rewrites, which Iceberg also calls replace.
   */
  public static boolean keepsEveryRow(org.apache.iceberg.Snapshot snapshot) {
    return org.apache.iceberg.DataOperations.REPLACE.equals(snapshot.operation())
        && !DELETE_OPERATION.equals(snapshot.summary().get(OPERATION));
  }

  private SnapshotSummaries() {}
}
