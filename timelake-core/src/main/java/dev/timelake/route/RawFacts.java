package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import dev.timelake.table.TableContract;
import dev.timelake.time.IntervalSet;

/**
 * What routing knows of the raw table at its pinned snapshot: its contract, the snapshot, and the
 * instants its live files span ({@code extent}: no raw row lies outside it).
 */
public record RawFacts(TableContract contract, long snapshotId, IntervalSet extent) {
  public RawFacts {
    requireNonNull(contract, "contract is null");
    requireNonNull(extent, "extent is null");
  }
}
