package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.rollup.AggregateCall;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a query over a raw table asks for, as routing sees it: the series-key columns it groups by,
 * its bucket grid (none for a range without a bucket), its aggregates, the instants its WHERE keeps
 * and the key columns its other filters read; the texts of its terms on other columns ({@code
 * rowFilters}, which only a rollup filtered by the same terms answers), and of the rollups' key
 * filter terms its WHERE implies ({@code impliedTerms}, see {@link
 * dev.timelake.rollup.RollupFilter#implies}). {@code excluded} is a rollup never to use (the one a
 * refresh is computing). Pure values: routing decisions are tested from shapes alone.
 */
public record QueryShape(
    TableName raw,
    List<String> keys,
    Optional<BucketGrid> grid,
    List<AggregateCall> aggregates,
    IntervalSet time,
    Set<String> filterColumns,
    Optional<TableName> excluded,
    Set<String> rowFilters,
    Set<String> impliedTerms) {

  /** A query that filters on no column a rollup does not hold. */
  public QueryShape(
      TableName raw,
      List<String> keys,
      Optional<BucketGrid> grid,
      List<AggregateCall> aggregates,
      IntervalSet time,
      Set<String> filterColumns,
      Optional<TableName> excluded) {
    this(raw, keys, grid, aggregates, time, filterColumns, excluded, Set.of(), Set.of());
  }

  public QueryShape {
    requireNonNull(raw, "raw is null");
    keys = List.copyOf(keys);
    requireNonNull(grid, "grid is null");
    aggregates = List.copyOf(aggregates);
    requireNonNull(time, "time is null");
    filterColumns = Set.copyOf(new TreeSet<>(filterColumns));
    requireNonNull(excluded, "excluded is null");
    rowFilters = Set.copyOf(new TreeSet<>(rowFilters));
    impliedTerms = Set.copyOf(impliedTerms);
  }

  /** This shape with {@code implied}: the texts of rollups' key terms its WHERE implies. */
  public QueryShape withImplied(Set<String> implied) {
    return new QueryShape(
        raw, keys, grid, aggregates, time, filterColumns, excluded, rowFilters, implied);
  }

  /** E.g. {@code by (tag), 1d buckets, avg(value), count(*), time {[…)}}. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    parts.add(keys.isEmpty() ? "no grouping columns" : "by (" + String.join(", ", keys) + ")");
    parts.add(grid.map(g -> g + " buckets").orElse("no bucket"));
    aggregates.forEach(a -> parts.add(a.toString()));
    parts.add("time " + time);
    if (!filterColumns.isEmpty()) {
      parts.add("filters on " + String.join(", ", new TreeSet<>(filterColumns)));
    }
    if (!rowFilters.isEmpty()) {
      parts.add("rows where " + String.join(" and ", new TreeSet<>(rowFilters)));
    }
    return String.join(", ", parts);
  }
}
