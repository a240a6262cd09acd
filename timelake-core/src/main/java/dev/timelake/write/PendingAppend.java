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
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;

/**
 * An append whose rows are staged and checked but not written: sources are added one at a time (an
 * append's inputs, or the INSERTs of a client's transaction), then committed as one Iceberg
 * snapshot or discarded by {@link #close}. Nothing reaches the table's folder before {@link
 * #commit}; a failed commit removes what it wrote. Within the append, a later source's copy of a
 * key wins over an earlier one's. Not thread-safe.
 */
public final class PendingAppend implements AutoCloseable {
  private final LoadedTable table;
  private final EngineConnection connection;
  private final AppendStager stager;
  private final Set<Integer> touched = new TreeSet<>();
  private long lastIngestMicros = Long.MIN_VALUE;
  private boolean committed;
  private dev.timelake.read.PlannedFile held;
  private long heldForRows;

  /** Starts an empty append to {@code table}, staged on {@code connection}. */
  public PendingAppend(LoadedTable table, EngineConnection connection) {
    this.table = requireNonNull(table, "table is null");
    dev.timelake.catalog.ContractCheck.requireIntact(table, "append to");
    this.connection = requireNonNull(connection, "connection is null");
    this.stager = new AppendStager(connection, table.contract());
  }

  /** The table appended to. */
  public LoadedTable table() {
    return table;
  }

  /**
   * Stages a source whose rows were inserted at {@code ingestTime} (where they carry no insertion
   * time of their own) and returns how many rows it added. An invalid source throws naming its
   * column and row and adds nothing. Insertion times never go back within one append, so a later
   * source wins over an earlier one even when the clock does.
   */
  public long add(AppendSource source, Instant ingestTime) {
    requireNonNull(source, "source is null");
    requireOpen();
    long micros = Math.max(ChronoUnit.MICROS.between(Instant.EPOCH, ingestTime), lastIngestMicros);
    long before = stager.stagedRows();
    stager.stage(source, micros);
    lastIngestMicros = micros;
    return stager.stagedRows() - before;
  }

  /** Rows staged so far. */
  public long rows() {
    return stager.stagedRows();
  }

  /**
   * Checks the staged rows against the table's index granularity now (two rows in one interval of a
   * series, or a row in an interval committed data holds), as the commit will again; does nothing
   * for a table without one.
   *
   * @throws dev.timelake.ConflictException naming the series and interval
   */
  public void checkIndexIntervals() {
    if (table.contract().hasIndexGranularity() && stager.stagedRows() > 0) {
      new IndexIntervalGuard(table.iceberg(), table.contract(), connection)
          .check(connection, stager.stageTable());
    }
  }

  /**
   * Writes one Parquet file per touched partition and commits them as one Iceberg snapshot whose
   * summary names {@code operation}, {@code batchId} and {@code extraSummary}; returns what was
   * committed ({@link AppendResult.Outcome#EMPTY} when nothing was staged). Once only.
   */
  public AppendResult commit(
      String operation,
      Optional<String> batchId,
      Map<String, String> extraSummary,
      Consumer<String> progress) {
    requireOpen();
    committed = true;
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
    AppendCommitter committer = new AppendCommitter(table.iceberg(), table.contract(), fileWriter);
    Map<String, String> summary = summary(operation, batchId, files, dropped, extraSummary);
    Snapshot snapshot =
        guard.isPresent()
            ? committer.commit(files, summary, guard.get())
            : committer.commit(files, summary);
    files.forEach(file -> touched.add(file.partition()));
    dev.timelake.read.LatestIndex.followAppend(table, snapshot, connection);
    long late =
        table.contract().deduplicates()
            ? files.stream().filter(WrittenFile::late).mapToLong(WrittenFile::rows).sum()
            : 0;
    return AppendResult.committed(
        table.name(), rows, dropped, late, files.size(), snapshot.snapshotId());
  }

  /**
   * Hands the staged rows to {@code tier}, written by {@code user}, instead of committing them,
   * when it takes them (see {@link HeldColumns}): read back as one Arrow batch in input order, the
   * insertion-time column left for the tier to set. Returns, once they are durable there, how many
   * rows a commit would have written (those less copies of a key); empty when the tier cannot take
   * them (too many rows, a column of another type, an infinite instant or date, insertion times of
   * the input's own), the append then still open to commit.
   */
  public OptionalLong holdIn(dev.timelake.HeldWrites tier, String user) {
    requireOpen();
    Optional<List<dev.timelake.Column>> columns = HeldColumns.of(table.contract());
    if (columns.isEmpty()
        || rows() == 0
        || rows() > HeldColumns.MAX_ROWS
        || stager.insertionTimesGiven()) { // the tier would give them its own
      return OptionalLong.empty();
    }
    Optional<StagedBatch> staged =
        StagedBatch.read(
            connection, stager.stageTable(), table.contract(), columns.get(), tier.allocator());
    if (staged.isEmpty()) {
      return OptionalLong.empty();
    }
    committed = true;
    tier.hold(table.name(), staged.get().batch(), table.contract().ingestTimeColumn(), user);
    return OptionalLong.of(staged.get().rowsLessCopies());
  }

  /** The partitions the committed append wrote to. */
  public Set<Integer> touchedPartitions() {
    return Set.copyOf(touched);
  }

  private void requireOpen() {
    if (committed) {
      throw new IllegalStateException("Cannot use the append to " + table.name() + " again");
    }
  }

  private Map<String, String> summary(
      String operation,
      Optional<String> batchId,
      List<WrittenFile> files,
      long dropped,
      Map<String, String> extraSummary) {
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

  /**
   * The staged rows (copies within the append removed, the later write of a key kept) as a Parquet
   * file in {@code folder} that a scan of the table reads after its committed files: a reader of
   * the transaction that holds the append sees its own writes. Written again only after more rows
   * were staged; empty when none are. The file goes with {@link #close}.
   */
  public Optional<dev.timelake.read.PlannedFile> heldRows(java.nio.file.Path folder) {
    requireOpen();
    if (stager.stagedRows() == 0) {
      return Optional.empty();
    }
    if (held != null && heldForRows == stager.stagedRows()) {
      return Optional.of(held);
    }
    deleteHeld();
    java.nio.file.Path path = folder.resolve("held-" + java.util.UUID.randomUUID() + ".parquet");
    DataFileWriter fileWriter = new DataFileWriter(connection, table.iceberg(), table.contract());
    String rows =
        new AppendWriter(connection, table.contract(), table.iceberg(), fileWriter)
            .deduplicated(stager.stageTable());
    fileWriter.writeLocal(rows, path);
    held = heldFile(path);
    heldForRows = stager.stagedRows();
    return Optional.of(held);
  }

  /** The held file's description: newest of all (it is not committed), its bounds and rows. */
  private dev.timelake.read.PlannedFile heldFile(java.nio.file.Path path) {
    String file = "read_parquet(" + dev.timelake.engine.SqlText.literal(path.toString()) + ")";
    String time =
        table
            .contract()
            .timeColumn()
            .map(c -> timeMicros(dev.timelake.engine.SqlText.identifier(c)))
            .orElse(null);
    String ingest =
        table
            .contract()
            .ingestTimeColumn()
            .map(c -> "epoch_us(max(" + dev.timelake.engine.SqlText.identifier(c) + "))")
            .orElse("NULL");
    List<Object> bounds =
        connection
            .rows(
                "SELECT count(*), "
                    + (time == null ? "NULL, NULL" : "min(" + time + "), max(" + time + ")")
                    + ", "
                    + ingest
                    + " FROM "
                    + file)
            .get(0);
    long size;
    try {
      size = java.nio.file.Files.size(path);
    } catch (java.io.IOException e) {
      size = 0;
    }
    return new dev.timelake.read.PlannedFile(
        path.toString(),
        0, // read with the partition's files of every partition it spans; counted in none
        dev.timelake.read.PlannedFile.HELD_SEQUENCE,
        ((Number) bounds.get(0)).longValue(),
        size,
        bounds.get(1) == null ? Long.MIN_VALUE : ((Number) bounds.get(1)).longValue(),
        bounds.get(2) == null ? Long.MAX_VALUE : ((Number) bounds.get(2)).longValue(),
        null,
        null,
        bounds.get(3) == null ? Long.MIN_VALUE : ((Number) bounds.get(3)).longValue(),
        false,
        Long.MIN_VALUE);
  }

  /** The time column's value as a number on the partitioning's scale (µs, or the clock's). */
  private String timeMicros(String column) {
    return table.contract().hasLogicalClock() ? column : "epoch_us(" + column + ")";
  }

  private void deleteHeld() {
    if (held != null) {
      try {
        java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(held.location()));
      } catch (java.io.IOException e) {
        // A temporary file of this session; the temporary folder is cleaned with the lake.
      }
      held = null;
    }
  }

  /** Drops the staged rows; what was committed stays. */
  @Override
  public void close() {
    deleteHeld();
    stager.close();
  }
}
