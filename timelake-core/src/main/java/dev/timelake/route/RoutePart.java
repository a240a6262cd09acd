package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import dev.timelake.rollup.StoredForm;
import dev.timelake.time.IntervalSet;
import java.util.List;

/**
 * The buckets one rollup answers in a route: the instants it covers (whole buckets), whether its
 * rows are read as stored (the query's own grid and keys) or aggregated again, and for each of the
 * query's aggregates how it is computed from the stored columns.
 */
public record RoutePart(
    RouteCandidate rollup, IntervalSet intervals, boolean asStored, List<StoredForm> forms) {
  public RoutePart {
    requireNonNull(rollup, "rollup is null");
    requireNonNull(intervals, "intervals is null");
    forms = List.copyOf(forms);
  }
}
