package dev.timelake.time;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A set of instants as sorted, disjoint, non-adjacent {@link TimeInterval}s. Immutable; every
 * operation returns a new set.
 */
public final class IntervalSet {
  private static final IntervalSet EMPTY = new IntervalSet(List.of());
  private static final IntervalSet ALL = new IntervalSet(List.of(TimeInterval.ALL));

  private final List<TimeInterval> intervals;

  private IntervalSet(List<TimeInterval> normalized) {
    this.intervals = normalized;
  }

  /** No instant. */
  public static IntervalSet empty() {
    return EMPTY;
  }

  /** Every instant. */
  public static IntervalSet all() {
    return ALL;
  }

  /** The instants {@code [start, end)}. */
  public static IntervalSet of(long start, long end) {
    return of(List.of(new TimeInterval(start, end)));
  }

  /** The union of {@code intervals}, in any order, overlapping or not. */
  public static IntervalSet of(TimeInterval... intervals) {
    return of(Arrays.asList(intervals));
  }

  /** The union of {@code intervals}, in any order, overlapping or not. */
  public static IntervalSet of(List<TimeInterval> intervals) {
    List<TimeInterval> sorted = new ArrayList<>(intervals.size());
    for (TimeInterval interval : intervals) {
      if (!interval.isEmpty()) {
        sorted.add(interval);
      }
    }
    sorted.sort(Comparator.comparingLong(TimeInterval::start));
    List<TimeInterval> merged = new ArrayList<>(sorted.size());
    for (TimeInterval interval : sorted) {
      int last = merged.size() - 1;
      if (last >= 0 && interval.start() <= merged.get(last).end()) {
        TimeInterval previous = merged.get(last);
        merged.set(
            last, new TimeInterval(previous.start(), Math.max(previous.end(), interval.end())));
      } else {
        merged.add(interval);
      }
    }
    return merged.isEmpty() ? EMPTY : new IntervalSet(List.copyOf(merged));
  }

  /** The intervals, sorted, disjoint and non-adjacent. */
  public List<TimeInterval> intervals() {
    return intervals;
  }

  /** True when the set holds no instant. */
  public boolean isEmpty() {
    return intervals.isEmpty();
  }

  /** True when no interval has an open end. */
  public boolean isBounded() {
    return intervals.stream().allMatch(TimeInterval::isBounded);
  }

  /** True when {@code micros} is in the set. */
  public boolean contains(long micros) {
    return intervals.stream().anyMatch(i -> i.contains(micros));
  }

  /** The smallest interval holding the set ({@code [0, 0)} when empty). */
  public TimeInterval span() {
    return isEmpty()
        ? new TimeInterval(0, 0)
        : new TimeInterval(intervals.get(0).start(), intervals.get(intervals.size() - 1).end());
  }

  /** The instants in this set or in {@code other}. */
  public IntervalSet union(IntervalSet other) {
    List<TimeInterval> both = new ArrayList<>(intervals);
    both.addAll(other.intervals);
    return of(both);
  }

  /** The instants in both sets. */
  public IntervalSet intersect(IntervalSet other) {
    List<TimeInterval> result = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < intervals.size() && j < other.intervals.size()) {
      TimeInterval a = intervals.get(i);
      TimeInterval b = other.intervals.get(j);
      TimeInterval both = a.intersect(b);
      if (!both.isEmpty()) {
        result.add(both);
      }
      if (a.end() <= b.end()) {
        i++;
      } else {
        j++;
      }
    }
    return of(result);
  }

  /** The instants in this set inside {@code interval}. */
  public IntervalSet clip(TimeInterval interval) {
    return intersect(of(List.of(interval)));
  }

  /** The instants in this set and not in {@code other}. */
  public IntervalSet subtract(IntervalSet other) {
    List<TimeInterval> result = new ArrayList<>();
    for (TimeInterval interval : intervals) {
      long cursor = interval.start();
      for (TimeInterval hole : other.intervals) {
        if (hole.end() <= cursor || hole.start() >= interval.end()) {
          continue;
        }
        if (hole.start() > cursor) {
          result.add(new TimeInterval(cursor, hole.start()));
        }
        cursor = Math.max(cursor, hole.end());
      }
      if (cursor < interval.end()) {
        result.add(new TimeInterval(cursor, interval.end()));
      }
    }
    return of(result);
  }

  /** The whole buckets of {@code grid} inside the set: each interval shrunk to bucket starts. */
  public IntervalSet alignInward(BucketGrid grid) {
    List<TimeInterval> result = new ArrayList<>(intervals.size());
    for (TimeInterval interval : intervals) {
      result.add(new TimeInterval(grid.ceil(interval.start()), grid.floor(interval.end())));
    }
    return of(result);
  }

  /** The buckets of {@code grid} that hold an instant of the set. */
  public IntervalSet alignOutward(BucketGrid grid) {
    List<TimeInterval> result = new ArrayList<>(intervals.size());
    for (TimeInterval interval : intervals) {
      result.add(new TimeInterval(grid.floor(interval.start()), grid.ceil(interval.end())));
    }
    return of(result);
  }

  /** The number of buckets of {@code grid} the set covers, or -1 when it has an open end. */
  public long bucketCount(BucketGrid grid) {
    long count = 0;
    for (TimeInterval interval : alignOutward(grid).intervals) {
      if (!interval.isBounded()) {
        return -1;
      }
      if (grid instanceof FixedGrid fixed) {
        count += (interval.end() - interval.start()) / fixed.widthMicros();
      } else {
        for (long start = interval.start(); start < interval.end(); start = grid.next(start)) {
          count++;
        }
      }
    }
    return count;
  }

  /**
   * The set cut into consecutive pieces of at most {@code maxMicros} of instants each, in time
   * order; a longer interval is split every whole number of {@code grid}'s buckets, so a set
   * aligned to the grid gives pieces aligned to it. A bounded set only.
   */
  public List<IntervalSet> split(long maxMicros, BucketGrid grid) {
    if (!isBounded()) {
      throw new IllegalStateException("cannot split an unbounded set: " + this);
    }
    if (!(grid instanceof FixedGrid fixed)) {
      return splitAtBoundaries(maxMicros, grid);
    }
    long width = fixed.widthMicros();
    long step = Math.max(width, maxMicros / width * width);
    List<IntervalSet> pieces = new ArrayList<>();
    List<TimeInterval> piece = new ArrayList<>();
    long covered = 0;
    for (TimeInterval interval : intervals) {
      long start = interval.start();
      while (start < interval.end()) {
        long end = Math.min(interval.end(), start + (step - covered));
        piece.add(new TimeInterval(start, end));
        covered += end - start;
        start = end;
        if (covered >= step) {
          pieces.add(of(piece));
          piece = new ArrayList<>();
          covered = 0;
        }
      }
    }
    if (!piece.isEmpty()) {
      pieces.add(of(piece));
    }
    return pieces;
  }

  /**
   * {@link #split} for a grid whose buckets differ in length: each piece ends on one of its
   * boundaries, after at least one bucket.
   */
  private List<IntervalSet> splitAtBoundaries(long maxMicros, BucketGrid grid) {
    List<IntervalSet> pieces = new ArrayList<>();
    List<TimeInterval> piece = new ArrayList<>();
    long covered = 0;
    for (TimeInterval interval : intervals) {
      long start = interval.start();
      while (start < interval.end()) {
        long end = Math.min(interval.end(), grid.floor(start + (maxMicros - covered)));
        if (end <= start) {
          if (!piece.isEmpty()) {
            pieces.add(of(piece));
            piece = new ArrayList<>();
            covered = 0;
            continue;
          }
          end = Math.min(interval.end(), grid.next(grid.floor(start)));
        }
        piece.add(new TimeInterval(start, end));
        covered += end - start;
        start = end;
        if (start < interval.end()) {
          pieces.add(of(piece));
          piece = new ArrayList<>();
          covered = 0;
        }
      }
    }
    if (!piece.isEmpty()) {
      pieces.add(of(piece));
    }
    return pieces;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof IntervalSet set && set.intervals.equals(intervals);
  }

  @Override
  public int hashCode() {
    return intervals.hashCode();
  }

  /** E.g. {@code {[…, …), […, …)}}; {@code {}} when empty. */
  @Override
  public String toString() {
    List<String> parts = intervals.stream().map(TimeInterval::toString).toList();
    return "{" + String.join(", ", parts) + "}";
  }
}
