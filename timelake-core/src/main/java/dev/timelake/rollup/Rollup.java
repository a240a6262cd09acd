package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import dev.timelake.table.SnapshotSummaries;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Snapshot;

/**
 * A rollup as stored: its table, the raw table it aggregates, grouping columns, bucket width and
 * origin, and stored aggregates, read from the rollup table's properties; plus the raw snapshot its
 * current rows reflect.
 */
public record Rollup(
    LoadedTable table,
    TableName source,
    List<String> keys,
    String bucketColumn,
    long widthMicros,
    long originMicros,
    List<RollupAggregate> aggregates) {

  public Rollup {
    requireNonNull(table, "table is null");
    requireNonNull(source, "source is null");
    keys = List.copyOf(keys);
    aggregates = List.copyOf(aggregates);
  }

  /** The rollup stored in {@code table}, if it is one. */
  public static Optional<Rollup> of(LoadedTable table) {
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
            Durations.parse(settings.get(Settings.ROLLUP_BUCKET.name())).toNanos() / 1000,
            Long.parseLong(settings.getOrDefault(Settings.ROLLUP_ORIGIN.name(), "0")),
            RollupDefinition.parseAggregates(settings.get(Settings.ROLLUP_AGGREGATES.name()))));
  }

  /** The rollup's name. */
  public TableName name() {
    return table.name();
  }

  /** The raw snapshot the current rows reflect, or -1 when none. */
  public long sourceSnapshot() {
    return record(SnapshotSummaries.ROLLUP_SOURCE_SNAPSHOT);
  }

  /** The sequence number of that raw snapshot, or -1 when none. */
  public long sourceSequence() {
    return record(SnapshotSummaries.ROLLUP_SOURCE_SEQUENCE);
  }

  private long record(String key) {
    Snapshot current = table.iceberg().currentSnapshot();
    if (current == null) {
      return -1;
    }
    return Long.parseLong(current.summary().getOrDefault(key, "-1"));
  }

  /** The aggregate computing {@code function(column)}, if stored. */
  public Optional<RollupAggregate> find(String function, Optional<String> column) {
    return aggregates.stream().filter(a -> a.sameAs(function, column)).findFirst();
  }
}
