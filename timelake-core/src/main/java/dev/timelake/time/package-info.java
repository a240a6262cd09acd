/**
 * Time as values: half-open intervals of epoch microseconds, sets of them, and bucket grids.
 *
 * <p>Every range a planner reasons about — the time range of a query, the buckets a rollup holds,
 * the buckets changed since a refresh, the windows a refresh recomputes — is an {@link
 * dev.timelake.time.IntervalSet}: sorted, disjoint, merged intervals {@code [start, end)}, where
 * {@link Long#MIN_VALUE} and {@link Long#MAX_VALUE} stand for an open end. A {@link
 * dev.timelake.time.BucketGrid} (a width and an origin) says where buckets start; flooring uses
 * Euclidean division, so instants before the origin or the epoch fall in the right bucket.
 */
package dev.timelake.time;
