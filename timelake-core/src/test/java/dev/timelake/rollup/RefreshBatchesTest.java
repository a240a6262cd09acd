package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Changed ranges are recomputed in as few commits as the window size allows. */
class RefreshBatchesTest {
  private static final long MINUTE = 60_000_000L;
  private static final long DAY = 1_440 * MINUTE;

  @Test
  void scatteredLateBucketsAreRecomputedInOneCommit() {
    List<long[]> ranges = new ArrayList<>();
    for (int i = 0; i < 56; i++) {
      ranges.add(new long[] {i * 50 * MINUTE, i * 50 * MINUTE + MINUTE});
    }
    List<List<long[]>> batches = RollupRefresher.batches(ranges, MINUTE);
    assertThat(batches).hasSize(1);
    assertThat(batches.get(0)).hasSize(56);
  }

  @Test
  void aRangeLongerThanTheWindowIsSplitAtBucketBoundaries() {
    List<List<long[]>> batches =
        RollupRefresher.batches(
            List.of(new long[] {0, 10 * DAY}, new long[] {20 * DAY, 21 * DAY}), DAY);
    assertThat(batches).hasSize(2);
    assertThat(batches.get(0)).containsExactly(new long[] {0, 7 * DAY});
    assertThat(batches.get(1))
        .containsExactly(new long[] {7 * DAY, 10 * DAY}, new long[] {20 * DAY, 21 * DAY});
  }

  @Test
  void noChangedRangesMeanNoCommits() {
    assertThat(RollupRefresher.batches(List.of(), MINUTE)).isEmpty();
  }
}
