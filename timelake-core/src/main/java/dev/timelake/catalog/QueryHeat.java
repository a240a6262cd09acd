package dev.timelake.catalog;

import dev.timelake.TableName;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How often this process's queries read each partition of each table. Compaction rewrites the
 * partitions users read first. Kept in memory only: a short-lived CLI process has no heat, and
 * every partition then counts the same. Thread-safe.
 */
public final class QueryHeat {
  private final ConcurrentMap<TableName, ConcurrentMap<Integer, AtomicLong>> reads =
      new ConcurrentHashMap<>();

  /** Counts one read of each of {@code partitions}. */
  public void record(TableName table, Collection<Integer> partitions) {
    ConcurrentMap<Integer, AtomicLong> counts =
        reads.computeIfAbsent(table, k -> new ConcurrentHashMap<>());
    for (int partition : partitions) {
      counts.computeIfAbsent(partition, k -> new AtomicLong()).incrementAndGet();
    }
  }

  /** Reads per partition of {@code table}. */
  public Map<Integer, Long> of(TableName table) {
    Map<Integer, Long> heat = new TreeMap<>();
    reads.getOrDefault(table, new ConcurrentHashMap<>()).forEach((k, v) -> heat.put(k, v.get()));
    return heat;
  }
}
