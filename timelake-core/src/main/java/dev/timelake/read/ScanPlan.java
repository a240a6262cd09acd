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
    boolean deduplicated) {

  public ScanPlan {
    requireNonNull(contract, "contract is null");
    independent = List.copyOf(independent);
    overlapping = overlapping.stream().map(List::copyOf).toList();
  }

  /** Every file the plan reads. */
  public int fileCount() {
    return independent.size() + overlapping.stream().mapToInt(List::size).sum();
  }

  /** The partitions the plan reads. */
  public java.util.Set<Integer> partitions() {
    java.util.Set<Integer> partitions = new java.util.TreeSet<>();
    independent.forEach(f -> partitions.add(f.partition()));
    overlapping.forEach(group -> group.forEach(f -> partitions.add(f.partition())));
    return partitions;
  }

  /** One line on what the plan reads, for {@code --explain}. */
  public String explanation() {
    int grouped = overlapping.stream().mapToInt(List::size).sum();
    return contract.name()
        + ": "
        + fileCount()
        + " of "
        + filesBeforePruning
        + " files after pruning"
        + (deduplicated
            ? ", " + grouped + " in " + overlapping.size() + " overlapping groups deduplicated"
            : ", no dedup");
  }
}
