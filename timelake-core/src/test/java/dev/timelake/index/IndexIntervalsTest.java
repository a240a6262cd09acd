package dev.timelake.index;

import static dev.timelake.index.IndexIntervals.SIGN_BIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TestRandom;
import dev.timelake.ValidationException;
import dev.timelake.table.IndexGranularity;
import dev.timelake.table.InvalidGranularityException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The granularity's parsing cases and the interval math of the reference sheet (section 4), and
 * properties at the domain edges: ids keep the index order, every value lies in its interval.
 */
class IndexIntervalsTest {
  private static final long MICROS = 1_000_000L;

  private static IndexIntervals int64(long width) {
    return IndexIntervals.integers(
        IndexIntervals.Domain.INT64, IndexGranularity.parseCount(Long.toUnsignedString(width)));
  }

  private static IndexIntervals time(String granularity) {
    return IndexIntervals.timestamps(IndexGranularity.parseTime(granularity));
  }

  @ParameterizedTest
  @CsvSource({
    "1m,1,MINUTES",
    "1 h,1,HOURS",
    "15 Minutes,15,MINUTES",
    "2d,2,DAYS",
    "90 SECS,90,SECONDS"
  })
  void readsTimeGranularities(String text, long count, IndexGranularity.Time.Unit unit) {
    assertThat(IndexGranularity.parseTime(text)).isEqualTo(new IndexGranularity.Time(count, unit));
  }

  @ParameterizedTest
  @CsvSource({
    "1w,UNKNOWN_UNIT",
    "1ms,UNKNOWN_UNIT",
    "1mo,UNKNOWN_UNIT",
    "10msec,UNKNOWN_UNIT",
    "1.5h,INVALID_NUMBER",
    "1_000s,INVALID_NUMBER",
    "1,MISSING_UNIT",
    "h,MISSING_NUMBER",
    "abcmin,MISSING_NUMBER",
    "0s,NON_POSITIVE",
    "4294967296h,TOO_LARGE"
  })
  void refusesTimeGranularitiesSayingWhy(String text, InvalidGranularityException.Reason reason) {
    assertThatThrownBy(() -> IndexGranularity.parseTime(text))
        .isInstanceOf(InvalidGranularityException.class)
        .hasMessageContaining("'" + text + "'")
        .satisfies(e -> assertThat(((InvalidGranularityException) e).reason()).isEqualTo(reason));
  }

  @ParameterizedTest
  @CsvSource(
      value = {
        "0,NON_POSITIVE",
        "-1,INVALID_NUMBER",
        "18446744073709551616,TOO_LARGE",
        "1.5,INVALID_NUMBER",
        "1e3,INVALID_NUMBER",
        "'',MISSING_NUMBER"
      })
  void refusesIntegerGranularitiesSayingWhy(
      String text, InvalidGranularityException.Reason reason) {
    assertThatThrownBy(() -> IndexGranularity.parseCount(text))
        .isInstanceOf(InvalidGranularityException.class)
        .satisfies(e -> assertThat(((InvalidGranularityException) e).reason()).isEqualTo(reason));
  }

  @Test
  void readsTheLargestIntegerGranularity() {
    assertThat(IndexGranularity.parseCount("18446744073709551615").width()).isEqualTo(-1L);
  }

  @Test
  void mapsInt64ValuesAsTheReferenceSheetDoes() {
    IndexIntervals ten = int64(10);
    assertThat(ten.id(-11)).isEqualTo(SIGN_BIT - 2);
    assertThat(ten.id(-1)).isEqualTo(SIGN_BIT - 1);
    assertThat(ten.id(50_465)).isEqualTo(SIGN_BIT + 5046);
    assertThat(ten.render(ten.id(-11))).isEqualTo("[-20, -10)");
    assertThat(ten.render(ten.id(-1))).isEqualTo("[-10, 0)");
    assertThat(ten.render(ten.id(50_465))).isEqualTo("[50460, 50470)");
    assertThat(ten.ids(0, 20)).containsExactly(SIGN_BIT, SIGN_BIT + 1);
    IndexIntervals one = int64(1);
    assertThat(one.id(Long.MIN_VALUE)).isZero();
    assertThat(one.id(0)).isEqualTo(SIGN_BIT);
    assertThat(one.id(Long.MAX_VALUE)).isEqualTo(-1L); // u64::MAX
    assertThat(one.render(one.id(50_464))).isEqualTo("[50464, 50465)");
    assertThat(one.render(one.id(Long.MAX_VALUE)))
        .isEqualTo("[9223372036854775807, 9223372036854775807]");
  }

  @Test
  void mapsUint64ValuesWithoutTheSignFlip() {
    IndexIntervals ten =
        IndexIntervals.integers(IndexIntervals.Domain.UINT64, IndexGranularity.parseCount("10"));
    assertThat(Long.toUnsignedString(ten.id(-1L))).isEqualTo("1844674407370955161");
    assertThat(ten.render(ten.id(-1L))).isEqualTo("[18446744073709551610, 18446744073709551615]");
    IndexIntervals two =
        IndexIntervals.integers(IndexIntervals.Domain.UINT64, IndexGranularity.parseCount("2"));
    assertThatThrownBy(() -> two.render(-1L))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("outside the UINT64 domain");
  }

  @Test
  void mapsTimestampsByWholeSecondsFromTheEpoch() {
    IndexIntervals second = time("1s");
    assertThat(second.id(-MICROS)).isEqualTo(SIGN_BIT - 1);
    assertThat(second.id(-1)).isEqualTo(SIGN_BIT - 1); // the sub-second part is dropped (floor)
    assertThat(second.id(0)).isEqualTo(SIGN_BIT);
    IndexIntervals minute = time("1 minute");
    assertThat(minute.id(-61 * MICROS)).isEqualTo(SIGN_BIT - 2);
    assertThat(minute.id(-60 * MICROS)).isEqualTo(SIGN_BIT - 1);
    assertThat(minute.id(-MICROS)).isEqualTo(SIGN_BIT - 1);
    assertThat(minute.id(0)).isEqualTo(SIGN_BIT);
    assertThat(minute.id(30_000 * 1_000L)).isEqualTo(SIGN_BIT); // 0 ms and 30,000 ms share one
    IndexIntervals hour = time("1h");
    assertThat(hour.render(hour.id(0))).isEqualTo("[1970-01-01T00:00:00Z, 1970-01-01T01:00:00Z)");
    assertThat(hour.render(hour.id(-MICROS)))
        .isEqualTo("[1969-12-31T23:00:00Z, 1970-01-01T00:00:00Z)");
    assertThat(hour.ids(0, 3_600 * MICROS)).containsExactly(SIGN_BIT, SIGN_BIT);
  }

  @Test
  void refusesEmptyAndReversedRanges() {
    assertThatThrownBy(() -> int64(10).ids(5, 5))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Invalid range [5, 5)");
    assertThatThrownBy(() -> time("1h").ids(10, 0))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("its start must be before its end");
  }

  @Test
  void idsKeepTheIndexOrderAndEveryValueLiesInItsInterval() {
    TestRandom random = TestRandom.create();
    long[] edges = {
      Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE
    };
    for (long width : new long[] {1, 7, 10, 60, 3_600, Long.MAX_VALUE, -1L}) {
      IndexIntervals intervals = int64(width);
      long previous = 0;
      boolean first = true;
      long[] values = new long[200];
      for (int i = 0; i < values.length; i++) {
        values[i] = i < edges.length ? edges[i] : random.nextLong();
      }
      java.util.Arrays.sort(values);
      for (long value : values) {
        long id = intervals.id(value);
        if (!first) {
          assertThat(Long.compareUnsigned(previous, id))
              .as("width %s, value %d", width, value)
              .isLessThanOrEqualTo(0);
        }
        assertThat(intervals.start(id))
            .as("width %d, value %d", width, value)
            .isLessThanOrEqualTo(value);
        previous = id;
        first = false;
      }
    }
  }
}
