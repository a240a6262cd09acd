package dev.timelake.server;

import dev.timelake.AlreadyExistsException;
import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.table.Settings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.Lock;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Appends line-protocol points to the lake: one table per measurement in the request's namespace,
 * created on first write as a time-series table (time column {@code time}, the tags as VARCHAR
 * columns and the series key, the fields as columns of their line-protocol type), fields and tags
 * it has not seen added as nullable columns. Every point is checked against its table before
 * anything is created or committed ({@link LineProtocolPlanner}: the table's name, each tag's and
 * field's name and type, each value's fit and each time's range in the engine and the table's
 * partitions), so a rejected request changes nothing. Each table's points are then committed by the
 * table's {@link TableCommitQueue} (a group commit, with Arrow vectors from {@link
 * LineProtocolVectors}) under a digest of the request, so a client that resends a request after a
 * lost answer appends nothing twice; {@link BackgroundMaintenance} maintains the tables afterwards.
 */
final class LineProtocolWriter {
  /** The time column of tables this writer creates. */
  static final String TIME_COLUMN = "time";

  /** Unsigned 64-bit fields: Iceberg has no unsigned type, DECIMAL(20, 0) holds every value. */
  static final ColumnType UNSIGNED = ColumnType.decimal(20, 0);

  /** The partitions of a table this writer creates. */
  static final Chunk NEW_TABLE_CHUNK = Chunk.DAY;

  private final Lake lake;
  private final LineProtocolPlanner planner;
  private final BufferAllocator allocator;

  /** Each table's group commit, made on the table's first write. */
  private final Map<TableName, TableCommitQueue> queues = new ConcurrentHashMap<>();

  /** Threads that commit queued requests, at most one per table at a time. */
  private final ExecutorService committers =
      Executors.newCachedThreadPool(ServerThreads.daemons("timelake-http-commit"));

  /** Maintains tables after their commits, on a thread of its own. */
  private final BackgroundMaintenance maintenance;

  /** Where writes are acknowledged before their commit, when the server has one. */
  private final Optional<HotTier> tier;

  /**
   * A writer that commits each request (with those queued beside it) before answering, or, with
   * {@code hotTier}, answers once the points are in the tier's log and commits them later.
   *
   * @throws java.io.IOException when the hot tier's log cannot be read or begun
   */
  LineProtocolWriter(Lake lake, BufferAllocator allocator, Optional<HotTierSettings> hotTier)
      throws java.io.IOException {
    this.lake = lake;
    this.planner = new LineProtocolPlanner(lake);
    this.allocator = allocator;
    this.maintenance = new BackgroundMaintenance(lake, "timelake-http-maintenance");
    this.tier =
        hotTier.isEmpty()
            ? Optional.empty()
            : Optional.of(HotTier.open(lake, hotTier.get(), allocator, maintenance));
  }

  /** The hot tier, when the writer has one. */
  Optional<HotTier> hotTier() {
    return tier;
  }

  /** A request the writer refused: the reason names the line, field and types (HTTP 400). */
  static final class Rejected extends RuntimeException {
    Rejected(String message) {
      super(message);
    }
  }

  /** The writer is stopping: nothing of the request was written, it may be sent again (503). */
  static final class Stopping extends RuntimeException {
    Stopping(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Writes {@code points}, those of {@code request}, to tables of its namespace: every point
   * checked and the tables made or widened first (under each table's lock, so two requests cannot
   * give a new field two types), then each table's points committed, together with those of
   * requests that arrived while the table's previous commit ran (a group commit: one Iceberg
   * snapshot for many requests). Returns when all are committed. {@code requestKey} identifies the
   * request for retries (its namespace, precision and body), or is empty when a resent body would
   * be new points (lines without a timestamp take the time they arrive). With a hot tier, a table's
   * points are acknowledged once in its log, unless {@code commitNow} or the table has an ordered
   * index (whose conflicts are found by the commit). Returns the tables written whose write policy
   * is {@code upsert}: their points were corrections (the newest write of a key wins, as always).
   *
   * @throws Rejected naming the first line that cannot be written, before anything is created,
   *     widened or appended
   * @throws Stopping when the writer is closing
   * @throws TimelakeException when a commit fails
   */
  List<TableName> write(
      dev.timelake.ClientAccess access,
      LineProtocolRequest request,
      List<LineProtocol.Point> points,
      Optional<String> requestKey,
      boolean commitNow) {
    String digest = requestDigest(request.namespace(), requestKey);
    List<TableName> upserted = new ArrayList<>();
    List<Prepared> heldTables = new ArrayList<>();
    List<Prepared> committed = new ArrayList<>();
    for (Prepared table :
        prepare(access, LineProtocolPlanner.byTable(request.namespace(), points))) {
      if (tier.isPresent()
          && !commitNow
          && !hasOrderedIndex(table.table())
          && !"false".equals(table.table().settings().get(Settings.HOT_TIER.name()))) {
        heldTables.add(table);
      } else {
        committed.add(table);
      }
      if (upserts(table.table())) {
        upserted.add(table.name());
      }
    }
    if (!heldTables.isEmpty()) {
      tier.get().write(request, batches(heldTables), digest, access.user());
    }
    for (Prepared table : committed) {
      table.queue().commit(table.points(), digest, access.user());
    }
    return upserted;
  }

  /**
   * Stops committing and maintaining; runs in progress finish first (each is one commit), and the
   * hot tier commits what it holds.
   */
  void close() {
    tier.ifPresent(HotTier::close);
    ServerThreads.finish(committers);
    // After the committers: their last commits may still queue maintenance.
    maintenance.close();
  }

  /** A table made ready for a request's points: their queue, the table as it now is, the points. */
  private record Prepared(
      TableName name, TableCommitQueue queue, Table table, List<LineProtocol.Point> points) {}

  /**
   * Checks every table's points, then creates or widens the tables, all under the tables' planning
   * locks; nothing is created or widened unless every point can be written.
   */
  private List<Prepared> prepare(
      dev.timelake.ClientAccess access, Map<TableName, List<LineProtocol.Point>> byTable) {
    List<TableCommitQueue> tableQueues = byTable.keySet().stream().map(this::queue).toList();
    List<Lock> held = new ArrayList<>();
    try {
      for (TableCommitQueue queue : tableQueues) {
        queue.planning.lock();
        held.add(queue.planning);
      }
      List<LineProtocolBatch> batches = new ArrayList<>();
      for (Map.Entry<TableName, List<LineProtocol.Point>> entry : byTable.entrySet()) {
        batches.add(planner.plan(entry.getKey(), entry.getValue()));
      }
      batches.forEach(batch -> requireAdminToReshape(access, batch));
      List<Prepared> prepared = new ArrayList<>();
      for (int i = 0; i < batches.size(); i++) {
        LineProtocolBatch batch = batches.get(i);
        prepared.add(
            new Prepared(batch.name(), tableQueues.get(i), createOrWiden(batch), batch.points()));
      }
      return prepared;
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).unlock();
      }
    }
  }

  /** A writer appends to existing tables; making or widening one is an admin's. */
  private static void requireAdminToReshape(
      dev.timelake.ClientAccess access, LineProtocolBatch batch) {
    if (batch.create()) {
      access.require(
          dev.timelake.Role.ADMIN,
          batch.name().namespace(),
          "create table " + batch.name() + " for measurement " + batch.name().name());
    } else if (!batch.added().isEmpty()) {
      access.require(
          dev.timelake.Role.ADMIN,
          batch.name().namespace(),
          "add columns " + String.join(", ", batch.added().keySet()) + " to " + batch.name());
    }
  }

  private TableCommitQueue queue(TableName name) {
    return queues.computeIfAbsent(
        name, table -> new TableCommitQueue(table, lake, allocator, committers, maintenance));
  }

  /** The request's identity for resends, or a new one when a resent body would be new points. */
  private static String requestDigest(String namespace, Optional<String> requestKey) {
    return requestKey
        .map(key -> TableCommitQueue.digest(namespace, key.getBytes(StandardCharsets.UTF_8)))
        .orElseGet(() -> UUID.randomUUID().toString());
  }

  /**
   * Each held table's points as an Arrow batch, built on the request's thread (so requests build
   * theirs at once), with the insertion-time column the tier fills when it answers.
   */
  private Map<TableName, HotTier.Batch> batches(List<Prepared> tables) {
    Map<TableName, HotTier.Batch> batches = new java.util.TreeMap<>();
    try {
      for (Prepared table : tables) {
        batches.put(
            table.name(),
            new HotTier.Batch(
                LineProtocolVectors.vectors(
                    table.table(), table.points(), new long[table.points().size()], allocator),
                table.table().ingestTimeColumn()));
      }
      return batches;
    } catch (RuntimeException | OutOfMemoryError e) {
      batches.values().forEach(batch -> batch.rows().close());
      throw e;
    }
  }

  private static boolean hasOrderedIndex(Table table) {
    String granularity = table.settings().get(Settings.INDEX_GRANULARITY.name());
    return granularity != null && !granularity.isBlank();
  }

  private static boolean upserts(Table table) {
    return "upsert".equals(table.settings().get(Settings.WRITE_POLICY.name()));
  }

  /** Creates the batch's table or adds its new columns; the table as it now is. */
  private Table createOrWiden(LineProtocolBatch batch) {
    TableName name = batch.name();
    if (batch.create()) {
      TableDefinition.Builder definition = TableDefinition.builder(name);
      definition.column(Column.required(TIME_COLUMN, ColumnType.TIMESTAMPTZ));
      batch.added().forEach(definition::column);
      definition.timeColumn(TIME_COLUMN);
      definition.chunk(NEW_TABLE_CHUNK);
      if (!batch.tags().isEmpty()) {
        definition.seriesKey(batch.tags().toArray(String[]::new));
      }
      try {
        return lake.createTable(definition.build());
      } catch (AlreadyExistsException e) {
        // Another request created it first; add what this one needs to that table.
        return addMissing(lake.table(name), batch.added());
      }
    }
    return addMissing(lake.table(name), batch.added());
  }

  private static Table addMissing(Table table, Map<String, ColumnType> added) {
    Table current = table;
    for (Map.Entry<String, ColumnType> column : added.entrySet()) {
      boolean present = current.columns().stream().anyMatch(c -> c.name().equals(column.getKey()));
      if (!present) {
        current = current.addColumn(column.getKey(), column.getValue());
      }
    }
    return current;
  }
}
