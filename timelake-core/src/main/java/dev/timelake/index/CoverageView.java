package dev.timelake.index;

import dev.timelake.ColumnType;
import dev.timelake.CoverageSummary;
import dev.timelake.IndexRange;
import dev.timelake.TimelakeException;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Questions answered from one snapshot's coverage, without reading data: per series, how many of a
 * range's intervals hold a row, where the gaps are, the last run of at least N covered intervals,
 * and the last window of N covered intervals at or before a point. Work is proportional to the runs
 * of covered intervals, not to the intervals.
 */
public final class CoverageView {
  private final TableContract contract;
  private final IndexIntervals intervals;
  private final Coverage coverage;

  public CoverageView(TableContract contract, Coverage coverage) {
    this.contract = contract;
    this.intervals =
        IndexIntervals.of(contract)
            .orElseThrow(
                () ->
                    TimelakeException.validation(
                        "Table %s has no index granularity, so it keeps no coverage (create it with"
                            + " index_granularity, e.g. '1m')",
                        contract.name()));
    this.coverage = coverage;
  }

  /** The coverage of the current snapshot of a table with an index granularity. */
  public static CoverageView current(
      org.apache.iceberg.Table table,
      TableContract contract,
      dev.timelake.engine.EngineConnection connection) {
    if (!contract.hasIndexGranularity()) {
      return new CoverageView(contract, new Coverage());
    }
    return new CoverageView(
        contract, new CoverageStore(table, contract, connection).at(table.currentSnapshot()));
  }

  public TableContract contract() {
    return contract;
  }

  /** The granularity as stored, e.g. {@code 1 minute}. */
  public String granularity() {
    return contract.setting(Settings.INDEX_GRANULARITY).orElseThrow();
  }

  /** Every series that holds a row, in identity order. */
  public List<Map<String, Object>> identities() {
    List<Map<String, Object>> identities = new ArrayList<>();
    coverage
        .byIdentity()
        .keySet()
        .forEach(identity -> identities.add(identity.toMap(contract.seriesKey())));
    return identities;
  }

  /** How much of {@code [from, to)} the series {@code identity} covers. */
  public CoverageSummary summary(Map<String, ?> identity, Instant from, Instant to) {
    requireTimestamps("summary");
    return summary(identity(identity), from, to);
  }

  /** The summary of every series that holds a row, in identity order. */
  public List<CoverageSummary> summaries(Instant from, Instant to) {
    requireTimestamps("summaries");
    List<CoverageSummary> summaries = new ArrayList<>();
    for (EntityIdentity identity : coverage.byIdentity().keySet()) {
      summaries.add(summary(identity, from, to));
    }
    return summaries;
  }

  private CoverageSummary summary(EntityIdentity identity, Instant from, Instant to) {
    return summaryOfValues(identity, micros(from), micros(to));
  }

  /** How much of {@code [from, to)}, in index values (a logical clock's units), is covered. */
  public CoverageSummary summary(Map<String, ?> identity, long from, long to) {
    return summaryOfValues(identity(identity), from, to);
  }

  /** The summary of every series that holds a row, in identity order, in index values. */
  public List<CoverageSummary> summaries(long from, long to) {
    List<CoverageSummary> summaries = new ArrayList<>();
    for (EntityIdentity identity : coverage.byIdentity().keySet()) {
      summaries.add(summaryOfValues(identity, from, to));
    }
    return summaries;
  }

  private CoverageSummary summaryOfValues(EntityIdentity identity, long from, long to) {
    Optional<long[]> range = ids(from, to);
    if (range.isEmpty()) {
      return new CoverageSummary(identity.toMap(contract.seriesKey()), 0, 0, 1.0, 0);
    }
    long first = range.get()[0];
    long last = range.get()[1];
    IntervalIds ids = coverage.ids(identity);
    long expected = last - first + 1;
    long covered = ids.count(first, last);
    long longest = 0;
    for (IntervalIds.Run gap : gaps(ids, first, last)) {
      longest = Math.max(longest, gap.length());
    }
    return new CoverageSummary(
        identity.toMap(contract.seriesKey()),
        covered,
        expected,
        expected == 0 ? 1.0 : (double) covered / expected,
        longest);
  }

  /** The gaps of {@code identity} in {@code [from, to)} at least {@code minIntervals} long. */
  public List<IndexRange> gaps(
      Map<String, ?> identity, Instant from, Instant to, long minIntervals) {
    requireTimestamps("gaps");
    return gaps(identity(identity), from, to, minIntervals);
  }

  private List<IndexRange> gaps(
      EntityIdentity identity, Instant from, Instant to, long minIntervals) {
    return gapRuns(identity, micros(from), micros(to), minIntervals).stream()
        .map(this::range)
        .toList();
  }

  /** The gaps of {@code identity} in {@code [from, to)}, in index values (a logical clock). */
  public List<dev.timelake.ClockRange> gaps(
      Map<String, ?> identity, long from, long to, long minIntervals) {
    return gapRuns(identity(identity), from, to, minIntervals).stream()
        .map(this::clockRange)
        .toList();
  }

  /** The gaps of every series that holds a row, by identity, in index values. */
  public Map<Map<String, Object>, List<dev.timelake.ClockRange>> allGaps(
      long from, long to, long minIntervals) {
    Map<Map<String, Object>, List<dev.timelake.ClockRange>> gaps = new LinkedHashMap<>();
    for (EntityIdentity identity : coverage.byIdentity().keySet()) {
      gaps.put(
          identity.toMap(contract.seriesKey()),
          gapRuns(identity, from, to, minIntervals).stream().map(this::clockRange).toList());
    }
    return gaps;
  }

  private List<IntervalIds.Run> gapRuns(
      EntityIdentity identity, long from, long to, long minIntervals) {
    if (minIntervals < 1) {
      throw TimelakeException.validation(
          "Gaps of %s: min_intervals must be at least 1, not %d", contract.name(), minIntervals);
    }
    Optional<long[]> range = ids(from, to);
    List<IntervalIds.Run> gaps = new ArrayList<>();
    if (range.isPresent()) {
      for (IntervalIds.Run gap : gaps(coverage.ids(identity), range.get()[0], range.get()[1])) {
        if (gap.length() >= minIntervals) {
          gaps.add(gap);
        }
      }
    }
    return gaps;
  }

  private dev.timelake.ClockRange clockRange(IntervalIds.Run run) {
    return new dev.timelake.ClockRange(
        intervals.start(run.first()), intervals.end(run.last()), run.length());
  }

  /** The last run of at least {@code minIntervals} covered intervals of {@code identity}. */
  public Optional<IndexRange> lastRun(Map<String, ?> identity, long minIntervals) {
    requireTimestamps("lastRun");
    return lastRunOf(identity, minIntervals).map(this::range);
  }

  /** {@link #lastRun} of a logical clock, in its units. */
  public Optional<dev.timelake.ClockRange> lastClockRun(
      Map<String, ?> identity, long minIntervals) {
    return lastRunOf(identity, minIntervals).map(this::clockRange);
  }

  private Optional<IntervalIds.Run> lastRunOf(Map<String, ?> identity, long minIntervals) {
    List<IntervalIds.Run> runs = coverage.ids(identity(identity)).runs();
    for (int i = runs.size() - 1; i >= 0; i--) {
      if (runs.get(i).length() >= minIntervals) {
        return Optional.of(runs.get(i));
      }
    }
    return Optional.empty();
  }

  /**
   * The last {@code length} consecutive covered intervals of {@code identity} whose last interval
   * is at or before the one holding {@code atOrBefore}.
   */
  public Optional<IndexRange> lastWindow(Map<String, ?> identity, Instant atOrBefore, long length) {
    requireTimestamps("lastWindow");
    return lastWindowOf(identity, micros(atOrBefore), length).map(this::range);
  }

  /** {@link #lastWindow} of a logical clock, in its units. */
  public Optional<dev.timelake.ClockRange> lastWindow(
      Map<String, ?> identity, long atOrBefore, long length) {
    return lastWindowOf(identity, atOrBefore, length).map(this::clockRange);
  }

  private Optional<IntervalIds.Run> lastWindowOf(
      Map<String, ?> identity, long atOrBefore, long length) {
    if (length < 1) {
      throw TimelakeException.validation(
          "Windows of %s are at least 1 interval long, not %d", contract.name(), length);
    }
    long limit = intervals.id(atOrBefore);
    List<IntervalIds.Run> runs = coverage.ids(identity(identity)).runs(0, limit);
    for (int i = runs.size() - 1; i >= 0; i--) {
      IntervalIds.Run run = runs.get(i);
      if (run.length() >= length) {
        return Optional.of(new IntervalIds.Run(run.last() - length + 1, run.last()));
      }
    }
    return Optional.empty();
  }

  /** Instants mean nothing to a logical clock: its ranges are in its own units. */
  private void requireTimestamps(String method) {
    if (contract.hasLogicalClock()) {
      throw TimelakeException.validation(
          "The index of %s is a BIGINT logical clock: ask %s with index values (long), not"
              + " instants",
          contract.name(), method);
    }
  }

  /** The runs of {@code first..last} that {@code ids} does not hold. */
  private static List<IntervalIds.Run> gaps(IntervalIds ids, long first, long last) {
    List<IntervalIds.Run> gaps = new ArrayList<>();
    long cursor = first;
    boolean done = false;
    for (IntervalIds.Run run : ids.runs(first, last)) {
      if (Long.compareUnsigned(run.first(), cursor) > 0) {
        gaps.add(new IntervalIds.Run(cursor, run.first() - 1));
      }
      if (run.last() == last) {
        done = true;
        break;
      }
      cursor = run.last() + 1;
    }
    if (!done) {
      gaps.add(new IntervalIds.Run(cursor, last));
    }
    return gaps;
  }

  /** The first and last id {@code [start, end)} (index values) touches; empty when empty. */
  private Optional<long[]> ids(long start, long end) {
    if (start == end) {
      return Optional.empty();
    }
    if (start > end) {
      throw TimelakeException.validation(
          "Invalid range [%s, %s) for the coverage of %s: its start must not be after its end",
          render(start), render(end), contract.name());
    }
    return Optional.of(intervals.ids(start, end));
  }

  private String render(long value) {
    return contract.hasLogicalClock() ? Long.toString(value) : instant(value).toString();
  }

  private IndexRange range(IntervalIds.Run run) {
    return new IndexRange(
        instant(intervals.start(run.first())), instant(intervals.end(run.last())), run.length());
  }

  private static long micros(Instant instant) {
    return java.time.temporal.ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  private static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS);
  }

  /** The identity a map names: every entity column, values converted to the column's type. */
  public EntityIdentity identity(Map<String, ?> values) {
    List<String> columns = contract.seriesKey();
    for (String given : values.keySet()) {
      if (!columns.contains(given)) {
        throw TimelakeException.validation(
            "Table %s has no entity column '%s' (entity columns: %s)",
            contract.name(), given, columns.isEmpty() ? "none" : String.join(", ", columns));
      }
    }
    List<Object> identity = new ArrayList<>();
    for (String column : columns) {
      if (!values.containsKey(column) || values.get(column) == null) {
        throw TimelakeException.validation(
            "The coverage of %s is kept per series: give a value for every entity column (%s);"
                + " missing: %s",
            contract.name(), String.join(", ", columns), column);
      }
      identity.add(convert(column, values.get(column)));
    }
    return new EntityIdentity(identity);
  }

  private Object convert(String column, Object value) {
    ColumnType.Kind kind = contract.column(column).type().kind();
    if (contract.isUnsigned(column)) {
      return unsigned(column, value);
    }
    try {
      return switch (kind) {
        case INTEGER ->
            value instanceof Number n
                ? Math.toIntExact(n.longValue())
                : Integer.parseInt(value.toString().strip());
        case BIGINT ->
            value instanceof Number n ? n.longValue() : Long.parseLong(value.toString().strip());
        default -> value.toString();
      };
    } catch (NumberFormatException | ArithmeticException e) {
      throw TimelakeException.validation(
          "Entity column '%s' of %s is %s; '%s' is not one", column, contract.name(), kind, value);
    }
  }

  private Object unsigned(String column, Object value) {
    try {
      java.math.BigInteger number =
          value instanceof java.math.BigInteger big
              ? big
              : value instanceof java.math.BigDecimal decimal
                  ? decimal.toBigIntegerExact()
                  : value instanceof Number n
                          && !(value instanceof Double || value instanceof Float)
                      ? java.math.BigInteger.valueOf(n.longValue())
                      : new java.math.BigInteger(value.toString().strip());
      if (EntityIdentity.isUnsigned(number)) {
        return number;
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // refused below
    }
    throw TimelakeException.validation(
        "Entity column '%s' of %s is UBIGINT; '%s' is not one (a whole number from 0 to"
            + " 18446744073709551615)",
        column, contract.name(), value);
  }
}
