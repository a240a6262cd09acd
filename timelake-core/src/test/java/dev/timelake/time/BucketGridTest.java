package dev.timelake.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BucketGridTest {
  private static final long HOUR = 3_600_000_000L;
  private static final long DAY = 24 * HOUR;

  @Test
  void floorsWithEuclideanDivisionBeforeTheOriginToo() {
    BucketGrid tens = BucketGrid.of(10, 0);
    assertThat(tens.floor(-11)).isEqualTo(-20);
    assertThat(tens.floor(-1)).isEqualTo(-10);
    assertThat(tens.floor(0)).isEqualTo(0);
    assertThat(tens.ceil(-11)).isEqualTo(-10);
    assertThat(tens.ceil(20)).isEqualTo(20);
    assertThat(tens.floor(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
    assertThat(tens.ceil(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void gridsThatBucketAlikeAreEqual() {
    assertThat(BucketGrid.timeBucket(DAY)).isEqualTo(BucketGrid.of(DAY, 0));
    assertThat(BucketGrid.timeBucket(HOUR)).isEqualTo(BucketGrid.of(HOUR, 0));
    // Weeks: time_bucket starts them on Monday 2000-01-03, date_bin on Thursday 1970-01-01.
    assertThat(BucketGrid.timeBucket(7 * DAY)).isNotEqualTo(BucketGrid.of(7 * DAY, 0));
    assertThat(BucketGrid.timeBucket(7 * DAY).toString()).isEqualTo("7d from 1970-01-05T00:00:00Z");
  }

  @Test
  void coarserGridsAreMultiplesOfFinerOnesWithAlignedOrigins() {
    BucketGrid minute = BucketGrid.of(60_000_000L, 0);
    assertThat(BucketGrid.of(6 * HOUR, 0).isMultipleOf(minute)).isTrue();
    assertThat(BucketGrid.timeBucket(7 * DAY).isMultipleOf(BucketGrid.of(DAY, 0))).isTrue();
    assertThat(BucketGrid.of(90 * 60_000_000L, 0).isMultipleOf(BucketGrid.of(HOUR, 0))).isFalse();
    assertThat(BucketGrid.of(HOUR, 30 * 60_000_000L).isMultipleOf(BucketGrid.of(HOUR, 0)))
        .isFalse();
    assertThat(BucketGrid.of(2 * HOUR, HOUR).isMultipleOf(BucketGrid.of(HOUR, 0))).isTrue();
  }

  @Test
  void rejectsWidthsThatAreNotPositive() {
    assertThatThrownBy(() -> BucketGrid.of(0, 0))
        .hasMessage("bucket width must be positive, got 0");
  }
}
