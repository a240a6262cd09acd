package dev.timelake.read;

import static java.util.Objects.requireNonNull;

import dev.timelake.table.TableContract;
import java.util.List;

/**
 * The files one table reference reads, split into files that share keys with no other file and
 * groups of files that may share keys (which the reader deduplicates). Immutable.
 */
public record ScanPlan(
    TableContract contract,
    long snapshotId,
    List<PlannedFile> independent,
    List<List<PlannedFile>> overlapping,
    int filesBeforePruning,
    int partitionsBeforePruning,
    boolean deduplicated) {

  public ScanPlan {
    requireNonNull(contract, "contract is null");
    independent = List.copyOf(independent);
    overlapping = overlapping.stream().map(List::copyOf).toList();
  }

  /**
   * This plan reading {@code held} too: files of rows a transaction or a session's tier holds,
   * newer than every committed one. Deduplicated, the held files join one group with every file
   * whose time range meets one of theirs: a held row shares its key, and so its time, only with
   * rows of such a file (with all files when a key is an interval of time, or a bound unknown);
   * other files keep their place, so a small held file does not make the whole table one group.
   */
  public ScanPlan withHeld(List<PlannedFile> held) {
    if (held.isEmpty()) {
      return this;
    }
    int before = filesBeforePruning + held.size();
    if (!deduplicated) {
      List<PlannedFile> all = new java.util.ArrayList<>(independent);
      overlapping.forEach(all::addAll);
      all.addAll(held);
      return new ScanPlan(
          contract, snapshotId, all, List.of(), before, partitionsBeforePruning, false);
    }
    boolean everyFile = contract.replacesWithinInterval();
    List<PlannedFile> group = new java.util.ArrayList<>(held);
    List<PlannedFile> apart = new java.util.ArrayList<>();
    List<List<PlannedFile>> groups = new java.util.ArrayList<>();
    for (PlannedFile file : independent) {
      if (everyFile || meetsAny(file, held)) {
        group.add(file);
      } else {
        apart.add(file);
      }
    }
    for (List<PlannedFile> files : overlapping) {
      if (everyFile || files.stream().anyMatch(file -> meetsAny(file, held))) {
        group.addAll(files);
      } else {
        groups.add(files);
      }
    }
    groups.add(group);
    return new ScanPlan(contract, snapshotId, apart, groups, before, partitionsBeforePruning, true);
  }

  /** True when {@code file}'s time range meets one of {@code held}'s (unknown bounds meet all). */
  private static boolean meetsAny(PlannedFile file, List<PlannedFile> held) {
    for (PlannedFile other : held) {
      if (file.minMicros() <= other.maxMicros() && other.minMicros() <= file.maxMicros()) {
        return true;
      }
    }
    return false;
  }

  /** The files of rows not committed yet the plan reads (see {@link #withHeld}). */
  public int heldFiles() {
    int held = 0;
    for (PlannedFile file : independent) {
      held += file.isHeld() ? 1 : 0;
    }
    for (List<PlannedFile> group : overlapping) {
      for (PlannedFile file : group) {
        held += file.isHeld() ? 1 : 0;
      }
    }
    return held;
  }

  /** Every file the plan reads. */
  public int fileCount() {
    return independent.size() + overlapping.stream().mapToInt(List::size).sum();
  }

  /** The partitions of committed files the plan reads (held files belong to none). */
  public java.util.Set<Integer> partitions() {
    java.util.Set<Integer> partitions = new java.util.TreeSet<>();
    java.util.function.Consumer<PlannedFile> add =
        file -> {
          if (!file.isHeld()) {
            partitions.add(file.partition());
          }
        };
    independent.forEach(add);
    overlapping.forEach(group -> group.forEach(add));
    return partitions;
  }
}
