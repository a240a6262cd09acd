package dev.timelake.refresh;

import static java.util.Objects.requireNonNull;

import dev.timelake.read.PlannedFile;
import dev.timelake.table.DeletedRows;
import dev.timelake.time.IntervalSet;
import java.util.List;
import java.util.Optional;

/**
 * One commit of a refresh: the buckets it recomputes and, when only some cells of them changed, the
 * raw files whose (keys…, bucket) cells are recomputed (empty: every cell of the buckets); {@code
 * deleted} are the DELETEs whose removed rows lie in the buckets: the cells they were in are
 * removed from the rollup before the window's rows are appended (a cell left without rows
 * disappears) and, when only some cells are recomputed, recomputed too.
 */
public record RefreshWindow(
    IntervalSet buckets, Optional<List<PlannedFile>> cellsFrom, List<DeletedRows> deleted) {
  public RefreshWindow {
    requireNonNull(buckets, "buckets is null");
    cellsFrom = cellsFrom.map(List::copyOf);
    deleted = List.copyOf(deleted);
  }
}
