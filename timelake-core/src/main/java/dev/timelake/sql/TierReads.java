package dev.timelake.sql;

import dev.timelake.HeldRead;
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
 * while the query pins the table would be read twice. The files stay the session's (its {@link
 * Cache}): the next query reads them again, with a file of the rows held since, until the tier
 * commits some of them.
 */
final class TierReads implements AutoCloseable {
  private final Optional<HeldWrites> tier;
  private final Cache cache;
  private final LakeCatalog catalog;
  private final java.util.function.Predicate<dev.timelake.table.TableContract> deduplicatesOnRead;
  private final EngineConnection connection;
  private final Path folder;
  private final Map<TableName, HeldRead> taken = new HashMap<>();
  private final Map<TableName, List<PlannedFile>> files = new HashMap<>();

  /**
   * A session's files of held rows, by table, with the tier's name for the rows they hold: read
   * again while the tier holds the same rows, and added to with a file of the rows held since while
   * it still holds all of those.
   */
  static final class Cache implements AutoCloseable {
    private record Entry(
        String layout, String version, List<PendingAppend> appends, List<PlannedFile> files) {}

    private final Map<TableName, Entry> entries = new HashMap<>();

    /**
     * The files made of exactly the rows {@code version} names for the table's {@code layout}, if
     * there are.
     */
    private Optional<List<PlannedFile>> files(
        TableName table, String layout, Optional<String> version) {
      Entry entry = entries.get(table);
      return entry != null
              && entry.layout().equals(layout)
              && version.isPresent()
              && entry.version().equals(version.get())
          ? Optional.of(entry.files())
          : Optional.empty();
    }

    /**
     * What the files of {@code table} were made of, for the tier to give only what came since;
     * empty when they were made for another layout of the table.
     */
    private Optional<String> version(TableName table, String layout) {
      return Optional.ofNullable(entries.get(table))
          .filter(entry -> entry.layout().equals(layout))
          .map(Entry::version);
    }

    /**
     * The files of {@code table} after a read named {@code version}: those made before and {@code
     * written} when the read gave only rows {@code added} since, else {@code written} alone.
     */
    private List<PlannedFile> update(
        TableName table,
        String layout,
        String version,
        boolean added,
        Optional<PendingAppend> append,
        List<PlannedFile> written) {
      Entry old = entries.remove(table);
      List<PendingAppend> appends = new ArrayList<>();
      List<PlannedFile> files = new ArrayList<>();
      if (old != null && added && old.layout().equals(layout)) {
        appends.addAll(old.appends());
        files.addAll(old.files());
      } else if (old != null) {
        old.appends().forEach(PendingAppend::close);
      }
      append.ifPresent(appends::add);
      files.addAll(written);
      entries.put(table, new Entry(layout, version, appends, List.copyOf(files)));
      return files;
    }

    /** Forgets {@code table}'s files: the tier holds nothing of it now. */
    private void drop(TableName table) {
      Entry old = entries.remove(table);
      if (old != null) {
        old.appends().forEach(PendingAppend::close);
      }
    }

    @Override
    public void close() {
      entries.values().forEach(entry -> entry.appends().forEach(PendingAppend::close));
      entries.clear();
    }
  }

  /**
   * Reads what {@code tier} holds for one statement; {@code deduplicatesOnRead} says whether the
   * session reads a table's copies of a key as one (its {@code read-dedup}).
   */
  TierReads(
      Optional<HeldWrites> tier,
      Cache cache,
      LakeCatalog catalog,
      java.util.function.Predicate<dev.timelake.table.TableContract> deduplicatesOnRead,
      EngineConnection connection,
      Path folder) {
    this.tier = tier;
    this.cache = cache;
    this.catalog = catalog;
    this.deduplicatesOnRead = deduplicatesOnRead;
    this.connection = connection;
    this.folder = folder;
  }

  /**
   * Takes what the tier holds of {@code name} (only what it held since the files made for an
   * earlier query, when they are still good, and nothing when they hold all of it), or has it
   * committed (see the class comment).
   */
  void beforePinning(TableName name) {
    if (tier.isEmpty()) {
      return;
    }
    if (!tier.get().mayHold(name)) {
      cache.drop(name);
      return; // nothing to read or commit: no look-up beside the one pinning makes
    }
    Optional<LoadedTable> table = catalog.load(name);
    if (table.isEmpty()
        || !table.get().contract().deduplicates()
        || !deduplicatesOnRead.test(table.get().contract())) {
      tier.get().commitHeld(name);
      return;
    }
    String layout = layout(table.get());
    Optional<List<PlannedFile>> made = cache.files(name, layout, tier.get().heldVersion(name));
    if (made.isPresent()) {
      files.put(name, made.get());
      return;
    }
    tier.get()
        .readHeld(name, cache.version(name, layout))
        .ifPresentOrElse(rows -> taken.put(name, rows), () -> cache.drop(name));
  }

  /** Writes what was taken of {@code table}'s rows as a file its scan reads too. */
  void afterPinning(PinnedTable table) {
    HeldRead read = taken.remove(table.name());
    if (read == null) {
      return;
    }
    try (ArrowReader rows = read.rows()) {
      Optional<PendingAppend> append = Optional.empty();
      List<PlannedFile> written = List.of();
      if (read.batches() > 0) {
        append = Optional.of(new PendingAppend(table.table(), connection));
        try {
          append.get().add(new AppendSource.ArrowStream(rows), Instant.now());
          written = append.get().heldRows(folder).map(List::of).orElse(List.of());
        } catch (RuntimeException e) {
          append.get().close();
          cache.drop(table.name());
          throw e;
        }
      }
      List<PlannedFile> all =
          cache.update(
              table.name(),
              layout(table.table()),
              read.version(),
              read.addedOnly(),
              append,
              written);
      if (!all.isEmpty()) {
        files.put(table.name(), all);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // closing batches in memory does not fail
    }
  }

  /**
   * The table as a file of its rows depends on it: the table itself (not one dropped and made again
   * under its name) and its columns.
   */
  private static String layout(LoadedTable table) {
    return table.iceberg().uuid() + "/" + table.iceberg().schema().schemaId();
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
    taken.values().forEach(read -> closeQuietly(read.rows()));
    taken.clear();
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
