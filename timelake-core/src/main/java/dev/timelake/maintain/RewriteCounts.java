package dev.timelake.maintain;

import dev.timelake.CommitFailedException;
import dev.timelake.TableName;

/**
 * What one rewrite read and what it is about to commit, counted independently of the merge that
 * produced the result: rows and distinct keys (series key and time, or index interval) in its input
 * files and in its result. A rewrite only drops copies of a key, so a result that holds fewer keys
 * than its input, or more rows, is wrong whatever caused it, and must never replace the input.
 *
 * @param rowsIn rows of the input files
 * @param keysIn distinct keys of the input files' rows
 * @param rowsOut rows of the result
 * @param keysOut distinct keys of the result's rows
 */
record RewriteCounts(long rowsIn, long keysIn, long rowsOut, long keysOut) {

  /**
   * Throws when the counts break a rewrite's rules: rows in ≥ rows out ≥ keys in, keys out = keys
   * in; with copies removed ({@code deduplicates}) rows out = keys in, without them rows out = rows
   * in.
   *
   * @throws CommitFailedException naming the table, partition and counts, saying the input files
   *     stay
   */
  void verify(TableName table, String partition, boolean deduplicates, int inputFiles) {
    boolean holds =
        rowsIn >= rowsOut
            && rowsOut >= keysIn
            && keysOut == keysIn
            && (deduplicates ? rowsOut == keysIn : rowsOut == rowsIn);
    if (!holds) {
      throw new CommitFailedException(
          String.format(
              "Cannot commit the rewrite of %s partition %s: it read %d rows with %d distinct"
                  + " keys from %d files, but its result has %d rows with %d distinct keys (a"
                  + " rewrite may only drop copies of a key); nothing was committed and the %d"
                  + " files stay as they are. This is a bug in Timelake: please report it with"
                  + " the table's snapshot history (timelake info %s)",
              table, partition, rowsIn, keysIn, inputFiles, rowsOut, keysOut, inputFiles, table));
    }
  }

  /**
   * Throws when the files about to be committed hold no rows although the input had some, or more
   * rows than the input: the check at commit, from the files' own footers, of results written
   * elsewhere or changed since they were counted.
   */
  static void verifyCommitted(
      TableName table, String partition, long rowsIn, long rowsCommitted, int inputFiles) {
    if ((rowsIn > 0 && rowsCommitted == 0) || rowsCommitted > rowsIn) {
      throw new CommitFailedException(
          String.format(
              "Cannot commit the rewrite of %s partition %s: its %d input files hold %d rows but"
                  + " the files written to replace them hold %d; nothing was committed and the"
                  + " input files stay as they are",
              table, partition, inputFiles, rowsIn, rowsCommitted));
    }
  }

  /**
   * Throws unless the files that split {@code file} into one file per series hold exactly its rows
   * (the optimization neither drops nor adds a row).
   */
  static void verifySplit(TableName table, dev.timelake.read.PlannedFile file, long rowsWritten) {
    if (rowsWritten != file.rows()) {
      throw new CommitFailedException(
          String.format(
              "Cannot commit the optimization of %s: data file %s holds %d rows but the files"
                  + " written to replace it hold %d; nothing was committed and the table's files"
                  + " stay as they are",
              table, file.location(), file.rows(), rowsWritten));
    }
  }
}
