package dev.timelake.maintain;

import dev.timelake.table.Durations;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Which snapshots may expire: those older than {@code snapshot-retention}, and those beyond the
 * newest {@code max-snapshots} whatever their age; the newest {@code min-snapshots} always stay.
 */
record ExpiryCutoff(long olderThanMillis, int retainLast, long expirable) {

  static ExpiryCutoff of(Table table, TableContract contract, Instant now) {
    List<Snapshot> newestFirst = new ArrayList<>();
    table.snapshots().forEach(newestFirst::add);
    newestFirst.sort(Comparator.comparingLong(Snapshot::timestampMillis).reversed());
    long ageCutoff =
        now.toEpochMilli()
            - Durations.parse(contract.setting(Settings.SNAPSHOT_RETENTION).orElseThrow())
                .toMillis();
    int max = Integer.parseInt(contract.setting(Settings.MAX_SNAPSHOTS).orElseThrow());
    int min = Math.max(1, Integer.parseInt(contract.setting(Settings.MIN_SNAPSHOTS).orElseThrow()));
    long cutoff = ageCutoff;
    if (newestFirst.size() > max && max > 0) {
      cutoff = Math.max(cutoff, newestFirst.get(max - 1).timestampMillis());
    }
    long expirable = 0;
    for (int i = min; i < newestFirst.size(); i++) {
      if (newestFirst.get(i).timestampMillis() < cutoff) {
        expirable++;
      }
    }
    return new ExpiryCutoff(cutoff, min, expirable);
  }
}
