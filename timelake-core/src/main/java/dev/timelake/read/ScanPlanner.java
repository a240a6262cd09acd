package dev.timelake.read;

import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.expressions.Expression;

/**
 * Plans one table reference against one snapshot of the table: prunes files with Iceberg's manifest
 * bounds using filters on the time and series-key columns, then groups the files that may share
 * keys. Pure: reads metadata only.
 */
public final class ScanPlanner {
  private ScanPlanner() {}

  /**
   * Plans a read of {@code table} at its current snapshot restricted by {@code filter}, which must
   * only use time and series-key columns, so that pruning never drops a newer copy of a key.
   */
  public static ScanPlan plan(LoadedTable table, Expression filter, boolean deduplicate) {
    return plan(PinnedTable.current(table), filter, deduplicate);
  }

  /**
   * Plans a read of {@code table} at its pinned snapshot; see {@link #plan(LoadedTable, Expression,
   * boolean)}.
   */
  public static ScanPlan plan(PinnedTable table, Expression filter, boolean deduplicate) {
    TableContract contract = table.contract();
    Snapshot snapshot = table.snapshot().orElse(null);
    if (snapshot == null) {
      return new ScanPlan(contract, -1, List.of(), List.of(), 0, 0, deduplicate);
    }
    int total = Integer.parseInt(snapshot.summary().getOrDefault("total-data-files", "0"));
    LiveFileCache.Pruned pruned =
        LiveFileCache.pruned(table.table().iceberg(), contract, snapshot, filter);
    int partitions = pruned.partitionsBeforePruning();
    List<PlannedFile> files = markFresh(pruned.files());
    if (!deduplicate || !contract.deduplicates()) {
      return new ScanPlan(
          contract, snapshot.snapshotId(), files, List.of(), total, partitions, false);
    }
    List<List<PlannedFile>> groups = OverlapGroups.of(files);
    List<PlannedFile> independent = new ArrayList<>();
    List<List<PlannedFile>> overlapping = new ArrayList<>();
    for (List<PlannedFile> group : groups) {
      if (group.size() == 1) {
        independent.add(group.get(0));
      } else {
        overlapping.add(group);
      }
    }
    return new ScanPlan(
        contract, snapshot.snapshotId(), independent, overlapping, total, partitions, true);
  }

  /** Every live file of the table's current snapshot, in commit order, marked fresh or not. */
  public static List<PlannedFile> liveFiles(LoadedTable table) {
    return liveFiles(PinnedTable.current(table));
  }

  /** Every live file of the pinned snapshot, in commit order, marked fresh or not. */
  public static List<PlannedFile> liveFiles(PinnedTable table) {
    Snapshot snapshot = table.snapshot().orElse(null);
    if (snapshot == null) {
      return List.of();
    }
    return markFresh(
        LiveFileCache.plannedFiles(
            table.table().iceberg(),
            table.contract(),
            snapshot,
            org.apache.iceberg.expressions.Expressions.alwaysTrue()));
  }

  /** A plan over exactly {@code files}: one group that may share keys, or independent files. */
  public static ScanPlan planOf(LoadedTable table, List<PlannedFile> files, boolean deduplicate) {
    long snapshot =
        table.iceberg().currentSnapshot() == null
            ? -1
            : table.iceberg().currentSnapshot().snapshotId();
    boolean dedup = deduplicate && table.contract().deduplicates() && files.size() > 1;
    int partitions =
        (int)
            files.stream()
                .filter(f -> !f.isHeld())
                .mapToInt(PlannedFile::partition)
                .distinct()
                .count();
    return dedup
        ? new ScanPlan(
            table.contract(), snapshot, List.of(), List.of(files), files.size(), partitions, true)
        : new ScanPlan(
            table.contract(), snapshot, files, List.of(), files.size(), partitions, false);
  }

  /**
   * Marks the files whose rows are all newer than every row of the earlier files of their
   * partition. Derived from committed metadata only, so concurrent writers cannot make it wrong.
   * Pruned-away files are earlier too, but a filter that pruned them also excludes their keys.
   */
  static List<PlannedFile> markFresh(List<PlannedFile> files) {
    Map<Integer, Long> highestSoFar = new java.util.HashMap<>();
    List<PlannedFile> marked = new ArrayList<>(files.size());
    for (PlannedFile file : files) {
      Long highest = highestSoFar.get(file.partition());
      boolean fresh = highest == null || file.minMicros() > highest;
      highestSoFar.merge(file.partition(), file.maxMicros(), Math::max);
      marked.add(file.withFresh(fresh));
    }
    return marked;
  }

  /** Connected components of files that may share keys, found by a sweep over time. */
  static final class OverlapGroups {
    private OverlapGroups() {}

    static List<List<PlannedFile>> of(List<PlannedFile> files) {
      int n = files.size();
      int[] parent = new int[n];
      for (int i = 0; i < n; i++) {
        parent[i] = i;
      }
      Integer[] byStart = new Integer[n];
      for (int i = 0; i < n; i++) {
        byStart[i] = i;
      }
      java.util.Arrays.sort(byStart, Comparator.comparingLong(i -> files.get(i).minMicros()));
      List<Integer> active = new ArrayList<>();
      for (int index : byStart) {
        PlannedFile file = files.get(index);
        active.removeIf(other -> files.get(other).maxMicros() < file.minMicros());
        for (int other : active) {
          if (file.mayShareKeysWith(files.get(other))) {
            union(parent, index, other);
          }
        }
        active.add(index);
      }
      Map<Integer, List<PlannedFile>> groups = new java.util.LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        groups.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(files.get(i));
      }
      return new ArrayList<>(groups.values());
    }

    private static int find(int[] parent, int i) {
      while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
      }
      return i;
    }

    private static void union(int[] parent, int a, int b) {
      parent[find(parent, a)] = find(parent, b);
    }
  }
}
