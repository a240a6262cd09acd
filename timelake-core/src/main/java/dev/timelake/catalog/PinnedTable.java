package dev.timelake.catalog;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.table.TableContract;
import java.util.Optional;
import org.apache.iceberg.Snapshot;

/**
 * A table at one snapshot, fixed when it was pinned: plans made from it and reads rendered from
 * those plans see the same files even while other writers commit. The Iceberg handle of a {@link
 * LoadedTable} is refreshed in place, so decisions that must agree with what is read later keep a
 * pin instead of the handle's current snapshot.
 */
public final class PinnedTable {
  private final LoadedTable table;
  private final Snapshot snapshot;

  private PinnedTable(LoadedTable table, Snapshot snapshot) {
    this.table = requireNonNull(table, "table is null");
    this.snapshot = snapshot;
  }

  /** The table at its handle's current snapshot (none for a table without commits). */
  public static PinnedTable current(LoadedTable table) {
    return new PinnedTable(table, table.iceberg().currentSnapshot());
  }

  /** The table at snapshot {@code snapshotId}, which must exist. */
  public static PinnedTable at(LoadedTable table, long snapshotId) {
    Snapshot snapshot = table.iceberg().snapshot(snapshotId);
    if (snapshot == null) {
      throw new IllegalArgumentException(table.name() + " has no snapshot " + snapshotId);
    }
    return new PinnedTable(table, snapshot);
  }

  /** The table at snapshot {@code snapshotId}, or without one for {@code -1}. */
  public static PinnedTable atOrEmpty(LoadedTable table, long snapshotId) {
    return snapshotId == -1 ? new PinnedTable(table, null) : at(table, snapshotId);
  }

  /** The loaded table (its handle may have moved on since the pin). */
  public LoadedTable table() {
    return table;
  }

  public TableName name() {
    return table.name();
  }

  public TableContract contract() {
    return table.contract();
  }

  /** The pinned snapshot; empty for a table without commits. */
  public Optional<Snapshot> snapshot() {
    return Optional.ofNullable(snapshot);
  }

  /** The pinned snapshot's id, or -1 when there is none. */
  public long snapshotId() {
    return snapshot == null ? -1 : snapshot.snapshotId();
  }

  /** The pinned snapshot's sequence number, or -1 when there is none. */
  public long sequenceNumber() {
    return snapshot == null ? -1 : snapshot.sequenceNumber();
  }

  /** A summary entry of the pinned snapshot. */
  public Optional<String> summary(String key) {
    return snapshot == null ? Optional.empty() : Optional.ofNullable(snapshot.summary().get(key));
  }

  @Override
  public String toString() {
    return name() + "@" + snapshotId();
  }
}
