package dev.timelake.sql;

import dev.timelake.HeldWrites;
import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.read.PlannedFile;
import dev.timelake.write.AppendSource;
import dev.timelake.write.PendingAppend;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * What a session's tier holds of the tables one query reads, read beside their committed files:
 * taken from the tier as each table is about to be pinned ({@link HeldWrites#readHeld}), then, once
 * pinned, staged as an append's rows are and written, copies within them removed, as a local file
 * that the table's scan reads as newer than every committed one (as a transaction's own rows are).
 * The newest insertion time still wins, so the answer is the one the tier's commit will give. A
 * table that keeps copies of a key has what is held committed first instead, since a row committed
 * while the query pins the table would be read twice. The files go when the query is answered.
 */
final class TierReads implements AutoCloseable {
  private final Optional<HeldWrites> tier;
  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final Path folder;
  private final Map<TableName, ArrowReader> taken = new HashMap<>();
  private final Map<TableName, List<PlannedFile>> files = new HashMap<>();
  private final List<PendingAppend> staged = new ArrayList<>();

  TierReads(
      Optional<HeldWrites> tier, LakeCatalog catalog, EngineConnection connection, Path folder) {
    this.tier = tier;
    this.catalog = catalog;
    this.connection = connection;
    this.folder = folder;
  }

  /** Takes what the tier holds of {@code name}, or has it committed (see the class comment). */
  void beforePinning(TableName name) {
    if (tier.isEmpty()) {
      return;
    }
    Optional<LoadedTable> table = catalog.load(name);
    if (table.isPresent() && table.get().contract().deduplicates()) {
      tier.get().readHeld(name).ifPresent(rows -> taken.put(name, rows));
    } else {
      tier.get().commitHeld(name);
    }
  }

  /** Writes what was taken of {@code table}'s rows as the file its scan reads too. */
  void afterPinning(PinnedTable table) {
    ArrowReader rows = taken.remove(table.name());
    if (rows == null) {
      return;
    }
    try (rows) {
      PendingAppend append = new PendingAppend(table.table(), connection);
      staged.add(append);
      append.add(new AppendSource.ArrowStream(rows), Instant.now());
      append.heldRows(folder).ifPresent(file -> files.put(table.name(), List.of(file)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // closing batches in memory does not fail
    }
  }

  /** The files of held rows the query reads with {@code table}'s committed ones. */
  List<PlannedFile> files(TableName table) {
    return files.getOrDefault(table, List.of());
  }

  /** True when the query reads rows the tier holds of {@code table}. */
  boolean reads(TableName table) {
    return files.containsKey(table);
  }

  @Override
  public void close() {
    taken.values().forEach(TierReads::closeQuietly);
    taken.clear();
    staged.forEach(PendingAppend::close);
    staged.clear();
    files.clear();
  }

  private static void closeQuietly(ArrowReader reader) {
    try {
      reader.close();
    } catch (java.io.IOException | RuntimeException e) {
      // In memory: nothing to report.
    }
  }
}
