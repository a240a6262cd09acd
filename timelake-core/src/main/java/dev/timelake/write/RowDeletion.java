package dev.timelake.write;

import dev.timelake.CommitFailedException;
import dev.timelake.CommitStateUnknownException;
import dev.timelake.ConflictException;
import dev.timelake.catalog.CallingThread;
import dev.timelake.catalog.IcebergCommits;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.index.RowKeys;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.read.ScanSql;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.table.TableContract;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Transaction;

/**
 * Removes every copy of some keys from a table (for a table that keeps every row, every row equal
 * to a selected one), copy-on-write: each live file holding one of the keys is dropped when it
 * holds nothing else, else written again without them; all in one Iceberg transaction validated
 * against the snapshot the keys were read at, so a key's older copy never resurfaces when its
 * newest is deleted. A rewritten file keeps its data sequence number, so the winner rule orders its
 * remaining rows as before. Plain DuckDB reads the result as it reads any table: no delete files.
 */
public final class RowDeletion {
  private static final String KEY = "__tl_k";
  private static final String KEYS = "__tl_delete_keys";

  private final LoadedTable table;
  private final EngineConnection connection;

  /** Deletes from {@code table}, reading and writing on {@code connection}. */
  public RowDeletion(LoadedTable table, EngineConnection connection) {
    dev.timelake.catalog.ContractCheck.requireIntact(table, "delete from");
    this.table = table;
    this.connection = connection;
  }

  /**
   * What a deletion did: the rows it removed as the reader saw them (one per key where copies are
   * removed on read, every stored row otherwise), the files it dropped and rewrote.
   */
  public record Result(long rows, int droppedFiles, int rewrittenFiles) {}

  /**
   * The relation's rows name the keys to remove (it has the table's columns, as the reader sees
   * them at {@code pinned}); their every copy is removed. The commits record the time span of the
   * removed rows and, when {@code recordedColumns} (grouping columns of the table's rollups and the
   * time column) are given, a file of their distinct values in the removed rows, from which a
   * refresh knows which of its cells lost rows.
   */
  public Result delete(String rows, PinnedTable pinned, List<String> recordedColumns) {
    return delete(rows, pinned, recordedColumns, Map.of());
  }

  /** Like {@link #delete(String, PinnedTable, List)}, the commits also carrying {@code summary}. */
  public Result delete(
      String rows, PinnedTable pinned, List<String> recordedColumns, Map<String, String> summary) {
    TableContract contract = table.contract();
    List<String> keyExpressions = keyExpressions(contract);
    List<String> columns = new ArrayList<>(keyExpressions);
    List<String> selected = new ArrayList<>();
    for (int i = 0; i < keyExpressions.size(); i++) {
      selected.add(keyExpressions.get(i) + " AS " + KEY + i);
    }
    List<String> wanted = new ArrayList<>(recordedColumns);
    contract.timeColumn().ifPresent(wanted::add);
    for (String column : wanted) {
      String identifier = SqlText.identifier(column);
      if (!columns.contains(identifier)) {
        selected.add(identifier + " AS " + KEY + columns.size());
        columns.add(identifier);
      }
    }
    connection.execute("DROP TABLE IF EXISTS " + KEYS);
    connection.execute(
        "CREATE TEMPORARY TABLE "
            + KEYS
            + " AS SELECT DISTINCT "
            + String.join(", ", selected)
            + " FROM ("
            + rows
            + ") AS __tl_rows");
    List<String> written = new ArrayList<>();
    try {
      String distinctKeys =
          columns.size() == keyExpressions.size()
              ? KEYS
              : "(SELECT DISTINCT "
                  + String.join(", ", keyColumns(keyExpressions.size()))
                  + " FROM "
                  + KEYS
                  + ")";
      long count = ((Number) connection.scalar("SELECT count(*) FROM " + distinctKeys)).longValue();
      if (count == 0) {
        return new Result(0, 0, 0);
      }
      Map<String, String> record = new java.util.LinkedHashMap<>(summary);
      Optional<TimeInterval> span = span(columns, contract);
      span.ifPresent(
          s -> {
            record.put(SnapshotSummaries.DELETED_TIME_MIN, Long.toString(s.start()));
            record.put(SnapshotSummaries.DELETED_TIME_MAX, Long.toString(s.end() - 1));
          });
      if (!recordedColumns.isEmpty()) {
        String location = writeRemovedRows(columns, recordedColumns);
        written.add(location);
        record.put(SnapshotSummaries.DELETED_ROWS_FILE, location);
        record.put(
            SnapshotSummaries.DELETED_ROWS_COLUMNS,
            dev.timelake.table.DeletedRows.columnsJson(recordedColumns));
      }
      Result files = rewrite(keyExpressions, pinned, span, record, written);
      if (files.droppedFiles() + files.rewrittenFiles() == 0) {
        new DataFileWriter(connection, table.iceberg(), contract).deleteAll(written, null);
      }
      boolean copiesRemovedOnRead = contract.isTimeSeries() && contract.deduplicates();
      return new Result(
          copiesRemovedOnRead ? count : files.rows(), files.droppedFiles(), files.rewrittenFiles());
    } catch (CommitStateUnknownException e) {
      // The rewrite may be live: its files stay.
      throw e;
    } catch (RuntimeException e) {
      new DataFileWriter(connection, table.iceberg(), contract).deleteAll(written, e);
      throw e;
    } finally {
      connection.execute("DROP TABLE IF EXISTS " + KEYS);
    }
  }

  private static List<String> keyColumns(int count) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      names.add(KEY + i);
    }
    return names;
  }

  /** The first and last µs of time of the removed rows, when the table has a time column. */
  private Optional<TimeInterval> span(List<String> columns, TableContract contract) {
    if (contract.timeColumn().isEmpty()) {
      return Optional.empty();
    }
    String time = KEY + columns.indexOf(SqlText.identifier(contract.timeColumn().get()));
    String micros = contract.hasLogicalClock() ? time : "epoch_us(" + time + ")";
    List<Object> bounds =
        connection.rows("SELECT min(" + micros + "), max(" + micros + ") FROM " + KEYS).get(0);
    if (bounds.get(0) == null) {
      return Optional.empty(); // NULL times: no span to record, the files are all candidates
    }
    long max = ((Number) bounds.get(1)).longValue();
    return Optional.of(
        new TimeInterval(
            ((Number) bounds.get(0)).longValue(), max == Long.MAX_VALUE ? max : max + 1));
  }

  /**
   * Writes the distinct values of {@code recordedColumns} in the removed rows to a Parquet file in
   * the table's metadata folder (kept while a snapshot names it, then removed as an orphan).
   */
  private String writeRemovedRows(List<String> columns, List<String> recordedColumns) {
    List<String> items = new ArrayList<>();
    for (String column : recordedColumns) {
      String identifier = SqlText.identifier(column);
      items.add(KEY + columns.indexOf(identifier) + " AS " + identifier);
    }
    String location =
        table.iceberg().location()
            + "/metadata/deleted-"
            + java.util.UUID.randomUUID()
            + ".parquet";
    table
        .files()
        .write(
            location,
            path ->
                connection.execute(
                    "COPY (SELECT DISTINCT "
                        + String.join(", ", items)
                        + " FROM "
                        + KEYS
                        + ") TO "
                        + SqlText.literal(path)
                        + " (FORMAT parquet)"));
    return location;
  }

  /** The files holding the keys, dropped or written again, committed as one transaction. */
  private Result rewrite(
      List<String> keyExpressions,
      PinnedTable pinned,
      Optional<TimeInterval> span,
      Map<String, String> record,
      List<String> written) {
    return IcebergCommits.commit(
        IcebergCommits.Operation.onTable("delete from " + table.name(), "run the DELETE again"),
        () -> rewriteAndCommit(keyExpressions, pinned, span, record, written),
        () -> {});
  }

  private Result rewriteAndCommit(
      List<String> keyExpressions,
      PinnedTable pinned,
      Optional<TimeInterval> span,
      Map<String, String> record,
      List<String> written) {
    String keys = KEYS;
    DataFileWriter writer = new DataFileWriter(connection, table.iceberg(), table.contract());
    Map<String, DataFile> live = table.liveDataFiles();
    // Per data sequence number, the files replaced and their replacements: one rewrite each.
    Map<Long, List<DataFile>> removed = new TreeMap<>();
    Map<Long, List<DataFile>> added = new TreeMap<>();
    int dropped = 0;
    int rewritten = 0;
    long removedRows = 0;
    for (PlannedFile file : candidates(pinned, span)) {
      String read = ScanSql.readParquet(table.contract(), List.of(file), table.files());
      String held =
          "SELECT * FROM "
              + read
              + " AS __tl_row SEMI JOIN "
              + keys
              + " AS __tl_key ON "
              + sameKey(keyExpressions);
      long matched =
          ((Number) connection.scalar("SELECT count(*) FROM (" + held + ")")).longValue();
      if (matched == 0) {
        continue;
      }
      removedRows += matched;
      DataFile old = live.get(file.location());
      if (old == null) {
        throw new ConflictException(
            "Cannot delete from "
                + table.name()
                + ": a concurrent commit replaced its data file "
                + file.location()
                + "; the table is unchanged, run the DELETE again");
      }
      removed.computeIfAbsent(file.sequenceNumber(), s -> new ArrayList<>()).add(old);
      if (matched == file.rows()) {
        dropped++;
        continue;
      }
      String location = writer.newLocation(file.partition(), "delete");
      written.add(location);
      writer.write(
          "SELECT "
              + SqlText.identifiers(table.contract().columnNames())
              + " FROM "
              + read
              + " AS __tl_row ANTI JOIN "
              + keys
              + " AS __tl_key ON "
              + sameKey(keyExpressions),
          location);
      DataFile replacement = writer.dataFile(location, file.partition());
      // The rewrite keeps every row but the deleted ones, or nothing is committed.
      if (replacement.recordCount() != file.rows() - matched) {
        throw new CommitFailedException(
            String.format(
                "Cannot delete from %s: the rewrite of %s holds %d rows, not the %d it should"
                    + " keep (%d of %d deleted); nothing was committed",
                table.name(),
                file.location(),
                replacement.recordCount(),
                file.rows() - matched,
                matched,
                file.rows()));
      }
      added.computeIfAbsent(file.sequenceNumber(), s -> new ArrayList<>()).add(replacement);
      rewritten++;
    }
    if (removed.isEmpty()) {
      return new Result(0, 0, 0);
    }
    Transaction transaction = table.iceberg().newTransaction();
    for (Map.Entry<Long, List<DataFile>> entry : removed.entrySet()) {
      RewriteFiles files =
          CallingThread.manifestsOf(transaction.newRewrite())
              .validateFromSnapshot(pinned.snapshotId())
              .dataSequenceNumber(entry.getKey());
      entry.getValue().forEach(files::deleteFile);
      added.getOrDefault(entry.getKey(), List.of()).forEach(files::addFile);
      files.set(SnapshotSummaries.OPERATION, SnapshotSummaries.DELETE_OPERATION);
      record.forEach(files::set);
      files.commit();
    }
    // Recorded with the rows' removal, so a refresh whose history since its record expired
    // knows a DELETE may have changed its buckets.
    transaction
        .updateProperties()
        .set(
            dev.timelake.table.Settings.LAST_DELETE.propertyKey(),
            Long.toString(System.currentTimeMillis()))
        .commit();
    transaction.commitTransaction();
    return new Result(removedRows, dropped, rewritten);
  }

  /**
   * What identifies the rows to remove: the row key where copies of a key are removed on read, else
   * every column (a table that keeps every row: each row equal to a selected one goes).
   */
  private static List<String> keyExpressions(TableContract contract) {
    if (contract.isTimeSeries() && contract.deduplicates()) {
      return RowKeys.of(contract);
    }
    return contract.columnNames().stream().map(SqlText::identifier).toList();
  }

  /** The live files that may hold one of the keys: by the keys' time span where there is one. */
  private List<PlannedFile> candidates(PinnedTable pinned, Optional<TimeInterval> span) {
    List<PlannedFile> files = ScanPlanner.liveFiles(pinned);
    if (span.isEmpty() || table.contract().replacesWithinInterval()) {
      return files;
    }
    long min = span.get().start();
    long max = span.get().end() - 1;
    List<PlannedFile> overlapping = new ArrayList<>();
    for (PlannedFile file : files) {
      if (file.maxMicros() >= min && file.minMicros() <= max) {
        overlapping.add(file);
      }
    }
    return overlapping;
  }

  /**
   * A file's row and a listed key are the same key: the key expressions read the file's columns
   * (the key table's columns have names no table column has, so they need no qualifier).
   */
  private static String sameKey(List<String> keyExpressions) {
    List<String> terms = new ArrayList<>();
    for (int i = 0; i < keyExpressions.size(); i++) {
      terms.add(keyExpressions.get(i) + " IS NOT DISTINCT FROM __tl_key." + KEY + i);
    }
    return String.join(" AND ", terms);
  }
}
