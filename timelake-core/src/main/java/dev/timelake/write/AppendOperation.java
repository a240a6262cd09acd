package dev.timelake.write;

import static java.util.Objects.requireNonNull;

import dev.timelake.AppendResult;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

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
  private java.util.function.ObjLongConsumer<Integer> sourceRead = (sources, rows) -> {};
  private Optional<dev.timelake.HeldWrites> tier = Optional.empty();
  private String user = "";

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

  /** Tells {@code listener} the sources read and rows staged so far after each source. */
  public AppendOperation onSourceRead(java.util.function.ObjLongConsumer<Integer> listener) {
    this.sourceRead = requireNonNull(listener, "listener is null");
    return this;
  }

  /** Adds entries to the snapshot summary of the commit (e.g. a rollup's source snapshot). */
  public AppendOperation summary(Map<String, String> entries) {
    extraSummary.putAll(entries);
    return this;
  }

  /**
   * Hands the staged rows to {@code tier}, written by {@code user}, instead of committing them when
   * it takes them (see {@link PendingAppend#holdIn}) and the append has no batch id, whose
   * idempotence is a committed snapshot's.
   */
  public AppendOperation holdIn(dev.timelake.HeldWrites tier, String user) {
    this.tier = Optional.of(requireNonNull(tier, "tier is null"));
    this.user = requireNonNull(user, "user is null");
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
    try (PendingAppend pending = new PendingAppend(table, connection)) {
      int read = 0;
      for (AppendSource source : sources) {
        progress.accept("reading " + source.describe());
        pending.add(source, startedAt);
        sourceRead.accept(++read, pending.rows());
      }
      long rows = pending.rows();
      java.util.OptionalLong kept =
          tier.isPresent() && batchId.isEmpty()
              ? pending.holdIn(tier.get(), user)
              : java.util.OptionalLong.empty();
      if (kept.isPresent()) {
        return AppendResult.held(table.name(), kept.getAsLong(), rows - kept.getAsLong());
      }
      AppendResult result = pending.commit(operation, batchId, extraSummary, progress);
      touched.addAll(pending.touchedPartitions());
      return result;
    }
  }

  /**
   * An append of rows of Java values that need no staging (see {@link HeldRows}) handed to {@code
   * tier}, written by {@code user}, as they are: no statement to the engine, not even a connection.
   * Empty when the append has other sources or a value needs the engine's verdict: it then runs as
   * an {@link AppendOperation} told to {@link #holdIn} the tier.
   */
  public static Optional<AppendResult> holdAsTheyAre(
      LoadedTable table,
      List<AppendSource> sources,
      dev.timelake.HeldWrites tier,
      String user,
      java.util.function.ObjLongConsumer<Integer> sourceRead) {
    if (sources.size() != 1 || !(sources.get(0) instanceof AppendSource.Rows rows)) {
      return Optional.empty();
    }
    dev.timelake.catalog.ContractCheck.requireIntact(table, "append to");
    Optional<StagedBatch> batch = HeldRows.of(table.contract(), rows, tier.allocator());
    if (batch.isEmpty()) {
      return Optional.empty();
    }
    int count = batch.get().batch().getRowCount();
    sourceRead.accept(1, count);
    tier.hold(table.name(), batch.get().batch(), table.contract().ingestTimeColumn(), user);
    long kept = batch.get().rowsLessCopies();
    return Optional.of(AppendResult.held(table.name(), kept, count - kept));
  }
}
