package dev.timelake.index;

import dev.timelake.TimelakeException;
import dev.timelake.table.IndexGranularity;
import java.math.BigInteger;
import java.time.Instant;

/**
 * The intervals of an ordered index: each value's interval id, a 64-bit number whose unsigned order
 * is the index order (the order of the ids in a coverage bitmap), and each id's half-open range
 * {@code [start, end)}. For timestamps (in µs) and BIGINT values the id is the interval ordinal
 * (Euclidean floor of value ÷ width, for timestamps of whole seconds) with its sign bit flipped;
 * for UBIGINT values it is value ÷ width, unsigned. The last interval of a domain ends at the
 * domain's maximum, which it includes.
 */
public final class IndexIntervals {
  /** Flipping it orders signed ordinals as unsigned ids. */
  public static final long SIGN_BIT = Long.MIN_VALUE;

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  /** The domain of an index column. */
  public enum Domain {
    TIMESTAMP,
    INT64,
    UINT64
  }

  private final Domain domain;
  private final BigInteger width;

  private IndexIntervals(Domain domain, BigInteger width) {
    this.domain = domain;
    this.width = width;
  }

  /** The intervals of a timestamp index of granularity {@code granularity}. */
  public static IndexIntervals timestamps(IndexGranularity.Time granularity) {
    return new IndexIntervals(Domain.TIMESTAMP, BigInteger.valueOf(granularity.widthSeconds()));
  }

  /** The intervals of an integer index (BIGINT or UBIGINT) of granularity {@code granularity}. */
  public static IndexIntervals integers(Domain domain, IndexGranularity.Count granularity) {
    if (domain == Domain.TIMESTAMP) {
      throw new IllegalArgumentException("a timestamp index takes a time granularity");
    }
    return new IndexIntervals(domain, unsigned(granularity.width()));
  }

  /** The intervals of the table's ordered index, when it has an index granularity. */
  public static java.util.Optional<IndexIntervals> of(dev.timelake.table.TableContract contract) {
    return java.util.Optional.ofNullable(
            contract.settings().get(dev.timelake.table.Settings.INDEX_GRANULARITY.name()))
        .map(text -> of(contract.column(contract.timeColumn().orElseThrow()).type(), text));
  }

  /** The intervals of an index column of type {@code type} and granularity {@code text}. */
  public static IndexIntervals of(dev.timelake.ColumnType type, String text) {
    IndexGranularity granularity = IndexGranularity.forColumn(type, text);
    return granularity instanceof IndexGranularity.Time time
        ? timestamps(time)
        : integers(Domain.INT64, (IndexGranularity.Count) granularity);
  }

  /** The width: seconds for timestamps, index units for integers (unsigned). */
  public BigInteger width() {
    return width;
  }

  public Domain domain() {
    return domain;
  }

  /**
   * The id of the interval holding {@code value}: µs since the epoch for timestamps, the value
   * itself for BIGINT, its unsigned bits for UBIGINT.
   */
  public long id(long value) {
    if (domain == Domain.UINT64) {
      return unsigned(value).divide(width).longValue();
    }
    BigInteger scaled =
        domain == Domain.TIMESTAMP
            ? BigInteger.valueOf(Math.floorDiv(value, 1_000_000L))
            : BigInteger.valueOf(value);
    BigInteger ordinal = floorDiv(scaled, width);
    return ordinal.longValue() ^ SIGN_BIT;
  }

  /**
   * The ids of every interval {@code [start, end)} touches, as {@code [first, last]}.
   *
   * @throws dev.timelake.ValidationException when {@code start >= end}
   */
  public long[] ids(long start, long end) {
    boolean ordered = domain == Domain.UINT64 ? Long.compareUnsigned(start, end) < 0 : start < end;
    if (!ordered) {
      throw TimelakeException.validation(
          "Invalid range [%s, %s): its start must be before its end",
          renderValue(start), renderValue(end));
    }
    return new long[] {id(start), id(end - 1)};
  }

  /** The first value of interval {@code id}, as {@link #id} takes values. */
  public long start(long id) {
    return toValue(startOf(id));
  }

  /**
   * The first value after interval {@code id}, as {@link #id} takes values; {@link Long#MAX_VALUE}
   * for the domain's last interval, which includes it.
   */
  public long end(long id) {
    return id == id(domain == Domain.UINT64 ? -1L : Long.MAX_VALUE)
        ? Long.MAX_VALUE
        : start(id + 1);
  }

  /**
   * The interval {@code id} as users read it: {@code [start, end)}, or {@code [start, max]} for the
   * domain's last interval.
   *
   * @throws dev.timelake.ValidationException when no value of the domain has that id
   */
  public String render(long id) {
    BigInteger start = startOf(id);
    BigInteger end = start.add(width);
    BigInteger max = domainMax();
    return end.compareTo(max) > 0
        ? "[" + render(start) + ", " + render(max) + "]"
        : "[" + render(start) + ", " + render(end) + ")";
  }

  /**
   * The first value of interval {@code id} in the domain's own units (seconds for timestamps),
   * clipped at the domain's minimum.
   */
  private BigInteger startOf(long id) {
    BigInteger ordinal = domain == Domain.UINT64 ? unsigned(id) : BigInteger.valueOf(id ^ SIGN_BIT);
    BigInteger start = ordinal.multiply(width);
    BigInteger last = start.add(width).subtract(BigInteger.ONE);
    if (last.compareTo(domainMin()) < 0 || start.compareTo(domainMax()) > 0) {
      throw TimelakeException.validation(
          "Interval id %s is outside the %s domain of width %s",
          Long.toUnsignedString(id), domain, width);
    }
    // A width wider than half the domain starts the first interval below the domain: clip it.
    return start.max(domainMin());
  }

  private BigInteger domainMin() {
    return switch (domain) {
      case UINT64 -> BigInteger.ZERO;
      case INT64 -> BigInteger.valueOf(Long.MIN_VALUE);
      case TIMESTAMP -> BigInteger.valueOf(Math.floorDiv(Long.MIN_VALUE, 1_000_000L));
    };
  }

  private BigInteger domainMax() {
    return switch (domain) {
      case UINT64 -> TWO_64.subtract(BigInteger.ONE);
      case INT64 -> BigInteger.valueOf(Long.MAX_VALUE);
      case TIMESTAMP -> BigInteger.valueOf(Math.floorDiv(Long.MAX_VALUE, 1_000_000L));
    };
  }

  private long toValue(BigInteger start) {
    return domain == Domain.TIMESTAMP
        ? start.multiply(BigInteger.valueOf(1_000_000L)).longValueExact()
        : start.longValue();
  }

  private String render(BigInteger value) {
    return domain == Domain.TIMESTAMP
        ? Instant.ofEpochSecond(value.longValueExact()).toString()
        : value.toString();
  }

  private String renderValue(long value) {
    return switch (domain) {
      case TIMESTAMP -> {
        long seconds = Math.floorDiv(value, 1_000_000L);
        long micros = Math.floorMod(value, 1_000_000L);
        yield Instant.ofEpochSecond(seconds, micros * 1_000).toString();
      }
      case INT64 -> Long.toString(value);
      case UINT64 -> Long.toUnsignedString(value);
    };
  }

  private static BigInteger unsigned(long value) {
    BigInteger big = BigInteger.valueOf(value);
    return value < 0 ? big.add(TWO_64) : big;
  }

  private static BigInteger floorDiv(BigInteger value, BigInteger divisor) {
    BigInteger[] division = value.divideAndRemainder(divisor);
    return division[1].signum() < 0 ? division[0].subtract(BigInteger.ONE) : division[0];
  }
}
