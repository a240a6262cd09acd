package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.table.TableContract;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.CalendarGrid;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A rollup as stored, at one pinned snapshot of its table: the raw table it aggregates, grouping
 * columns, bucket grid and stored aggregates (read from the table's properties), and the raw
 * snapshot its rows reflect (read from the pinned snapshot's summary).
 */
public record Rollup(
    PinnedTable table,
    TableName source,
    List<String> keys,
    String bucketColumn,
    BucketGrid grid,
    List<StoredAggregate> aggregates) {

  public Rollup {
    requireNonNull(table, "table is null");
    requireNonNull(source, "source is null");
    keys = List.copyOf(keys);
    requireNonNull(grid, "grid is null");
    aggregates = List.copyOf(aggregates);
  }

  /** The rollup stored in {@code table} at its current snapshot, if it is one. */
  public static Optional<Rollup> of(LoadedTable table) {
    return of(PinnedTable.current(table));
  }

  /** The rollup stored in {@code table} at the pinned snapshot, if it is one. */
  public static Optional<Rollup> of(PinnedTable table) {
    Map<String, String> settings = table.contract().settings();
    String source = settings.get(Settings.ROLLUP_SOURCE.name());
    if (source == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Rollup(
            table,
            TableName.parse(source),
            table.contract().seriesKey(),
            table.contract().timeColumn().orElseThrow(),
            grid(settings),
            AggregateJson.read(
                settings.get(Settings.ROLLUP_AGGREGATES.name()), table.name().toString())));
  }

  /**
   * The grid {@code timelake.rollup-bucket} and {@code -origin} give, or with {@code
   * timelake.rollup-time-zone} local days or months of that zone.
   */
  private static BucketGrid grid(Map<String, String> settings) {
    String width = settings.get(Settings.ROLLUP_BUCKET.name());
    String zone = settings.get(Settings.ROLLUP_TIME_ZONE.name());
    Optional<BucketGrid> calendar =
        CalendarGrid.parse(width, zone == null ? ZoneOffset.UTC : ZoneId.of(zone));
    if (calendar.isPresent()) {
      return calendar.get();
    }
    long micros = Durations.parse(width).toNanos() / 1000;
    long origin = Long.parseLong(settings.getOrDefault(Settings.ROLLUP_ORIGIN.name(), "0"));
    return BucketGrid.of(micros, origin);
  }

  /** The rollup's name. */
  public TableName name() {
    return table.name();
  }

  /** The rollup table's contract. */
  public TableContract contract() {
    return table.contract();
  }

  /** The raw snapshot the pinned rows reflect, or -1 when none. */
  public long sourceSnapshot() {
    return record(SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT);
  }

  /** The sequence number of that raw snapshot, or -1 when none. */
  public long sourceSequence() {
    return record(SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE);
  }

  /**
   * The raw snapshot rows of an unfinished refresh reflect, when the pinned snapshot was committed
   * by a refresh window that was not its last; -1 otherwise.
   */
  public long pendingSnapshot() {
    return record(SnapshotSummaries.ROLLUP_SOURCE_PENDING);
  }

  /**
   * The start of the first bucket the last refresh left to raw data for the refresh lag ({@code
   * timelake.rollup-lag-from}); {@link Long#MAX_VALUE} when it materialized every bucket.
   */
  public long lagFrom() {
    return table
        .summary(SnapshotSummaries.ROLLUP_LAG_FROM)
        .map(Long::parseLong)
        .orElse(Long.MAX_VALUE);
  }

  /** The refresh lag in µs ({@code timelake.rollup-refresh-lag}; 0 for none). */
  public long refreshLagMicros() {
    return contract()
            .setting(Settings.ROLLUP_REFRESH_LAG)
            .map(Durations::parse)
            .map(java.time.Duration::toNanos)
            .orElse(0L)
        / 1000;
  }

  /**
   * True when a DELETE of raw rows changes the buckets they were in ({@code rollup-follow-deletes},
   * default true); false: the rollup keeps what deleted rows contributed, as for retention.
   */
  public boolean followsDeletes() {
    return contract().isEnabled(Settings.ROLLUP_FOLLOW_DELETES);
  }

  private long record(String key) {
    return Long.parseLong(table.summary(key).orElse("-1"));
  }

  /**
   * The rollup's WHERE ({@code timelake.rollup-filter}), split by its grouping columns; {@link
   * RollupFilter#NONE} for a rollup of every row. Parsed on each call: a new tree each time, so
   * callers may put its nodes into their statements.
   */
  public RollupFilter filter() {
    String text = contract().settings().get(Settings.ROLLUP_FILTER.name());
    if (text == null || text.isBlank()) {
      return RollupFilter.NONE;
    }
    try {
      net.sf.jsqlparser.statement.select.PlainSelect select =
          (net.sf.jsqlparser.statement.select.PlainSelect)
              dev.timelake.engine.StatementParser.parse("SELECT 1 WHERE " + text);
      return RollupFilter.split(select.getWhere(), keys);
    } catch (net.sf.jsqlparser.JSQLParserException | ClassCastException e) {
      throw new IllegalStateException(
          "Cannot read the filter of rollup " + name() + " (" + text + "): " + e.getMessage(), e);
    }
  }

  /** The stored aggregate computing {@code call}, if any. */
  public Optional<StoredAggregate> find(AggregateCall call) {
    return aggregates.stream().filter(a -> a.call().equals(call)).findFirst();
  }
}
