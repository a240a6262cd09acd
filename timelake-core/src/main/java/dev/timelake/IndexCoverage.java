package dev.timelake;

import dev.timelake.index.CoverageView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which (series, interval) pairs of a table with an index granularity hold a row, at the snapshot
 * it was read from, answered from coverage without reading data files. Series are named by a map of
 * every entity column to its value ({@code Map.of()} for a table without entity columns).
 *
 * <pre>{@code
 * IndexCoverage coverage = lake.table("market.bars").indexCoverage();
 * CoverageSummary nvda = coverage.summary(Map.of("symbol", "NVDA"), from, to);
 * List<IndexRange> gaps = coverage.gaps(Map.of("symbol", "NVDA"), from, to, 5);
 * }</pre>
 */
public final class IndexCoverage {
  private final CoverageView view;

  IndexCoverage(CoverageView view) {
    this.view = view;
  }

  public TableName table() {
    return view.contract().name();
  }

  /** The entity columns, in order. */
  public List<String> entityColumns() {
    return view.contract().seriesKey();
  }

  /** The index granularity, e.g. {@code 1 minute}. */
  public String granularity() {
    return view.granularity();
  }

  /** Every series that holds a row. */
  public List<Map<String, Object>> identities() {
    return view.identities();
  }

  /** How much of {@code [from, to)} the series covers: covered ÷ expected intervals. */
  public CoverageSummary summary(Map<String, ?> identity, Instant from, Instant to) {
    return view.summary(identity, from, to);
  }

  /** {@link #summary} of every series that holds a row. */
  public List<CoverageSummary> summaries(Instant from, Instant to) {
    return view.summaries(from, to);
  }

  /** The covered share of {@code [from, to)}; 1.0 for an empty range. */
  public double ratio(Map<String, ?> identity, Instant from, Instant to) {
    return summary(identity, from, to).ratio();
  }

  /** The runs of intervals without a row in {@code [from, to)}, at least {@code minIntervals}. */
  public List<IndexRange> gaps(
      Map<String, ?> identity, Instant from, Instant to, long minIntervals) {
    return view.gaps(identity, from, to, minIntervals);
  }

  /** The longest gap in {@code [from, to)}, if there is one. */
  public Optional<IndexRange> longestGap(Map<String, ?> identity, Instant from, Instant to) {
    return gaps(identity, from, to, 1).stream()
        .reduce((a, b) -> b.intervals() > a.intervals() ? b : a);
  }

  /**
   * How much of {@code [from, to)} of a logical clock (a BIGINT index, in its units) the series
   * covers.
   */
  public CoverageSummary summary(Map<String, ?> identity, long from, long to) {
    return view.summary(identity, from, to);
  }

  /** {@link #summary(Map, long, long)} of every series that holds a row. */
  public List<CoverageSummary> summaries(long from, long to) {
    return view.summaries(from, to);
  }

  /** The covered share of {@code [from, to)} of a logical clock; 1.0 for an empty range. */
  public double ratio(Map<String, ?> identity, long from, long to) {
    return summary(identity, from, to).ratio();
  }

  /** The gaps of a logical clock in {@code [from, to)}, at least {@code minIntervals} long. */
  public List<ClockRange> gaps(Map<String, ?> identity, long from, long to, long minIntervals) {
    return view.gaps(identity, from, to, minIntervals);
  }

  /** The last run of at least {@code minIntervals} consecutive covered intervals. */
  public Optional<IndexRange> lastRun(Map<String, ?> identity, long minIntervals) {
    return view.lastRun(identity, minIntervals);
  }

  /** {@link #lastRun} of a logical clock (a BIGINT index), in its units. */
  public Optional<ClockRange> lastClockRun(Map<String, ?> identity, long minIntervals) {
    return view.lastClockRun(identity, minIntervals);
  }

  /** {@link #lastWindow(Map, Instant, long)} of a logical clock, in its units. */
  public Optional<ClockRange> lastWindow(Map<String, ?> identity, long atOrBefore, long intervals) {
    return view.lastWindow(identity, atOrBefore, intervals);
  }

  /**
   * The last {@code intervals} consecutive covered intervals whose last one is at or before the
   * interval holding {@code atOrBefore}.
   */
  public Optional<IndexRange> lastWindow(
      Map<String, ?> identity, Instant atOrBefore, long intervals) {
    return view.lastWindow(identity, atOrBefore, intervals);
  }
}
