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
   * This plan reading {@code held} too: files of rows a transaction holds, newer than every
   * committed one. Deduplicated, every file joins one group, so a held copy of a key replaces the
   * committed one whatever the files' bounds.
   */
  public ScanPlan withHeld(List<PlannedFile> held) {
    if (held.isEmpty()) {
      return this;
    }
    List<PlannedFile> all = new java.util.ArrayList<>(independent);
    overlapping.forEach(all::addAll);
    all.addAll(held);
    int before = filesBeforePruning + held.size();
    return deduplicated
        ? new ScanPlan(
            contract, snapshotId, List.of(), List.of(all), before, partitionsBeforePruning, true)
        : new ScanPlan(
            contract, snapshotId, all, List.of(), before, partitionsBeforePruning, false);
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
