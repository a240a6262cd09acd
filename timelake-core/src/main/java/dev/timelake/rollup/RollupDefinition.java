package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.time.BucketGrid;
import java.util.List;
import java.util.Map;

/**
 * A validated rollup definition: the raw table, the grouping (series-key) columns, the bucket grid
 * and the origin it was spelled with, the bucket column's name and the stored aggregates (those the
 * SELECT names, plus the counts that averages need to merge), the rollup table's options from
 * {@code WITH (…)}, and its WHERE ({@link RollupFilter}; empty for a rollup of every row).
 */
public record RollupDefinition(
    TableName name,
    TableName source,
    List<String> keys,
    String bucketColumn,
    BucketGrid grid,
    long originMicros,
    List<StoredAggregate> aggregates,
    Map<String, String> options,
    String selectSql,
    String filter) {

  public RollupDefinition {
    requireNonNull(name, "name is null");
    requireNonNull(source, "source is null");
    keys = List.copyOf(keys);
    requireNonNull(bucketColumn, "bucketColumn is null");
    requireNonNull(grid, "grid is null");
    aggregates = List.copyOf(aggregates);
    options = Map.copyOf(options);
    requireNonNull(selectSql, "selectSql is null");
    requireNonNull(filter, "filter is null");
  }

  /** The aggregates as the JSON stored in {@code timelake.rollup-aggregates}. */
  public String aggregatesJson() {
    return AggregateJson.write(aggregates);
  }
}
