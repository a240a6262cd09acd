package dev.timelake;

import java.util.OptionalLong;

/**
 * What an append did: rows committed, copies of a key dropped within the append, files written and
 * the new snapshot. A skipped append (its batch id was already committed) reports 0 rows and no
 * snapshot.
 */
public record AppendResult(
    long rows, long copiesDropped, int files, OptionalLong snapshotId, Outcome outcome) {
  /** Whether the append committed. */
  public enum Outcome {
    COMMITTED,
    /** Nothing to write: the input was empty. */
    EMPTY,
    /** The batch id was already committed; nothing was written. */
    SKIPPED_DUPLICATE_BATCH
  }

  /** An append that wrote nothing. */
  public static AppendResult nothing(Outcome outcome) {
    return new AppendResult(0, 0, 0, OptionalLong.empty(), outcome);
  }
}
