package dev.timelake;

import java.util.OptionalLong;

/**
 * What an entity-layout optimization did: of the {@code candidateFiles} live data files, {@code
 * filesReplaced} held more than one series and were rewritten into {@code filesWritten} files of
 * one series each ({@code identities} series in all). {@code noOp} when every file already held one
 * series; then nothing was committed.
 */
public record OptimizeReport(
    TableName table,
    OptionalLong startingSnapshot,
    OptionalLong committedSnapshot,
    int candidateFiles,
    int filesReplaced,
    int filesWritten,
    long identities,
    long rowsRead,
    long rowsWritten,
    boolean noOp) {

  /** The report as {@code key: value} lines, the CLI's output. */
  public String render() {
    return String.join(
        "\n",
        "table: " + table,
        "starting_snapshot: " + text(startingSnapshot),
        "committed_snapshot: " + text(committedSnapshot),
        "candidate_files: " + candidateFiles,
        "files_replaced: " + filesReplaced,
        "files_written: " + filesWritten,
        "identities: " + identities,
        "rows_read: " + rowsRead,
        "rows_written: " + rowsWritten,
        "no_op: " + noOp);
  }

  private static String text(OptionalLong snapshot) {
    return snapshot.isPresent() ? Long.toString(snapshot.getAsLong()) : "none";
  }
}
