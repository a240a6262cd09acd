package dev.timelake.refresh;

import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Bucket starts chosen at random, and how many there were to choose from. The choice is a function
 * of the distinct starts, the count and the seed ({@link Random}'s sequence is fixed by its
 * specification), so a sample is repeated by giving the same seed over the same data.
 */
record BucketSample(List<Long> chosen, long available) {
  BucketSample {
    chosen = List.copyOf(chosen);
  }

  /** {@code count} of the distinct {@code buckets} (all of them when fewer), sorted. */
  static BucketSample choose(Collection<Long> buckets, int count, long seed) {
    List<Long> distinct = new ArrayList<>(new TreeSet<>(buckets));
    List<Long> shuffled = new ArrayList<>(distinct);
    Collections.shuffle(shuffled, new Random(seed));
    List<Long> chosen = new ArrayList<>(shuffled.subList(0, Math.min(count, shuffled.size())));
    Collections.sort(chosen);
    return new BucketSample(chosen, distinct.size());
  }

  /** The chosen buckets of {@code grid} as instants. */
  IntervalSet intervals(BucketGrid grid) {
    List<TimeInterval> intervals = new ArrayList<>(chosen.size());
    for (long start : chosen) {
      intervals.add(new TimeInterval(start, grid.next(start)));
    }
    return IntervalSet.of(intervals);
  }
}
