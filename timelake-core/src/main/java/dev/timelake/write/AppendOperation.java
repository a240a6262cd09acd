package dev.timelake.write;

import static java.util.Objects.requireNonNull;

import dev.timelake.AppendResult;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.table.SnapshotSummaries;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;

/**
 * Runs one append: stage and validate the sources, write one Parquet file per touched partition,
 * commit them as one Iceberg snapshot. Invalid input fails before any file is written; a failed
 * commit removes the files, so nothing is half-written.
 */
public final class AppendOperation {
  private final LoadedTable table;
  private final EngineConnection connection;
  private final List<AppendSource> sources;
  private final Optional<String> batchId;
  private final Instant startedAt;
  private final String operation;
  private final Consumer<String> progress;
  private final java.util.Set<Integer> touched = new java.util.TreeSet<>();
  private final Map<String, String> extraSummary = new LinkedHashMap<>();

  public AppendOperation(
      LoadedTable table,
      EngineConnection connection,
      List<AppendSource> sources,
      Optional<String> batchId,
      Instant startedAt,
      String operation,
      Consumer<String> progress) {
    this.table = requireNonNull(table, "table is null");
    this.connection = requireNonNull(connection, "connection is null");
    this.sources = List.copyOf(sources);
    this.batchId = requireNonNull(batchId, "batchId is null");
    this.startedAt = requireNonNull(startedAt, "startedAt is null");
    this.operation = requireNonNull(operation, "operation is null");
    this.progress = requireNonNull(progress, "progress is null");
  }

  /** Adds entries to the snapshot summary of the commit (e.g. a rollup's source snapshot). */
  public AppendOperation summary(Map<String, String> entries) {
    extraSummary.putAll(entries);
    return this;
  }

  /** The table appended to. */
  public dev.timelake.TableName table() {
    return table.name();
  }

  /** The partitions the committed append wrote to. */
  public java.util.Set<Integer> touchedPartitions() {
    return java.util.Set.copyOf(touched);
  }

  /** Runs the append and reports what it committed. */
  public AppendResult run() {
    if (batchId.isPresent()) {
      // The handle may predate another writer's commit of the same batch.
      table.iceberg().refresh();
      if (AppendCommitter.committedBatch(table.iceberg(), batchId.get()).isPresent()) {
        return AppendResult.nothing(AppendResult.Outcome.SKIPPED_DUPLICATE_BATCH);
      }
    }
    long ingestMicros = ChronoUnit.MICROS.between(Instant.EPOCH, startedAt);
    try (AppendStager stager = new AppendStager(connection, table.contract(), ingestMicros)) {
      for (AppendSource source : sources) {
        progress.accept("reading " + source.describe());
        stager.stage(source);
      }
      if (stager.stagedRows() == 0) {
        return AppendResult.nothing(AppendResult.Outcome.EMPTY);
      }
      Optional<IndexIntervalGuard> guard =
          table.contract().hasIndexGranularity()
              ? Optional.of(new IndexIntervalGuard(table.iceberg(), table.contract(), connection))
              : Optional.empty();
      if (guard.isPresent()) {
        progress.accept("checking index intervals");
        guard.get().check(connection, stager.stageTable());
      }
      DataFileWriter fileWriter = new DataFileWriter(connection, table.iceberg(), table.contract());
      AppendWriter writer =
          new AppendWriter(connection, table.contract(), table.iceberg(), fileWriter);
      List<WrittenFile> files = writer.write(stager.stageTable(), progress);
      long rows = files.stream().mapToLong(WrittenFile::rows).sum();
      long dropped = stager.stagedRows() - rows;
      progress.accept("committing " + files.size() + " files");
      AppendCommitter committer =
          new AppendCommitter(table.iceberg(), table.contract(), fileWriter);
      Snapshot snapshot =
          guard.isPresent()
              ? committer.commit(files, summary(files, dropped), guard.get())
              : committer.commit(files, summary(files, dropped));
      files.forEach(file -> touched.add(file.partition()));
      dev.timelake.read.LatestIndex.followAppend(table, snapshot, connection);
      return AppendResult.committed(rows, dropped, files.size(), snapshot.snapshotId());
    }
  }

  private Map<String, String> summary(List<WrittenFile> files, long dropped) {
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put(SnapshotSummaries.OPERATION, operation);
    batchId.ifPresent(id -> summary.put(SnapshotSummaries.BATCH_ID, id));
    summary.put(SnapshotSummaries.COPIES_DROPPED, Long.toString(dropped));
    if (table.contract().isTimeSeries()) {
      long min = files.stream().mapToLong(WrittenFile::minMicros).min().orElseThrow();
      long max = files.stream().mapToLong(WrittenFile::maxMicros).max().orElseThrow();
      summary.put(SnapshotSummaries.TIME_MIN, Long.toString(min));
      summary.put(SnapshotSummaries.TIME_MAX, Long.toString(max));
      StringBuilder ranges = new StringBuilder();
      for (WrittenFile file : files) {
        ranges
            .append(ranges.length() == 0 ? "" : ";")
            .append(table.contract().partitioning().label(file.partition()))
            .append('=')
            .append(file.minMicros())
            .append("..")
            .append(file.maxMicros());
      }
      summary.put(SnapshotSummaries.TOUCHED_RANGES, ranges.toString());
    }
    summary.putAll(extraSummary);
    return summary;
  }
}
