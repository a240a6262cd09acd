package dev.timelake.route;

import dev.timelake.rollup.Aggregate;
import dev.timelake.rollup.AggregateCall;
import dev.timelake.rollup.Aggregates;
import dev.timelake.rollup.SeriesMerge;
import dev.timelake.rollup.StoredForm;
import dev.timelake.table.TableContract;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.CalendarGrid;
import dev.timelake.time.FixedGrid;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides which rollups answer which buckets of a query. Pure: a shape, the raw table's facts and
 * the candidates in; a {@link RouteDecision} out.
 *
 * <p>The rules. A rollup can answer when it is refreshed and not rolled back, groups by every key
 * the query groups or filters by, has a grid the query's is a whole multiple of (any grid for a
 * range without a bucket), stores what each aggregate's state needs, and holds enough raw rows per
 * row for each aggregate. Candidates are taken fewest rows first (the widest); each answers the
 * whole buckets left that it holds completely and unchanged since its refresh — for a bucketed
 * query, whole query buckets, so every output row comes from one part — and the next answers what
 * is left. What no rollup answers is read from the raw table, only where raw data exists. A bucket
 * that reaches outside the query's range, or beyond a rollup's usable buckets, still counts when
 * the raw table has no data in that part (no row of it is left out or taken from elsewhere); the
 * rollup is read only in its usable buckets, since it may keep history the raw table has dropped.
 *
 * <p>A query no rollup answers a part of gives as its reason the rollups whose shape (keys, grid,
 * stored aggregates) answers it and why each was not used — its state, too few raw rows per row, or
 * no complete bucket unchanged since its refresh — in the words of their explanation lines; only
 * when no rollup's shape answers it does the reason say so.
 */
public final class RoutePlanner {
  private RoutePlanner() {}

  /** The route of {@code shape}, or why there is none. */
  public static RouteDecision plan(
      QueryShape shape, RawFacts raw, List<RouteCandidate> candidates) {
    if (shape.time().isEmpty()) {
      return RouteDecision.notRouted("the query's time range is empty", List.of());
    }
    if (candidates.isEmpty()) {
      return RouteDecision.notRouted(shape.raw() + " has no rollup", List.of());
    }
    if (shape.time().intersect(raw.extent()).isEmpty()) {
      return RouteDecision.notRouted(
          shape.raw() + " has no rows in the query's time range " + shape.time(), List.of());
    }
    IntervalSet outsideData = IntervalSet.all().subtract(raw.extent());
    IntervalSet remaining = shape.time().union(outsideData);
    List<RoutePart> parts = new ArrayList<>();
    List<String> considered = new ArrayList<>();
    // The rollups whose shape answers the query but which were not used, and why: a reason to
    // give for the whole query when none answers a part of it.
    List<String> matching = new ArrayList<>();
    IntervalSet covered = IntervalSet.empty();
    for (RouteCandidate candidate : ordered(shape, candidates)) {
      if (remaining.intersect(raw.extent()).isEmpty()) {
        break;
      }
      Optional<String> unfit = unfit(shape, raw, candidate);
      if (unfit.isPresent()) {
        considered.add(candidate.name() + ": " + unfit.get());
        if (mismatch(shape, raw, candidate).isEmpty()) {
          matching.add(candidate.name() + ": " + unfit.get());
        }
        continue;
      }
      // Whole buckets left to answer that hold data, where the rollup's rows are complete and
      // unchanged or the raw table has no row at all; the rollup is read only where it is usable.
      BucketGrid grid = shape.grid().orElse(candidate.grid());
      IntervalSet answered =
          remaining
              .intersect(candidate.usable().union(outsideData))
              .alignInward(grid)
              .intersect(raw.extent().alignOutward(grid));
      IntervalSet read =
          answered
              .intersect(candidate.usable())
              .intersect(raw.extent().alignOutward(candidate.grid()));
      if (read.isEmpty()) {
        String unused =
            candidate.name()
                + ": holds no complete bucket of "
                + grid
                + " in the range that is unchanged since its refresh";
        considered.add(unused);
        matching.add(unused);
        continue;
      }
      parts.add(
          new RoutePart(
              candidate, read, readsAsStored(shape, candidate), forms(shape, raw, candidate)));
      remaining = remaining.subtract(answered);
      covered = covered.union(answered);
    }
    if (parts.isEmpty()) {
      // The reason names the rollups that answer the query's shape and why each was not used
      // (their lines in the explanation), or says that none answers it; the other lines say what
      // each other rollup lacks.
      if (matching.isEmpty()) {
        return RouteDecision.notRouted(
            "no rollup of " + shape.raw() + " answers " + shape.describe(), considered);
      }
      List<String> others = new ArrayList<>(considered);
      others.removeAll(matching);
      return RouteDecision.notRouted(String.join("; ", matching), others);
    }
    IntervalSet rawIntervals = shape.time().subtract(covered).intersect(raw.extent());
    return RouteDecision.routed(
        new RoutePlan(
            shape, raw.snapshotId(), parts, rawIntervals, shape.grid().isEmpty(), considered));
  }

  /**
   * The plan that reads everything from the raw table, for a caller that must compute the query
   * whether or not a rollup answers part of it (a refresh).
   */
  public static RoutePlan rawOnly(QueryShape shape, RawFacts raw, List<String> considered) {
    return new RoutePlan(
        shape,
        raw.snapshotId(),
        List.of(),
        shape.time().intersect(raw.extent()),
        shape.grid().isEmpty(),
        considered);
  }

  /** Fewest rows first (the widest rollup), then wider grids, then by name. */
  private static List<RouteCandidate> ordered(QueryShape shape, List<RouteCandidate> candidates) {
    return candidates.stream()
        .filter(c -> shape.excluded().map(e -> !e.equals(c.name())).orElse(true))
        .sorted(
            Comparator.comparingLong(RouteCandidate::rows)
                .thenComparing(c -> -c.grid().longestMicros())
                .thenComparing(c -> c.name().toString()))
        .toList();
  }

  /**
   * Why {@code candidate} cannot answer the query at all, if it cannot: its state (not refreshed,
   * rolled back, …), a shape that does not answer the query's ({@link #mismatch}), or too few raw
   * rows per row for an aggregate's state.
   */
  static Optional<String> unfit(QueryShape shape, RawFacts raw, RouteCandidate candidate) {
    if (candidate.unusable().isPresent()) {
      return candidate.unusable();
    }
    Optional<String> mismatch = mismatch(shape, raw, candidate);
    if (mismatch.isPresent()) {
      return mismatch;
    }
    if (readsAsStored(shape, candidate)) {
      // At the rollup's own width and keys its stored values are read as they are: no state is
      // merged, so no threshold of what merging costs applies.
      return Optional.empty();
    }
    for (AggregateCall call : shape.aggregates()) {
      Aggregate aggregate = Aggregates.of(call);
      if (candidate.readingsPerRow() < aggregate.minimumReadingsPerRow()) {
        return Optional.of(
            String.format(
                Locale.ROOT,
                "holds %.2f raw rows per row; %s pays from %.0f",
                // Rounded down, so that 3.999 does not read as the threshold it misses.
                Math.floor(candidate.readingsPerRow() * 100) / 100,
                call,
                aggregate.minimumReadingsPerRow()));
      }
    }
    return Optional.empty();
  }

  /**
   * Why {@code candidate}'s shape does not answer the query's, if it does not: its keys, its grid
   * or what it stores. Whatever the rollup's state and rows.
   */
  static Optional<String> mismatch(QueryShape shape, RawFacts facts, RouteCandidate candidate) {
    TableContract raw = facts.contract();
    List<String> missing = new ArrayList<>();
    for (String key : shape.keys()) {
      if (!candidate.keys().contains(key)) {
        missing.add(key);
      }
    }
    for (String column : shape.filterColumns()) {
      if (!candidate.keys().contains(column) && !missing.contains(column)) {
        missing.add(column);
      }
    }
    if (!missing.isEmpty()) {
      return Optional.of(
          "groups by ("
              + String.join(", ", candidate.keys())
              + "), not by "
              + String.join(", ", missing)
              + " that the query groups or filters by");
    }
    Optional<String> filter = filterMismatch(shape, candidate);
    if (filter.isPresent()) {
      return filter;
    }
    if (shape.grid().isPresent() && !nests(shape.grid().get(), candidate.grid(), shape, facts)) {
      return Optional.of(
          "the query's "
              + shape.grid().get()
              + " buckets are not whole multiples of its "
              + candidate.grid()
              + " buckets"
              + (shape.grid().get() instanceof FixedGrid && candidate.grid() instanceof FixedGrid
                  ? ""
                  : " in the query's range"));
    }
    if (shape.grid().isEmpty()
        && !(candidate.grid() instanceof FixedGrid)
        && shape.aggregates().stream().anyMatch(c -> Aggregates.of(c).mergesAlongTimeOnly())) {
      return Optional.of(
          "buckets local days or months, which the raw rows' pieces of a time-weighted range"
              + " cannot follow");
    }
    for (AggregateCall call : shape.aggregates()) {
      Aggregate aggregate = Aggregates.of(call);
      Optional<StoredForm> form =
          aggregate.storedForm(call, candidate.aggregates(), raw, merge(shape, candidate));
      if (form.isEmpty()) {
        return Optional.of("stores nothing " + call + " can be computed from");
      }
      if (!form.get().isMergeable() && !readsAsStored(shape, candidate)) {
        return Optional.of(
            "stores "
                + call
                + " without what merging it needs (a rollup of the first version): it answers"
                + " only at its own width and keys");
      }
    }
    return Optional.empty();
  }

  /**
   * Why a rollup's WHERE does not answer the query's, if it does not: its terms on columns it does
   * not hold must be the query's own, and the query's WHERE must imply each of its key terms (the
   * query's key filters then apply to its rows as to raw rows).
   */
  private static Optional<String> filterMismatch(QueryShape shape, RouteCandidate candidate) {
    java.util.Set<String> rowTerms = candidate.filter().rowTexts();
    if (!rowTerms.equals(shape.rowFilters())) {
      String holds =
          rowTerms.isEmpty()
              ? "holds every row"
              : "holds only rows where " + String.join(" and ", new java.util.TreeSet<>(rowTerms));
      String asks =
          shape.rowFilters().isEmpty()
              ? "the query asks for every row"
              : "the query asks for rows where " + String.join(" and ", shape.rowFilters());
      return Optional.of(holds + "; " + asks + ", which its rows cannot be filtered to");
    }
    for (net.sf.jsqlparser.expression.Expression term : candidate.filter().keyTerms()) {
      String text = dev.timelake.rollup.RollupFilter.text(term);
      if (!shape.impliedTerms().contains(text)) {
        return Optional.of(
            "holds only rows where " + text + ", which the query's WHERE does not imply");
      }
    }
    return Optional.empty();
  }

  /**
   * Whether each query bucket that may be read is whole rollup buckets: at all times for grids
   * whose widths divide (hours of minutes, months of local days), otherwise checked boundary by
   * boundary over the query's range where the raw table has rows (a local day of Asia/Kolkata on a
   * UTC quarter-hour grid; a local day of Europe/Berlin is not one of UTC days).
   */
  private static boolean nests(
      BucketGrid query, BucketGrid rollup, QueryShape shape, RawFacts facts) {
    if (query.isMultipleOf(rollup)) {
      return true;
    }
    if (query instanceof FixedGrid && rollup instanceof FixedGrid) {
      return false;
    }
    IntervalSet range = shape.time().intersect(facts.extent());
    if (range.isEmpty() || !range.isBounded()) {
      return false;
    }
    TimeInterval span = range.span();
    long from = query.floor(span.start());
    long to = query.ceil(span.end());
    // Bucket starts are computed by time_bucket, which takes the later of two midnights; local
    // dates start at the earlier one, so those are routed only where no midnight repeats.
    if (query instanceof CalendarGrid local
        && !local.laterMidnight()
        && CalendarGrid.repeatsMidnightBetween(local.zone(), from, to)) {
      return false;
    }
    return query.isMultipleOf(rollup, from, to);
  }

  /** Whether the query's groups gather rows of several of the rollup's series. */
  private static SeriesMerge merge(QueryShape shape, RouteCandidate candidate) {
    return shape.keys().size() < candidate.keys().size() ? SeriesMerge.ACROSS : SeriesMerge.WITHIN;
  }

  private static boolean readsAsStored(QueryShape shape, RouteCandidate candidate) {
    return shape.grid().map(candidate.grid()::equals).orElse(false)
        && candidate.keys().size() == shape.keys().size();
  }

  private static List<StoredForm> forms(QueryShape shape, RawFacts raw, RouteCandidate candidate) {
    List<StoredForm> forms = new ArrayList<>();
    for (AggregateCall call : shape.aggregates()) {
      forms.add(
          Aggregates.of(call)
              .storedForm(call, candidate.aggregates(), raw.contract(), merge(shape, candidate))
              .orElseThrow());
    }
    return forms;
  }
}
