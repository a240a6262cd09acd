package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import dev.timelake.RollupRoute;
import dev.timelake.TableName;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where each part of a query's answer comes from: the rollup parts (widest first), the instants
 * read from the raw table, and whether the parts give mergeable states that are merged once more by
 * the query's keys (a range without a bucket) or whole output rows (every output bucket from one
 * part). Made from metadata at pinned snapshots; rendering it reads exactly those snapshots.
 */
public record RoutePlan(
    QueryShape shape,
    long rawSnapshotId,
    List<RoutePart> parts,
    IntervalSet rawIntervals,
    boolean merged,
    List<String> considered) {

  public RoutePlan {
    requireNonNull(shape, "shape is null");
    parts = List.copyOf(parts);
    requireNonNull(rawIntervals, "rawIntervals is null");
    considered = List.copyOf(considered);
  }

  /** The rollups the plan reads, in order. */
  public List<TableName> rollups() {
    return parts.stream().map(p -> p.rollup().name()).toList();
  }

  /**
   * The stretches of time each rollup answers and those raw data answers, each with why, in time
   * order, for a user to see where an answer came from.
   */
  public List<RollupRoute.Span> spans() {
    List<RollupRoute.Span> spans = new ArrayList<>();
    for (RoutePart part : parts) {
      for (TimeInterval interval : part.intervals().intervals()) {
        spans.add(new RollupRoute.Span(part.rollup().name(), interval.start(), interval.end()));
      }
    }
    spans.addAll(rawSpans());
    spans.sort(Comparator.comparingLong(RollupRoute.Span::startMicros));
    return spans;
  }

  /**
   * The raw stretches, each split by why: the parts of buckets (of the query's grid, or the finest
   * rollup's) that the query's range cuts are partial; whole buckets were read raw because their
   * rows changed or were added after the rollups' refresh.
   */
  private List<RollupRoute.Span> rawSpans() {
    BucketGrid grid =
        shape
            .grid()
            .orElseGet(
                () ->
                    parts.stream()
                        .map(part -> part.rollup().grid())
                        .min(Comparator.comparingLong(BucketGrid::longestMicros))
                        .orElseThrow());
    IntervalSet whole = rawIntervals.intersect(shape.time().alignInward(grid));
    List<RollupRoute.Span> spans = new ArrayList<>();
    add(spans, rawIntervals.subtract(whole), RollupRoute.RawReason.PARTIAL_BUCKET);
    add(spans, whole, RollupRoute.RawReason.CHANGED_SINCE_REFRESH);
    return spans;
  }

  private static void add(
      List<RollupRoute.Span> spans, IntervalSet intervals, RollupRoute.RawReason reason) {
    for (TimeInterval interval : intervals.intervals()) {
      spans.add(new RollupRoute.Span(reason, interval.start(), interval.end()));
    }
  }

  /** One line per decision, for EXPLAIN and tests. */
  public List<String> explanation() {
    List<String> lines = new ArrayList<>();
    if (parts.isEmpty()) {
      lines.add("read from " + shape.raw() + " only: no rollup answers a part of it");
    } else {
      lines.add(
          "routed to rollup"
              + (parts.size() == 1 ? " " : "s ")
              + String.join(", ", rollups().stream().map(TableName::toString).toList())
              + (merged ? ", states merged by the query's keys" : ""));
    }
    for (RoutePart part : parts) {
      long buckets = part.intervals().bucketCount(part.rollup().grid());
      lines.add(
          part.rollup().name()
              + ": "
              + (buckets < 0 ? "open-ended" : Long.toString(buckets))
              + " buckets of "
              + part.rollup().grid()
              + (part.asStored() ? " read as stored" : " aggregated again")
              + " in "
              + part.intervals());
    }
    lines.add(
        rawIntervals.isEmpty()
            ? shape.raw() + ": nothing from the raw table"
            : shape.raw()
                + ": raw rows in "
                + rawIntervals
                + " (partial buckets at the edges, buckets changed since a refresh)");
    considered.forEach(line -> lines.add("not used: " + line));
    return lines;
  }
}
