package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableName;
import java.util.Collection;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Commits line-protocol points to their table as one append, the same for a group commit and for a
 * hot-tier flush: under a batch id (an append whose batch id the table already committed adds
 * nothing), recording who wrote them, without inline maintenance, which runs after the answer.
 */
final class PointsCommit {
  private static final System.Logger LOG = System.getLogger(PointsCommit.class.getName());

  private PointsCommit() {}

  /**
   * Appends {@code points} to table {@code name} of {@code lake}, their insertion time the
   * commit's. Returns the table as committed.
   */
  static Table commit(
      Lake lake,
      TableName name,
      List<LineProtocol.Point> points,
      String batchId,
      Collection<String> users,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance) {
    Table table = lake.table(name); // the newest schema: a later request may have widened it
    try (VectorSchemaRoot root = LineProtocolVectors.vectors(table, points, allocator)) {
      return commit(table, List.of(root), batchId, users, allocator, maintenance);
    }
  }

  /**
   * Appends {@code batches} (the hot tier's, one per request, each with its rows' insertion time)
   * to table {@code name} as one append; the batches are read, not consumed.
   */
  static Table commitBatches(
      Lake lake,
      TableName name,
      List<VectorSchemaRoot> batches,
      String batchId,
      Collection<String> users,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance) {
    return commit(lake.table(name), batches, batchId, users, allocator, maintenance);
  }

  private static Table commit(
      Table table,
      List<VectorSchemaRoot> batches,
      String batchId,
      Collection<String> users,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance) {
    List<String> order = table.columns().stream().map(dev.timelake.Column::name).toList();
    try (HeldBatchesReader reader = new HeldBatchesReader(batches, order, allocator)) {
      if (!reader.leftOut().isEmpty()) {
        LOG.log(
            System.Logger.Level.WARNING,
            "Committing held writes to "
                + table.name()
                + ": its columns "
                + reader.leftOut()
                + " were dropped since the writes were answered; their values are left out");
      }
      table
          .newAppend()
          .batchId(batchId)
          .writtenBy(writers(users))
          .fromArrow(reader)
          .withoutMaintenance()
          .commit();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // closing in-memory batches does not fail
    }
    // Maintenance runs after the answer, not before it: see BackgroundMaintenance.
    maintenance.maintainLater(table);
    return table;
  }

  /** The writers as the snapshot summary names them: "(token)" for a token without a user. */
  private static String writers(Collection<String> users) {
    return String.join(
        ",",
        users.stream().map(user -> user.isEmpty() ? "(token)" : user).distinct().sorted().toList());
  }
}
