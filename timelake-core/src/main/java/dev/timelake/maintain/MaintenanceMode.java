package dev.timelake.maintain;

/** How much a maintenance run does. */
public enum MaintenanceMode {
  /**
   * After an append: size-tiered compaction of the touched partitions, cold partitions, retention
   * and expiry only when their thresholds are crossed, and a bounded number of rewrites.
   */
  INLINE,
  /** On demand: every partition with small or overlapping files is rewritten into sorted files. */
  FULL
}
