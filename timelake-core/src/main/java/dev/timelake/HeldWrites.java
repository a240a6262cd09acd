package dev.timelake;

import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A write-ahead tier that a session's small writes go to instead of a commit each (a server's hot
 * tier, see {@link Session#holdWritesIn}). An {@code INSERT … VALUES} of constants outside a
 * transaction is checked and converted to the table's column types in Java (a COPY is staged and
 * checked in DuckDB, then read back), then handed to {@link #hold}, which answers once the rows are
 * durable and commits them later; {@link #commitHeld} is called before a statement of the session
 * that may read tables (with the table, before a query first reads it), so that it reads what was
 * written.
 */
public interface HeldWrites {
  /** Where the batches handed to {@link #hold} are allocated: the tier's memory. */
  org.apache.arrow.memory.BufferAllocator allocator();

  /**
   * Holds {@code rows} for {@code table} (some of its columns, by name, and its insertion-time
   * column when it has one, which the tier sets to the time it answers), written by {@code user}
   * (empty for the local user); returns once they are durable. The batch is the tier's from then
   * on, also when this throws.
   *
   * @throws TimelakeException when the rows could not be made durable: nothing was written
   */
  void hold(
      TableName table, VectorSchemaRoot rows, Optional<String> insertionTimeColumn, String user);

  /**
   * Commits everything held before this call, before a statement that may read any table.
   *
   * @throws TimelakeException when that cannot be done in time: the statement must not run
   */
  void commitHeld();

  /**
   * Commits what is held of {@code table} before this call, before a query that cannot read it as
   * held reads it (other tables stay held).
   *
   * @throws TimelakeException when that cannot be done in time: the statement must not run
   */
  void commitHeld(TableName table);

  /**
   * What is held of {@code table} now, for a query to read with the table's committed rows (the
   * same winner rule: the newest insertion time wins): the rows as written, each with the insertion
   * time the tier gave it, in the table's column order. Called before the query pins the table's
   * snapshot, so a row committed meanwhile is read twice, as identical copies of one key (only
   * tables that remove copies are read this way). With {@code since}, the {@link HeldRead#version}
   * of an earlier read of the table: when the tier still holds every row that read gave, only the
   * rows held after them are given ({@link HeldRead#addedOnly}, maybe none). Empty when nothing is
   * held — or, the default, once what is held is committed (as {@link #commitHeld(TableName)}),
   * which a tier does too when it holds too much to read this way.
   *
   * @throws TimelakeException when what is held cannot be committed in time: the query must not run
   */
  default Optional<HeldRead> readHeld(TableName table, Optional<String> since) {
    commitHeld(table);
    return Optional.empty();
  }

  /**
   * What is held of {@code table} now, named: the same name means the same rows held (a write held
   * or a commit gives another), so a session may read again the file it made of them for an earlier
   * query. Empty when the tier does not tell: each query then reads what is held anew.
   */
  default Optional<String> heldVersion(TableName table) {
    return Optional.empty();
  }

  /**
   * False when the tier is sure it holds nothing of {@code table}, so a query need not look the
   * table up an extra time to decide how to read what is held; true by default.
   */
  default boolean mayHold(TableName table) {
    return true;
  }
}
