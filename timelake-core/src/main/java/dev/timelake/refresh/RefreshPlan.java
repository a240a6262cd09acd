package dev.timelake.refresh;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * What a refresh of one rollup will do, decided from metadata alone: the raw snapshot it will
 * reflect, the record it replaces, whether the rollup is emptied first (the raw table was rolled
 * back past the recorded snapshot), the windows it recomputes, and the first bucket it leaves to
 * raw data for the refresh lag ({@link Long#MAX_VALUE}: none). Immutable; {@link #explanation()}
 * says why.
 */
public record RefreshPlan(
    TableName rollup,
    TableName raw,
    long rawSnapshotId,
    long rawSequence,
    long recordedSnapshotId,
    long recordedSequence,
    boolean rebuild,
    List<RefreshWindow> windows,
    long lagFromMicros,
    List<String> reasons) {

  public RefreshPlan {
    requireNonNull(rollup, "rollup is null");
    requireNonNull(raw, "raw is null");
    windows = List.copyOf(windows);
    reasons = List.copyOf(reasons);
  }

  /** True when the rollup already reflects the raw snapshot and nothing is to be recomputed. */
  public boolean isUpToDate() {
    return windows.isEmpty() && !rebuild && recordedSnapshotId == rawSnapshotId;
  }

  /** One line per decision, for dry runs and tests. */
  public List<String> explanation() {
    List<String> lines = new ArrayList<>(reasons);
    for (int i = 0; i < windows.size(); i++) {
      RefreshWindow window = windows.get(i);
      lines.add(
          rollup
              + " window "
              + (i + 1)
              + " of "
              + windows.size()
              + ": "
              + window.buckets()
              + window
                  .cellsFrom()
                  .map(files -> ", the cells of " + files.size() + " changed files")
                  .orElse(", every cell")
              + (window.deleted().isEmpty()
                  ? ""
                  : "; the cells of rows "
                      + window.deleted().size()
                      + " DELETE commits removed are emptied first"));
    }
    if (isUpToDate()) {
      lines.add(rollup + ": up to date with raw snapshot " + rawSnapshotId);
    }
    return lines;
  }
}
