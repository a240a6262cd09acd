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
 * while the query pins the table would be read twice. A file stays the session's (its {@link
 * Cache}) while the tier holds the same rows of the table, so the next query reads it again.
 */
final class TierReads implements AutoCloseable {
  private final Optional<HeldWrites> tier;
  private final Cache cache;
  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final Path folder;
  private final Map<TableName, Taken> taken = new HashMap<>();
  private final Map<TableName, List<PlannedFile>> files = new HashMap<>();
  private final List<PendingAppend> staged = new ArrayList<>();

  /** Rows taken from the tier before the table was pinned, and what the tier named them. */
  private record Taken(ArrowReader rows, Optional<String> version) {}

  /** A session's files of held rows, by table, each with the tier's name for the rows it holds. */
  static final class Cache implements AutoCloseable {
    private record Entry(String version, PendingAppend append, List<PlannedFile> files) {}

    private final Map<TableName, Entry> entries = new HashMap<>();

    private Optional<List<PlannedFile>> files(TableName table, Optional<String> version) {
      Entry entry = entries.get(table);
      if (entry != null && version.isPresent() && entry.version().equals(version.get())) {
        return Optional.of(entry.files());
      }
      if (entry != null) {
        entries.remove(table).append().close();
      }
      return Optional.empty();
    }

    private void put(
        TableName table, String version, PendingAppend append, List<PlannedFile> files) {
      Entry old = entries.put(table, new Entry(version, append, files));
      if (old != null) {
        old.append().close();
      }
    }

    @Override
    public void close() {
      entries.values().forEach(entry -> entry.append().close());
      entries.clear();
    }
  }

  TierReads(
      Optional<HeldWrites> tier,
      Cache cache,
      LakeCatalog catalog,
      EngineConnection connection,
      Path folder) {
    this.tier = tier;
    this.cache = cache;
    this.catalog = catalog;
    this.connection = connection;
    this.folder = folder;
  }

  /**
   * Takes what the tier holds of {@code name} (or finds the file made of the same rows for an
   * earlier query), or has it committed (see the class comment).
   */
  void beforePinning(TableName name) {
    if (tier.isEmpty()) {
      return;
    }
    Optional<LoadedTable> table = catalog.load(name);
    if (table.isEmpty() || !table.get().contract().deduplicates()) {
      tier.get().commitHeld(name);
      return;
    }
    Optional<String> version = tier.get().heldVersion(name);
    Optional<List<PlannedFile>> made = cache.files(name, version);
    if (made.isPresent()) {
      files.put(name, made.get());
      return;
    }
    tier.get().readHeld(name).ifPresent(rows -> taken.put(name, new Taken(rows, version)));
  }

  /** Writes what was taken of {@code table}'s rows as the file its scan reads too. */
  void afterPinning(PinnedTable table) {
    Taken rows = taken.remove(table.name());
    if (rows == null) {
      return;
    }
    try (ArrowReader reader = rows.rows()) {
      PendingAppend append = new PendingAppend(table.table(), connection);
      List<PlannedFile> written;
      try {
        append.add(new AppendSource.ArrowStream(reader), Instant.now());
        written = append.heldRows(folder).map(List::of).orElse(List.of());
      } catch (RuntimeException e) {
        append.close();
        throw e;
      }
      if (!written.isEmpty()) {
        files.put(table.name(), written);
      }
      if (rows.version().isPresent()) {
        cache.put(table.name(), rows.version().get(), append, written);
      } else {
        staged.add(append);
      }
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
    taken.values().forEach(rows -> closeQuietly(rows.rows()));
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
