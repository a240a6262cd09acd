package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.rollup.RollupFilter;
import dev.timelake.rollup.StoredAggregate;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import java.util.List;
import java.util.Optional;

/**
 * A rollup as the route planner weighs it, read from both tables' metadata at pinned snapshots: its
 * grouping columns, bucket column, grid and stored aggregates; its live rows and the raw rows per
 * rollup row; the instants whose buckets it holds completely and unchanged since its refresh
 * ({@code usable}); when it cannot be used at all, why; and its WHERE.
 */
public record RouteCandidate(
    TableName name,
    List<String> keys,
    String bucketColumn,
    BucketGrid grid,
    List<StoredAggregate> aggregates,
    long rows,
    double readingsPerRow,
    IntervalSet usable,
    long snapshotId,
    Optional<String> unusable,
    RollupFilter filter) {

  /** A rollup of every row. */
  public RouteCandidate(
      TableName name,
      List<String> keys,
      String bucketColumn,
      BucketGrid grid,
      List<StoredAggregate> aggregates,
      long rows,
      double readingsPerRow,
      IntervalSet usable,
      long snapshotId,
      Optional<String> unusable) {
    this(
        name,
        keys,
        bucketColumn,
        grid,
        aggregates,
        rows,
        readingsPerRow,
        usable,
        snapshotId,
        unusable,
        RollupFilter.NONE);
  }

  public RouteCandidate {
    requireNonNull(name, "name is null");
    keys = List.copyOf(keys);
    requireNonNull(bucketColumn, "bucketColumn is null");
    requireNonNull(grid, "grid is null");
    aggregates = List.copyOf(aggregates);
    requireNonNull(usable, "usable is null");
    requireNonNull(unusable, "unusable is null");
    requireNonNull(filter, "filter is null");
  }
}
