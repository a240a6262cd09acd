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
  private PointsCommit() {}

  /**
   * Appends {@code points} to table {@code name} of {@code lake}; {@code ingestMicros} gives each
   * point's insertion time, or is null for the commit's. Returns the table as committed.
   */
  static Table commit(
      Lake lake,
      TableName name,
      List<LineProtocol.Point> points,
      long[] ingestMicros,
      String batchId,
      Collection<String> users,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance) {
    Table table = lake.table(name); // the newest schema: a later request may have widened it
    try (VectorSchemaRoot root =
        LineProtocolVectors.vectors(table, points, ingestMicros, allocator)) {
      table
          .newAppend()
          .batchId(batchId)
          .writtenBy(
              String.join(
                  ",",
                  users.stream()
                      .map(user -> user.isEmpty() ? "(token)" : user)
                      .distinct()
                      .sorted()
                      .toList()))
          .fromArrow(root)
          .withoutMaintenance()
          .commit();
    }
    // Maintenance runs after the answer, not before it: see BackgroundMaintenance.
    maintenance.maintainLater(table);
    return table;
  }
}
