package dev.timelake.maintain;

import dev.timelake.CommitStateUnknownException;
import dev.timelake.OptimizeReport;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.CallingThread;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.index.CoverageStore;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.read.ScanSql;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.table.TableContract;
import dev.timelake.write.DataFileWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;

/**
 * Entity-layout optimization (seed 003): rewrites each live data file that holds rows of several
 * series into one file per series, keeping its rows, their order by (series key…, time), the file's
 * data sequence number (so the winner rule picks the same rows) and the coverage. It is not
 * compaction: it takes no target size, and a second run finds nothing to do. One transaction.
 */
public final class EntityLayoutOptimizer {
  /** The file name prefix of files it writes. */
  public static final String PREFIX = "entity";

  private final LoadedTable table;
  private final EngineConnection connection;
  private final Consumer<String> progress;

  public EntityLayoutOptimizer(
      LoadedTable table, EngineConnection connection, Consumer<String> progress) {
    this.table = table;
    this.connection = connection;
    this.progress = progress;
  }

  /** Runs the optimization and reports it. */
  public OptimizeReport run() {
    TableContract contract = table.contract();
    if (contract.seriesKey().isEmpty()) {
      throw TimelakeException.validation(
          "Cannot optimize %s: it has no entity columns, so every file holds one series already"
              + " (entity-layout optimization needs entity_columns / series_key)",
          table.name());
    }
    Table iceberg = table.iceberg();
    iceberg.refresh();
    Snapshot start = iceberg.currentSnapshot();
    List<PlannedFile> files = ScanPlanner.liveFiles(table);
    Map<PlannedFile, List<List<Object>>> mixed = new LinkedHashMap<>();
    long identities = 0;
    long rowsRead = 0;
    for (PlannedFile file : files) {
      List<List<Object>> series = identities(file);
      if (series.size() > 1) {
        mixed.put(file, series);
        identities += series.size();
        rowsRead += file.rows();
      }
    }
    OptionalLong starting =
        start == null ? OptionalLong.empty() : OptionalLong.of(start.snapshotId());
    if (mixed.isEmpty()) {
      return new OptimizeReport(
          table.name(), starting, OptionalLong.empty(), files.size(), 0, 0, 0, 0, 0, true);
    }
    DataFileWriter writer = new DataFileWriter(connection, iceberg, contract);
    List<String> written = new ArrayList<>();
    Map<PlannedFile, List<DataFile>> replacements = new LinkedHashMap<>();
    long rowsWritten = 0;
    try {
      int done = 0;
      for (Map.Entry<PlannedFile, List<List<Object>>> entry : mixed.entrySet()) {
        progress.accept("optimizing " + table.name() + ": file " + ++done + " of " + mixed.size());
        List<DataFile> pieces = split(writer, entry.getKey(), entry.getValue(), written);
        long rows = pieces.stream().mapToLong(DataFile::recordCount).sum();
        RewriteCounts.verifySplit(table.name(), entry.getKey(), rows);
        rowsWritten += rows;
        replacements.put(entry.getKey(), pieces);
      }
      Snapshot committed = commit(start, replacements);
      return new OptimizeReport(
          table.name(),
          starting,
          OptionalLong.of(committed.snapshotId()),
          files.size(),
          mixed.size(),
          written.size(),
          identities,
          rowsRead,
          rowsWritten,
          false);
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (RuntimeException e) {
      writer.deleteAll(written, e);
      throw e;
    }
  }

  /** The distinct series of a file, in series order. */
  private List<List<Object>> identities(PlannedFile file) {
    String key = SqlText.identifiers(table.contract().seriesKey());
    return connection.rows(
        "SELECT DISTINCT "
            + key
            + " FROM "
            + ScanSql.readParquet(table.contract(), List.of(file), table.files())
            + " ORDER BY "
            + key);
  }

  private List<DataFile> split(
      DataFileWriter writer, PlannedFile file, List<List<Object>> series, List<String> written) {
    TableContract contract = table.contract();
    String staged = "__tl_optimize_" + UUID.randomUUID().toString().replace("-", "");
    String columns = SqlText.identifiers(contract.columnNames());
    connection.execute(
        "CREATE TEMPORARY TABLE "
            + staged
            + " AS SELECT "
            + columns
            + " FROM "
            + ScanSql.readParquet(contract, List.of(file), table.files()));
    try {
      List<DataFile> pieces = new ArrayList<>();
      for (List<Object> identity : series) {
        List<String> filters = new ArrayList<>();
        for (int i = 0; i < identity.size(); i++) {
          String column = contract.seriesKey().get(i);
          filters.add(
              SqlText.identifier(column)
                  + " = "
                  + SqlText.literal(
                      identity.get(i).toString(), contract.column(column).type().sql()));
        }
        String location = writer.newLocation(file.partition(), PREFIX);
        written.add(location);
        writer.write(
            "SELECT "
                + columns
                + " FROM "
                + staged
                + " WHERE "
                + String.join(" AND ", filters)
                + " ORDER BY "
                + SqlText.identifiers(contract.keyColumns())
                + ", rowid",
            location);
        pieces.add(writer.dataFile(location, file.partition()));
      }
      return pieces;
    } finally {
      connection.execute("DROP TABLE IF EXISTS " + staged);
    }
  }

  private Snapshot commit(Snapshot start, Map<PlannedFile, List<DataFile>> replacements) {
    Table iceberg = table.iceberg();
    MaintenanceRunner.commitRewrite(
        () -> stage(iceberg, start, replacements),
        "the optimization",
        table.name(),
        "run optimize again");
    iceberg.refresh();
    Snapshot committed = iceberg.currentSnapshot();
    CoverageStore.attachTo(iceberg, table.contract(), connection, committed);
    return committed;
  }

  /** One rewrite per replaced file, each keeping its data sequence number; not yet committed. */
  private Transaction stage(
      Table iceberg, Snapshot start, Map<PlannedFile, List<DataFile>> replacements) {
    Map<String, DataFile> live = table.liveDataFiles();
    Transaction transaction = iceberg.newTransaction();
    for (Map.Entry<PlannedFile, List<DataFile>> entry : replacements.entrySet()) {
      RewriteFiles rewrite =
          CallingThread.manifestsOf(transaction.newRewrite())
              .validateFromSnapshot(start.snapshotId())
              .dataSequenceNumber(entry.getKey().sequenceNumber());
      rewrite.deleteFile(live.get(entry.getKey().location()));
      entry.getValue().forEach(rewrite::addFile);
      rewrite.set(SnapshotSummaries.OPERATION, "optimize");
      rewrite.commit();
    }
    return transaction;
  }
}
