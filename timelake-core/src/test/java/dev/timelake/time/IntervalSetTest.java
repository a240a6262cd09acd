package dev.timelake.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TestRandom;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Interval sets against a bit-set oracle over a small range of instants. */
class IntervalSetTest {
  private static final int RANGE = 200;

  @Test
  void setOperationsAgreeWithABitSetOracle() {
    TestRandom random = TestRandom.create();
    for (int round = 0; round < 2_000; round++) {
      BitSet a = new BitSet();
      BitSet b = new BitSet();
      IntervalSet left = randomSet(random, a);
      IntervalSet right = randomSet(random, b);
      assertSameInstants(left.union(right), or(a, b), random);
      assertSameInstants(left.intersect(right), and(a, b), random);
      assertSameInstants(left.subtract(right), andNot(a, b), random);
      assertNormalized(left.union(right));
      assertNormalized(left.subtract(right));
    }
  }

  @Test
  void alignInwardKeepsWholeBucketsAndOutwardEveryTouchedBucket() {
    TestRandom random = TestRandom.create();
    for (int round = 0; round < 1_000; round++) {
      BitSet bits = new BitSet();
      IntervalSet set = randomSet(random, bits);
      FixedGrid grid = BucketGrid.of(1 + random.nextInt(12), random.nextInt(30) - 15);
      BitSet inward = new BitSet();
      BitSet outward = new BitSet();
      for (long start = grid.floor(-20); start < RANGE + 20; start += grid.widthMicros()) {
        int from = (int) Math.max(0, start);
        int to = (int) Math.min(RANGE, start + grid.widthMicros());
        boolean whole = start >= 0 && start + grid.widthMicros() <= RANGE;
        boolean all = whole && bits.get(from, to).cardinality() == to - from;
        boolean any = from < to && !bits.get(from, to).isEmpty();
        if (all) {
          inward.set(from, to);
        }
        if (any) {
          outward.set(
              (int) Math.max(0, start), (int) Math.min(RANGE + 20, start + grid.widthMicros()));
        }
      }
      assertSameInstants(set.alignInward(grid).clip(new TimeInterval(0, RANGE)), inward, random);
      assertSameInstants(
          set.alignOutward(grid).clip(new TimeInterval(0, RANGE + 20)), outward, random);
    }
  }

  @Test
  void openEndsStayOpen() {
    IntervalSet from = IntervalSet.of(100, Long.MAX_VALUE);
    BucketGrid grid = BucketGrid.of(30, 0);
    assertThat(from.alignInward(grid)).isEqualTo(IntervalSet.of(120, Long.MAX_VALUE));
    assertThat(IntervalSet.all().subtract(from)).isEqualTo(IntervalSet.of(Long.MIN_VALUE, 100));
    assertThat(from.bucketCount(grid)).isEqualTo(-1);
    assertThat(IntervalSet.all().isBounded()).isFalse();
  }

  @Test
  void splitCutsIntoPiecesOfAtMostTheStep() {
    BucketGrid grid = BucketGrid.of(10, 0);
    IntervalSet set = IntervalSet.of(new TimeInterval(0, 50), new TimeInterval(100, 130));
    List<IntervalSet> pieces = set.split(35, grid);
    assertThat(pieces)
        .containsExactly(
            IntervalSet.of(0, 30),
            IntervalSet.of(30, 50).union(IntervalSet.of(100, 110)),
            IntervalSet.of(110, 130));
    assertThat(pieces.stream().reduce(IntervalSet.empty(), IntervalSet::union)).isEqualTo(set);
    assertThatThrownBy(() -> IntervalSet.all().split(10, grid))
        .hasMessage("cannot split an unbounded set: {[-inf, +inf)}");
  }

  @Test
  void scatteredBucketsFitInOnePieceAndLongRangesSplitAtBucketStarts() {
    long minute = 60_000_000L;
    long day = 1_440 * minute;
    List<TimeInterval> scattered = new ArrayList<>();
    for (int i = 0; i < 56; i++) {
      scattered.add(new TimeInterval(i * 50 * minute, i * 50 * minute + minute));
    }
    List<IntervalSet> pieces = IntervalSet.of(scattered).split(7 * day, BucketGrid.of(minute, 0));
    assertThat(pieces).hasSize(1);
    assertThat(pieces.get(0).intervals()).hasSize(56);
    IntervalSet long10 =
        IntervalSet.of(new TimeInterval(0, 10 * day), new TimeInterval(20 * day, 21 * day));
    assertThat(long10.split(7 * day, BucketGrid.of(day, 0)))
        .containsExactly(
            IntervalSet.of(0, 7 * day),
            IntervalSet.of(
                new TimeInterval(7 * day, 10 * day), new TimeInterval(20 * day, 21 * day)));
    assertThat(IntervalSet.empty().split(7 * day, BucketGrid.of(day, 0))).isEmpty();
  }

  @Test
  void countsBucketsAndPrintsInstants() {
    IntervalSet day = IntervalSet.of(0, 86_400_000_000L);
    assertThat(day.bucketCount(BucketGrid.of(3_600_000_000L, 0))).isEqualTo(24);
    assertThat(day.toString()).isEqualTo("{[1970-01-01T00:00:00Z, 1970-01-02T00:00:00Z)}");
    assertThat(IntervalSet.empty().toString()).isEqualTo("{}");
  }

  private static IntervalSet randomSet(TestRandom random, BitSet bits) {
    List<TimeInterval> intervals = new ArrayList<>();
    int count = random.nextInt(5);
    for (int i = 0; i < count; i++) {
      int start = random.nextInt(RANGE);
      int end = start + random.nextInt(RANGE - start + 1);
      intervals.add(new TimeInterval(start, end));
      bits.set(start, end);
    }
    return IntervalSet.of(intervals);
  }

  private static void assertSameInstants(IntervalSet set, BitSet expected, TestRandom random) {
    BitSet actual = new BitSet();
    for (TimeInterval interval : set.intervals()) {
      actual.set((int) interval.start(), (int) interval.end());
    }
    assertThat(actual).as("%s (%s)", set, random).isEqualTo(expected);
  }

  private static void assertNormalized(IntervalSet set) {
    List<TimeInterval> intervals = set.intervals();
    for (int i = 0; i < intervals.size(); i++) {
      assertThat(intervals.get(i).isEmpty()).isFalse();
      if (i > 0) {
        assertThat(intervals.get(i).start()).isGreaterThan(intervals.get(i - 1).end());
      }
    }
  }

  private static BitSet or(BitSet a, BitSet b) {
    BitSet result = (BitSet) a.clone();
    result.or(b);
    return result;
  }

  private static BitSet and(BitSet a, BitSet b) {
    BitSet result = (BitSet) a.clone();
    result.and(b);
    return result;
  }

  private static BitSet andNot(BitSet a, BitSet b) {
    BitSet result = (BitSet) a.clone();
    result.andNot(b);
    return result;
  }
}
