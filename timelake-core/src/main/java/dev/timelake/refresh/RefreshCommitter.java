package dev.timelake.refresh;

import dev.timelake.TableName;
import dev.timelake.catalog.CallingThread;
import dev.timelake.catalog.IcebergCommits;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.table.SnapshotSummaries;
import java.util.Map;
import org.apache.iceberg.SnapshotUpdate;

/**
 * The commits of a refresh that add no rows: emptying a rollup before a rebuild, and recording the
 * raw snapshot a rollup reflects when no recomputed rows carried the record. Iceberg failures
 * become Timelake exceptions naming the rollup; the rollup is unchanged after any of them except a
 * commit whose state is unknown.
 */
final class RefreshCommitter {
  private RefreshCommitter() {}

  /** Removes every row of the rollup and records that it reflects nothing. */
  static void clear(LoadedTable rollup) {
    if (rollup.iceberg().currentSnapshot() == null) {
      return;
    }
    commit(
        rollup.name(),
        dev.timelake.rollup.RollupStore.emptying(rollup, "rollup-refresh"),
        "empty it for a rebuild");
  }

  /** A commit without files whose summary records {@code record}. */
  static void recordOnly(LoadedTable rollup, Map<String, String> record) {
    var append = CallingThread.manifestsOf(rollup.iceberg().newAppend());
    record.forEach(append::set);
    append.set(SnapshotSummaries.OPERATION, "rollup-refresh");
    commit(rollup.name(), append, "record the raw snapshot it reflects");
  }

  private static void commit(TableName rollup, SnapshotUpdate<?> update, String what) {
    IcebergCommits.commit(
        new IcebergCommits.Operation(
            "refresh of rollup " + rollup + " (to " + what + ")", "rollup", "refresh again"),
        update::commit);
  }
}
