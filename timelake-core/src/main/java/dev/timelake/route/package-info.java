/**
 * Rollup routing: answering a query on a raw table from its rollups, exactly.
 *
 * <p>Decide, then render. {@link dev.timelake.route.SelectAnalyzer} takes a SELECT apart into a
 * {@link dev.timelake.route.QueryShape} (grouping keys, bucket grid, aggregates, time range, key
 * filters) or says why it cannot be routed. {@link dev.timelake.route.RouteCandidates} reads each
 * rollup's rows and usable buckets from metadata at the statement's pinned snapshots. {@link
 * dev.timelake.route.RoutePlanner} — pure, tested from values — chooses the widest rollups first
 * and, for each, the whole buckets it answers; the rest is read from the raw table. {@link
 * dev.timelake.route.RouteRenderer} renders the {@link dev.timelake.route.RoutePlan} as a syntax
 * tree and {@link dev.timelake.route.SelectRewriter} turns the SELECT into a projection of it, so
 * the statement rewriter plans every part at the same snapshots. Refreshes use the same planner and
 * renderer to compute a rollup from the others.
 */
package dev.timelake.route;
