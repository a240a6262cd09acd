package dev.timelake.refresh;

import static java.util.Objects.requireNonNull;

import dev.timelake.read.PlannedFile;
import dev.timelake.time.IntervalSet;
import java.util.List;
import java.util.Optional;

/**
 * One commit of a refresh: the buckets it recomputes and, when only some cells of them changed, the
 * raw files whose (keys…, bucket) cells are recomputed (empty: every cell of the buckets).
 */
public record RefreshWindow(IntervalSet buckets, Optional<List<PlannedFile>> cellsFrom) {
  public RefreshWindow {
    requireNonNull(buckets, "buckets is null");
    cellsFrom = cellsFrom.map(List::copyOf);
  }
}
