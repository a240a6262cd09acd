/**
 * Bringing rollups up to date.
 *
 * <p>A refresh is decided, then done. {@link dev.timelake.refresh.RefreshPlanner} reads metadata
 * only: the raw files committed after the snapshot the rollup reflects, the buckets they touch
 * (grouped into windows of at most a week), and whether the raw table was rolled back past that
 * snapshot. {@link dev.timelake.refresh.RefreshRunner} recomputes each window: its query is routed
 * like any query to the raw table's other rollups (never to the one being refreshed), limited to
 * the (keys…, bucket) cells the new files hold, and appended; only the last window's commit records
 * the raw snapshot the rollup now reflects, so a refresh that fails halfway is redone from the old
 * record. {@link dev.timelake.refresh.RefreshScheduler} refreshes a table's rollups narrowest
 * first, so a daily rollup is computed from an up-to-date minute or hourly one.
 *
 * <p>{@link dev.timelake.refresh.RollupVerifier} checks the result: it recomputes a rollup's cells
 * from raw data alone, as a window that no other rollup answers would, at the raw snapshot the
 * rollup records, and compares them cell by cell with the rollup's rows.
 */
package dev.timelake.refresh;
