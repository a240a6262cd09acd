/**
 * What a materialized rollup is: its definition, its storage and the aggregates it keeps.
 *
 * <p>A rollup is an ordinary Timelake table of per-bucket aggregates of one raw table, defined by
 * {@code CREATE MATERIALIZED ROLLUP … AS SELECT keys…, bucket, aggregates… FROM raw GROUP BY …}
 * ({@link dev.timelake.rollup.RollupDefinitions}, {@link dev.timelake.rollup.BucketSpellings}) and
 * described by its table properties ({@link dev.timelake.rollup.Rollup}, {@link
 * dev.timelake.rollup.RollupStore}). The {@link dev.timelake.rollup.Aggregates} registry holds, for
 * every aggregate, how a call is read from SQL, what a rollup stores for it and its mergeable
 * state: how stored or raw rows give the state, how states of disjoint rows merge (across buckets
 * and series), and how a state gives the final value — what coarser queries, fewer keys, ranges
 * without a bucket and rollups of rollups are computed from. {@link
 * dev.timelake.rollup.RollupChanges} reads from metadata what changed in the raw table since a
 * rollup's refresh.
 */
package dev.timelake.rollup;
