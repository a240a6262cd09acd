package dev.timelake.maintain;

import dev.timelake.CommitStateUnknownException;
import dev.timelake.ConflictException;
import dev.timelake.MaintenanceReport;
import dev.timelake.catalog.CallingThread;
import dev.timelake.catalog.IcebergCommits;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.read.DedupStrategy;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.read.ScanSql;
import dev.timelake.table.Settings;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.write.DataFileWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFiles;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.expressions.Expressions;

/**
 * Carries out a {@link MaintenancePlan}: writes each rewrite's merged files through DuckDB, commits
 * retention and rewrites in one transaction (each rewrite keeping its run's newest data sequence
 * number), then expires snapshots and deletes orphan files. If the commit fails, the written files
 * are deleted and the table is unchanged.
 */
public final class MaintenanceRunner {
  private final LoadedTable table;
  private final EngineConnection connection;
  private final Consumer<String> progress;

  public MaintenanceRunner(
      LoadedTable table, EngineConnection connection, Consumer<String> progress) {
    dev.timelake.catalog.ContractCheck.requireIntact(table, "maintain");
    this.table = table;
    this.connection = connection;
    this.progress = progress;
  }

  /** Runs the plan and reports what changed. */
  public MaintenanceReport run(MaintenancePlan plan, Instant now) {
    long started = System.nanoTime();
    Map<Rewrite, List<String>> written = new LinkedHashMap<>();
    try {
      int done = 0;
      for (Rewrite rewrite : plan.rewrites()) {
        progress.accept(
            "compacting "
                + table.name()
                + " partition "
                + rewrite.label()
                + " ("
                + (++done)
                + " of "
                + plan.rewrites().size()
                + ")");
        written.put(rewrite, write(rewrite));
      }
    } catch (RuntimeException e) {
      new DataFileWriter(connection, table.iceberg(), table.contract())
          .deleteAll(written.values().stream().flatMap(List::stream).toList(), e);
      throw e;
    }
    progress.accept("committing " + written.size() + " rewrites of " + table.name());
    return commit(plan, now, written, started, OnReplaced.SKIP);
  }

  /**
   * What a commit does with a rewrite whose input files a concurrent commit replaced first (an
   * inline compaction after a writer's append, say): fail the whole commit, as a distributed
   * maintenance must, or leave that rewrite out, commit the rest, and try again against the new
   * snapshot when the race is lost at the commit itself.
   */
  private enum OnReplaced {
    FAIL,
    SKIP
  }

  /** How often a run that skips replaced rewrites tries to commit before it gives up. */
  private static final int COMMIT_ATTEMPTS = 5;

  /**
   * Commits the plan's rewrites, whose merged files are written (by {@link #write}, here or in
   * other processes), and retention in one transaction; then expires snapshots and deletes orphan
   * files. If the commit fails, the written files are deleted and the table is unchanged. The
   * report's duration counts from {@code startedNanos} ({@link System#nanoTime()}).
   */
  public MaintenanceReport commit(
      MaintenancePlan plan, Instant now, Map<Rewrite, List<String>> written, long startedNanos) {
    return commit(plan, now, written, startedNanos, OnReplaced.FAIL);
  }

  private MaintenanceReport commit(
      MaintenancePlan plan,
      Instant now,
      Map<Rewrite, List<String>> written,
      long startedNanos,
      OnReplaced onReplaced) {
    Table iceberg = table.iceberg();
    List<PlannedFile> before = ScanPlanner.liveFiles(table);
    int rewritten = 0;
    List<String> explanation = new ArrayList<>(plan.explanation());
    if (!plan.rewrites().isEmpty() || plan.partitionsDropped() > 0) {
      Set<Rewrite> skipped = new LinkedHashSet<>();
      rewritten = commitRewrites(plan, written, onReplaced, skipped);
      for (Rewrite rewrite : skipped) {
        explanation.add(
            "skipped the rewrite of partition "
                + rewrite.label()
                + ": a concurrent commit replaced its files first; a later run picks it up");
      }
      // Before expiry removes the snapshots the new one's coverage is derived from.
      iceberg.refresh();
      dev.timelake.index.CoverageStore.attachTo(
          iceberg, table.contract(), connection, iceberg.currentSnapshot());
    }
    int expired = plan.expireSnapshots() ? expire(now) : 0;
    int orphans = plan.cleanOrphans() ? OrphanFiles.delete(iceberg, table.contract(), now) : 0;
    iceberg.refresh();
    List<PlannedFile> after = ScanPlanner.liveFiles(table);
    return new MaintenanceReport(
        table.name(),
        before.size(),
        after.size(),
        before.stream().mapToLong(PlannedFile::sizeBytes).sum(),
        after.stream().mapToLong(PlannedFile::sizeBytes).sum(),
        rewritten,
        plan.partitionsDropped(),
        expired,
        orphans,
        Duration.ofNanos(System.nanoTime() - startedNanos),
        explanation);
  }

  private int commitRewrites(
      MaintenancePlan plan,
      Map<Rewrite, List<String>> written,
      OnReplaced onReplaced,
      Set<Rewrite> skipped) {
    DataFileWriter writer = new DataFileWriter(connection, table.iceberg(), table.contract());
    List<String> locations = written.values().stream().flatMap(List::stream).toList();
    try {
      Map<Rewrite, List<DataFile>> files = new LinkedHashMap<>();
      for (Rewrite rewrite : plan.rewrites()) {
        List<String> merged = written.get(rewrite);
        if (merged == null) {
          throw new IllegalArgumentException(
              "Cannot commit maintenance of "
                  + table.name()
                  + ": no files were written for the rewrite of partition "
                  + rewrite.label());
        }
        List<DataFile> dataFiles =
            merged.stream()
                .map(location -> writer.dataFile(location, rewrite.partition()))
                .toList();
        RewriteCounts.verifyCommitted(
            table.name(),
            rewrite.label(),
            rewrite.files().stream().mapToLong(PlannedFile::rows).sum(),
            dataFiles.stream().mapToLong(DataFile::recordCount).sum(),
            rewrite.files().size());
        files.put(rewrite, dataFiles);
      }
      for (int attempt = 1; ; attempt++) {
        skipped.clear();
        Map<Rewrite, List<DataFile>> committing = new LinkedHashMap<>(files);
        if (onReplaced == OnReplaced.SKIP) {
          Map<String, DataFile> live = table.liveDataFiles();
          for (Rewrite rewrite : plan.rewrites()) {
            if (rewrite.files().stream().anyMatch(file -> !live.containsKey(file.location()))) {
              skipped.add(rewrite);
              committing.remove(rewrite);
            }
          }
        }
        try {
          if (!committing.isEmpty() || plan.retentionCutoffMicros().isPresent()) {
            commit(plan, committing);
          }
          List<String> orphans = new ArrayList<>();
          skipped.forEach(rewrite -> orphans.addAll(written.get(rewrite)));
          writer.deleteAll(orphans, null);
          return committing.size();
        } catch (ConflictException e) {
          if (onReplaced == OnReplaced.FAIL || attempt >= COMMIT_ATTEMPTS) {
            throw e;
          }
          progress.accept(
              "a concurrent commit replaced files of "
                  + table.name()
                  + "; committing again against it (attempt "
                  + (attempt + 1)
                  + " of "
                  + COMMIT_ATTEMPTS
                  + ")");
          table.iceberg().refresh();
        }
      }
    } catch (CommitStateUnknownException e) {
      // The commit may have succeeded: the written files may be live, so they stay.
      throw e;
    } catch (RuntimeException e) {
      writer.deleteAll(locations, e);
      throw e;
    }
  }

  /**
   * Writes one rewrite's merged, sorted, duplicate-free files into the table's partition folder;
   * returns their locations. Nothing is committed; if writing fails, what was written is deleted.
   */
  public List<String> write(Rewrite rewrite) {
    DataFileWriter writer = new DataFileWriter(connection, table.iceberg(), table.contract());
    List<String> locations = new ArrayList<>();
    try {
      writeRewrite(writer, rewrite, locations);
      return locations;
    } catch (RuntimeException e) {
      writer.deleteAll(locations, e);
      throw e;
    }
  }

  private void writeRewrite(DataFileWriter writer, Rewrite rewrite, List<String> locations) {
    String relation =
        ScanSql.relation(
            ScanPlanner.planOf(table, rewrite.files(), table.contract().deduplicates()),
            DedupStrategy.MERGE,
            table.files());
    String merged = "__tl_compact_" + UUID.randomUUID().toString().replace("-", "");
    String columns = SqlText.identifiers(table.contract().columnNames());
    String order =
        table.contract().isTimeSeries()
            ? " ORDER BY " + SqlText.identifiers(table.contract().keyColumns())
            : "";
    connection.execute(
        "CREATE TEMPORARY TABLE "
            + merged
            + " AS SELECT "
            + columns
            + " FROM ("
            + relation
            + ")"
            + order);
    try {
      RewriteCounts counts = count(rewrite, merged);
      counts.verify(
          table.name(), rewrite.label(), table.contract().deduplicates(), rewrite.files().size());
      long rows = counts.rowsOut();
      // Row ids of a temporary table start at 0 only outside a transaction: pieces are counted
      // from the first.
      long first =
          rows == 0
              ? 0
              : ((Number) connection.scalar("SELECT min(rowid) FROM " + merged)).longValue();
      long target =
          Long.parseLong(table.contract().setting(Settings.TARGET_FILE_SIZE).orElseThrow());
      int pieces = (int) Math.max(1, Math.min(rows, Math.round((double) rewrite.bytes() / target)));
      long perPiece = (rows + pieces - 1) / Math.max(1, pieces);
      for (int piece = 0; piece < pieces && rows > 0; piece++) {
        String location =
            writer.newLocation(rewrite.partition(), MaintenancePlanner.COMPACTED_PREFIX);
        locations.add(location);
        writer.write(
            "SELECT "
                + columns
                + " FROM "
                + merged
                + " WHERE rowid >= "
                + (first + piece * perPiece)
                + " AND rowid < "
                + (first + (piece + 1) * perPiece)
                + " ORDER BY rowid",
            location);
      }
    } finally {
      connection.execute("DROP TABLE IF EXISTS " + merged);
    }
  }

  /**
   * Counts the rewrite's input straight from its files (no merge) and its merged result, in one
   * statement: rows and distinct keys of each.
   */
  private RewriteCounts count(Rewrite rewrite, String merged) {
    String input = ScanSql.readParquet(table.contract(), rewrite.files(), table.files());
    String keys = dev.timelake.index.RowKeys.list(table.contract());
    List<Object> counts =
        connection
            .rows(
                "SELECT (SELECT count(*) FROM "
                    + input
                    + "), ("
                    + distinctKeys(keys, input)
                    + "), (SELECT count(*) FROM "
                    + merged
                    + "), ("
                    + distinctKeys(keys, merged)
                    + ")")
            .get(0);
    return new RewriteCounts(
        ((Number) counts.get(0)).longValue(),
        ((Number) counts.get(1)).longValue(),
        ((Number) counts.get(2)).longValue(),
        ((Number) counts.get(3)).longValue());
  }

  /** Distinct keys of a relation's rows; every row is its own key for a table without keys. */
  private static String distinctKeys(String keys, String relation) {
    return keys.isEmpty()
        ? "SELECT count(*) FROM " + relation
        : "SELECT count(*) FROM (SELECT " + keys + " FROM " + relation + " GROUP BY ALL)";
  }

  private void commit(MaintenancePlan plan, Map<Rewrite, List<DataFile>> written) {
    Snapshot loaded = table.iceberg().currentSnapshot();
    commitRewrite(() -> stage(plan, written), "maintenance", table.name(), "run maintain again");
    recordAgain(loaded);
  }

  /**
   * A rollup's record after maintenance committed on top of a commit made while it ran (a refresh):
   * Iceberg applied the rewrite again on the newer snapshot, but its summary carries the record of
   * the snapshot maintenance loaded, which names an older raw snapshot than the rows reflect. A
   * commit without files then carries the newer record forward again.
   */
  private void recordAgain(Snapshot loaded) {
    if (loaded == null || rollupRecord(loaded).isEmpty()) {
      return; // not a rollup: nothing to carry, and no catalog round trip after every commit
    }
    Table iceberg = table.iceberg();
    iceberg.refresh();
    Snapshot ours = iceberg.currentSnapshot();
    Snapshot base = ours;
    while (base != null
        && base.parentId() != null
        && base.snapshotId() != loaded.snapshotId()
        && isMaintenance(base)) {
      base = iceberg.snapshot(base.parentId());
    }
    if (base == null
        || base.snapshotId() == loaded.snapshotId()
        || rollupRecord(base).equals(rollupRecord(ours))) {
      return;
    }
    AppendFiles record = CallingThread.manifestsOf(iceberg.newAppend());
    rollupRecord(base).forEach(record::set);
    record.set(SnapshotSummaries.OPERATION, "compaction-record");
    IcebergCommits.commit(
        IcebergCommits.Operation.onTable(
            "maintenance of " + table.name() + " (to carry its rollup record)",
            "run maintain again"),
        record::commit);
  }

  private static boolean isMaintenance(Snapshot snapshot) {
    String operation = snapshot.summary().get(SnapshotSummaries.OPERATION);
    return "compaction".equals(operation) || "retention".equals(operation);
  }

  private static Map<String, String> rollupRecord(Snapshot snapshot) {
    Map<String, String> record = new java.util.TreeMap<>();
    snapshot
        .summary()
        .forEach(
            (key, value) -> {
              if (key.startsWith(SnapshotSummaries.ROLLUP_PREFIX)) {
                record.put(key, value);
              }
            });
    return record;
  }

  /**
   * Commits a transaction of rewrites: an unknown outcome keeps the new files (they may be live),
   * any other failure (including Iceberg's check that the replaced files are still live) leaves the
   * table unchanged; the messages say what to do next.
   */
  static void commitRewrite(
      java.util.function.Supplier<Transaction> staged,
      String operation,
      dev.timelake.TableName table,
      String retry) {
    // Staging validates too: a replaced file no longer live fails there, naming it.
    IcebergCommits.commit(
        IcebergCommits.Operation.onTable(operation + " of " + table, retry),
        () -> staged.get().commitTransaction());
  }

  /** Retention and every rewrite as one transaction, not yet committed. */
  private Transaction stage(MaintenancePlan plan, Map<Rewrite, List<DataFile>> written) {
    Table iceberg = table.iceberg();
    Snapshot current = iceberg.currentSnapshot();
    Map<String, DataFile> live = table.liveDataFiles();
    Transaction transaction = iceberg.newTransaction();
    if (plan.retentionCutoffMicros().isPresent()) {
      DeleteFiles delete =
          CallingThread.manifestsOf(transaction.newDelete())
              .deleteFromRowFilter(
                  Expressions.lessThan(
                      table.contract().timeColumn().orElseThrow(),
                      plan.retentionCutoffMicros().getAsLong()));
      delete.set(SnapshotSummaries.OPERATION, "retention");
      carryForward(current, delete::set);
      delete.commit();
      transaction
          .updateProperties()
          .set(
              Settings.RETENTION_HORIZON.propertyKey(),
              Long.toString(plan.retentionCutoffMicros().getAsLong()))
          .commit();
    }
    for (Map.Entry<Rewrite, List<DataFile>> entry : written.entrySet()) {
      Rewrite rewrite = entry.getKey();
      RewriteFiles files =
          CallingThread.manifestsOf(transaction.newRewrite())
              .validateFromSnapshot(plan.snapshotId())
              .dataSequenceNumber(rewrite.sequenceNumber());
      for (PlannedFile file : rewrite.files()) {
        DataFile replaced = live.get(file.location());
        if (replaced == null) {
          throw new ConflictException(
              "Cannot commit maintenance of "
                  + table.name()
                  + ": data file "
                  + file.location()
                  + " was replaced by a concurrent commit; the table is unchanged, run maintain"
                  + " again");
        }
        files.deleteFile(replaced);
      }
      entry.getValue().forEach(files::addFile);
      files.set(SnapshotSummaries.OPERATION, "compaction");
      carryForward(current, files::set);
      files.commit();
    }
    return transaction;
  }

  /**
   * Keeps summary entries that describe the table's content, such as a rollup's source snapshot.
   */
  private static void carryForward(
      Snapshot current, java.util.function.BiConsumer<String, String> set) {
    if (current == null) {
      return;
    }
    current
        .summary()
        .forEach(
            (key, value) -> {
              if (key.startsWith(SnapshotSummaries.ROLLUP_PREFIX)) {
                set.accept(key, value);
              }
            });
  }

  private int expire(Instant now) {
    Table iceberg = table.iceberg();
    ExpiryCutoff cutoff = ExpiryCutoff.of(iceberg, table.contract(), now);
    int before = countSnapshots(iceberg);
    iceberg
        .expireSnapshots()
        .expireOlderThan(cutoff.olderThanMillis())
        .retainLast(cutoff.retainLast())
        .commit();
    iceberg.refresh();
    return before - countSnapshots(iceberg);
  }

  private static int countSnapshots(Table table) {
    int count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }
}
