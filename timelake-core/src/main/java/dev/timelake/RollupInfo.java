package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * A rollup as a user sees it: the raw table it aggregates, its grouping columns, bucket width
 * ({@code 1h}, or {@code 1 month in Europe/Berlin} for local days and months of a zone) and origin
 * (µs since 1970 of one bucket start of a fixed width; 0 for calendar buckets), its stored columns
 * and the aggregate each holds (e.g. {@code avg_value → avg(value)}), the WHERE of a filtered
 * rollup ({@code (quality = 0)}, each term in parentheses; empty for every row), the raw snapshot
 * its rows reflect (-1: none yet), and its live rows and files.
 */
public record RollupInfo(
    TableName name,
    TableName source,
    List<String> keys,
    String bucket,
    long originMicros,
    Map<String, String> aggregates,
    String filter,
    long reflectsSnapshot,
    long rows,
    int files) {
  public RollupInfo {
    requireNonNull(name, "name is null");
    requireNonNull(source, "source is null");
    keys = List.copyOf(keys);
    requireNonNull(bucket, "bucket is null");
    aggregates = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(aggregates));
    requireNonNull(filter, "filter is null");
  }
}
