package dev.timelake;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an append did: rows committed, copies of a key dropped within the append, late rows, files
 * written, the new snapshot (none for an append a tier holds), and the inline maintenance that
 * followed (or its failure, with its exception; the append stands), and the table committed to
 * (empty when nothing was). A skipped append (its batch id was already committed) reports 0 rows
 * and no snapshot.
 *
 * <p>{@code lateRows} counts the committed rows that are not newer than everything their time
 * partition held before: each replaces a stored row with the same key if there is one. It is an
 * upper bound on the stored rows replaced, known without reading stored data (rows newer than a
 * partition's newest cannot share a key with it); 0 for a table that keeps every copy.
 */
public record AppendResult(
    long rows,
    long copiesDropped,
    long lateRows,
    int files,
    OptionalLong snapshotId,
    Outcome outcome,
    Optional<MaintenanceReport> maintenance,
    Optional<RuntimeException> maintenanceFailure,
    Optional<TableName> table) {

  /** A result that names no table. */
  public AppendResult(
      long rows,
      long copiesDropped,
      long lateRows,
      int files,
      OptionalLong snapshotId,
      Outcome outcome,
      Optional<MaintenanceReport> maintenance,
      Optional<RuntimeException> maintenanceFailure) {
    this(
        rows,
        copiesDropped,
        lateRows,
        files,
        snapshotId,
        outcome,
        maintenance,
        maintenanceFailure,
        Optional.empty());
  }

  /** Whether the append committed. */
  public enum Outcome {
    COMMITTED,
    /** Nothing to write: the input was empty. */
    EMPTY,
    /** The batch id was already committed; nothing was written. */
    SKIPPED_DUPLICATE_BATCH,
    /**
     * Held in a write-ahead tier ({@link Append#holdIn}): durable in its log, committed by its
     * flusher with other writes; no snapshot or file yet, and late rows not counted.
     */
    HELD
  }

  /** A committed append into {@code table}, before any inline maintenance. */
  public static AppendResult committed(
      TableName table, long rows, long copiesDropped, long lateRows, int files, long snapshotId) {
    return new AppendResult(
        rows,
        copiesDropped,
        lateRows,
        files,
        OptionalLong.of(snapshotId),
        Outcome.COMMITTED,
        Optional.empty(),
        Optional.empty(),
        Optional.of(table));
  }

  /**
   * An append held in a tier: {@code rows} the rows a commit writes of it (less copies of a key),
   * {@code copiesDropped} the copies.
   */
  public static AppendResult held(TableName table, long rows, long copiesDropped) {
    return new AppendResult(
        rows,
        copiesDropped,
        0,
        0,
        OptionalLong.empty(),
        Outcome.HELD,
        Optional.empty(),
        Optional.empty(),
        Optional.of(table));
  }

  /** An append that wrote nothing. */
  public static AppendResult nothing(Outcome outcome) {
    return new AppendResult(
        0, 0, 0, 0, OptionalLong.empty(), outcome, Optional.empty(), Optional.empty());
  }

  /** This result with the inline maintenance that followed it, or its failure. */
  public AppendResult withMaintenance(
      Optional<MaintenanceReport> report, Optional<RuntimeException> failure) {
    return new AppendResult(
        rows, copiesDropped, lateRows, files, snapshotId, outcome, report, failure, table);
  }

  /** Why the inline maintenance that followed the append failed (its exception's message). */
  public Optional<String> maintenanceError() {
    return maintenanceFailure.map(
        failure -> failure.getMessage() != null ? failure.getMessage() : failure.toString());
  }
}
