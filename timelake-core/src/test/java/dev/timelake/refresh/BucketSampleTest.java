package dev.timelake.refresh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Which buckets a verification sample checks: a seeded, repeatable choice among distinct ones. */
class BucketSampleTest {
  private static final long HOUR = 3_600_000_000L;

  private static List<Long> hours(int count) {
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      starts.add(i * HOUR);
    }
    return starts;
  }

  @Test
  void theSameSeedChoosesTheSameDistinctSortedBuckets() {
    List<Long> buckets = hours(100);
    List<Long> repeated = new ArrayList<>(buckets);
    repeated.addAll(buckets.subList(0, 50)); // a bucket both sides hold is listed twice

    BucketSample sample = BucketSample.choose(buckets, 10, 42);

    assertThat(BucketSample.choose(repeated, 10, 42)).isEqualTo(sample);
    assertThat(sample.available()).isEqualTo(100);
    assertThat(sample.chosen()).hasSize(10).doesNotHaveDuplicates().isSorted();
    assertThat(buckets).containsAll(sample.chosen());
    assertThat(BucketSample.choose(buckets, 10, 43).chosen()).isNotEqualTo(sample.chosen());
  }

  @Test
  void aSampleLargerThanTheBucketsTakesThemAll() {
    BucketSample sample = BucketSample.choose(hours(3), 10, 1);

    assertThat(sample.chosen()).containsExactly(0L, HOUR, 2 * HOUR);
    assertThat(sample.intervals(BucketGrid.of(HOUR, 0))).isEqualTo(IntervalSet.of(0, 3 * HOUR));
    assertThat(BucketSample.choose(new TreeSet<>(), 10, 1).intervals(BucketGrid.of(HOUR, 0)))
        .isEqualTo(IntervalSet.empty());
  }

  @Test
  void eachChosenBucketBecomesItsInterval() {
    BucketSample sample = new BucketSample(List.of(HOUR, 5 * HOUR), 6);

    assertThat(sample.intervals(BucketGrid.of(HOUR, 0)).intervals())
        .containsExactly(new TimeInterval(HOUR, 2 * HOUR), new TimeInterval(5 * HOUR, 6 * HOUR));
  }
}
