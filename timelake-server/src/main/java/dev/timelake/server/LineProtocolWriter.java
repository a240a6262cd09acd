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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Appends line-protocol points to the lake: one table per measurement in the request's namespace,
 * created on first write as a time-series table (time column {@code time}, the tags as VARCHAR
 * columns and the series key, the fields as columns of their line-protocol type), fields and tags
 * it has not seen added as nullable columns. Every point is checked against its table before
 * anything is created or committed ({@link LineProtocolPlanner}: the table's name, each tag's and
 * field's name and type, each value's fit and each time's range in the engine and the table's
 * partitions), so a rejected request changes nothing; each table's points are one append (built by
 * {@link LineProtocolVectors}) whose batch id is a digest of the request, so a client that resends
 * a request after a lost answer appends nothing twice.
 */
final class LineProtocolWriter {
  private static final System.Logger LOG = System.getLogger(LineProtocolWriter.class.getName());

  /** The time column of tables this writer creates. */
  static final String TIME_COLUMN = "time";

  /** Unsigned 64-bit fields: Iceberg has no unsigned type, DECIMAL(20, 0) holds every value. */
  static final ColumnType UNSIGNED = ColumnType.decimal(20, 0);

  /** The partitions of a table this writer creates. */
  static final Chunk NEW_TABLE_CHUNK = Chunk.DAY;

  private final Lake lake;
  private final LineProtocolPlanner planner;
  private final BufferAllocator allocator;

  LineProtocolWriter(Lake lake, BufferAllocator allocator) {
    this.lake = lake;
    this.planner = new LineProtocolPlanner(lake);
    this.allocator = allocator;
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
   * Writes {@code points} to tables of {@code namespace}: every point checked and the tables made
   * or widened first (under each table's lock, so two requests cannot give a new field two types),
   * then each table's points committed, together with those of requests that arrived while the
   * table's previous commit ran (a group commit: one Iceberg snapshot for many requests). Returns
   * when all are committed. {@code requestKey} identifies the request for retries (its namespace,
   * precision and body), or is empty when a resent body would be new points (lines without a
   * timestamp take the time they arrive). Returns the tables written whose write policy is {@code
   * upsert}: their points were corrections (the newest write of a key wins, as always).
   *
   * @throws Rejected naming the first line that cannot be written, before anything is created,
   *     widened or appended
   * @throws Stopping when the writer is closing
   * @throws TimelakeException when a commit fails
   */
  List<TableName> write(
      dev.timelake.ClientAccess access,
      String namespace,
      List<LineProtocol.Point> points,
      Optional<String> requestKey) {
    Map<TableName, List<LineProtocol.Point>> byTable =
        LineProtocolPlanner.byTable(namespace, points);
    String digest =
        requestKey
            .map(key -> digest(namespace, key.getBytes(StandardCharsets.UTF_8)))
            .orElseGet(() -> java.util.UUID.randomUUID().toString());
    List<TableQueue> queues = byTable.keySet().stream().map(this::queue).toList();
    List<Pending> pending = new ArrayList<>();
    List<java.util.concurrent.locks.Lock> held = new ArrayList<>();
    try {
      for (TableQueue queue : queues) {
        queue.planning.lock();
        held.add(queue.planning);
      }
      // Every table's points are checked before the first table is created or widened.
      List<LineProtocolBatch> batches = new ArrayList<>();
      for (Map.Entry<TableName, List<LineProtocol.Point>> entry : byTable.entrySet()) {
        batches.add(planner.plan(entry.getKey(), entry.getValue()));
      }
      // A writer appends to existing tables; making or widening one is an admin's.
      for (LineProtocolBatch batch : batches) {
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
      for (int i = 0; i < batches.size(); i++) {
        LineProtocolBatch batch = batches.get(i);
        Table table = prepare(batch);
        pending.add(new Pending(queues.get(i), table, batch.points(), digest));
      }
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).unlock();
      }
    }
    List<TableName> upserted = new ArrayList<>();
    for (Pending request : pending) {
      request.queue.commit(request);
      if ("upsert"
          .equals(request.table.settings().get(dev.timelake.table.Settings.WRITE_POLICY.name()))) {
        upserted.add(request.queue.name);
      }
    }
    return upserted;
  }

  private final Map<TableName, TableQueue> queues = new java.util.concurrent.ConcurrentHashMap<>();

  /** Threads that commit queued requests, at most one per table at a time. */
  private final ExecutorService committers =
      Executors.newCachedThreadPool(ServerThreads.daemons("timelake-http-commit"));

  /** The one thread maintaining tables after their commits. */
  private final ExecutorService maintenance =
      Executors.newSingleThreadExecutor(ServerThreads.daemons("timelake-http-maintenance"));

  /** Stops committing and maintaining; runs in progress finish first (each is one commit). */
  void close() {
    for (ExecutorService executor : List.of(committers, maintenance)) {
      executor.shutdown();
      try {
        executor.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private TableQueue queue(TableName name) {
    return queues.computeIfAbsent(name, TableQueue::new);
  }

  /** One request's points for one table, waiting for their commit. */
  private static final class Pending {
    final TableQueue queue;
    final Table table;
    final List<LineProtocol.Point> points;
    final String digest;
    final CompletableFuture<Void> done = new CompletableFuture<>();

    Pending(TableQueue queue, Table table, List<LineProtocol.Point> points, String digest) {
      this.queue = queue;
      this.table = table;
      this.points = points;
      this.digest = digest;
    }
  }

  /**
   * A table's commits: requests queue while a commit runs, and one committer thread commits all
   * that are queued as one append, again until the queue is empty; the requests' threads only wait
   * for their own commit.
   */
  private final class TableQueue {
    final TableName name;
    final java.util.concurrent.locks.Lock planning = new java.util.concurrent.locks.ReentrantLock();
    private final java.util.ArrayDeque<Pending> queued = new java.util.ArrayDeque<>();
    private boolean committing;

    /** Digests of requests committed lately: a resent request is answered without a new append. */
    private final java.util.Set<String> recent =
        java.util.Collections.newSetFromMap(
            new java.util.LinkedHashMap<>() {
              @Override
              protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > 10_000;
              }
            });

    TableQueue(TableName name) {
      this.name = name;
    }

    void commit(Pending request) {
      boolean start;
      synchronized (this) {
        if (recent.contains(request.digest)) {
          return;
        }
        queued.add(request);
        start = !committing;
        committing = true;
      }
      if (start) {
        try {
          committers.execute(this::drain);
        } catch (java.util.concurrent.RejectedExecutionException e) {
          synchronized (this) {
            committing = false;
            queued.remove(request);
          }
          throw new Stopping("The server is stopping; nothing was written, send it again", e);
        }
      }
      try {
        request.done.join();
      } catch (java.util.concurrent.CompletionException e) {
        if (e.getCause() instanceof RuntimeException cause) {
          throw cause;
        }
        throw e;
      }
    }

    private void drain() {
      List<Pending> group = List.of();
      try {
        while (true) {
          synchronized (this) {
            if (queued.isEmpty()) {
              committing = false;
              return;
            }
            group = new ArrayList<>(queued);
            queued.clear();
          }
          commitGroup(group);
        }
      } catch (Throwable e) {
        // Whatever failed (even running out of memory), nobody waits forever.
        group.forEach(request -> request.done.completeExceptionally(e));
        List<Pending> left;
        synchronized (this) {
          left = new ArrayList<>(queued);
          queued.clear();
          committing = false;
        }
        left.forEach(request -> request.done.completeExceptionally(e));
      }
    }

    /** One append for the group; when it fails, each request alone, so one bad request fails. */
    private void commitGroup(List<Pending> group) {
      try {
        append(group);
        done(group);
      } catch (RuntimeException e) {
        if (group.size() == 1) {
          group.get(0).done.completeExceptionally(e);
          return;
        }
        for (Pending request : group) {
          try {
            append(List.of(request));
            done(List.of(request));
          } catch (RuntimeException alone) {
            request.done.completeExceptionally(alone);
          }
        }
      }
    }

    private void done(List<Pending> group) {
      synchronized (this) {
        group.forEach(request -> recent.add(request.digest));
      }
      group.forEach(request -> request.done.complete(null));
    }

    private void append(List<Pending> group) {
      Table table = lake.table(name); // the newest schema: a later request may have widened it
      List<LineProtocol.Point> points = new ArrayList<>();
      StringBuilder digests = new StringBuilder();
      for (Pending request : group) {
        points.addAll(request.points);
        digests.append(request.digest);
      }
      String batchId =
          group.size() == 1
              ? group.get(0).digest
              : digest(name.toString(), digests.toString().getBytes(StandardCharsets.UTF_8));
      try (VectorSchemaRoot root = LineProtocolVectors.vectors(table, points, allocator)) {
        // Maintenance runs after the answer, not before it: see maintainLater.
        table
            .newAppend()
            .batchId("line-protocol:" + batchId)
            .fromArrow(root)
            .withoutMaintenance()
            .commit();
      }
      maintainLater(table);
    }

    private boolean maintenanceQueued;

    /**
     * Inline maintenance of the table (what an append would run: compaction of the partitions it
     * grew, expiry) on the writer's one maintenance thread, at most one run waiting per table; so
     * requests are answered when committed and a stream of small commits still ends up compact.
     */
    private void maintainLater(Table table) {
      String enabled =
          table
              .settings()
              .getOrDefault(
                  dev.timelake.table.Settings.AUTO_MAINTAIN.name(),
                  dev.timelake.table.Settings.AUTO_MAINTAIN.defaultValue().orElse("true"));
      synchronized (this) {
        if (!Boolean.parseBoolean(enabled) || maintenanceQueued) {
          return;
        }
        maintenanceQueued = true;
      }
      try {
        maintenance.execute(
            () -> {
              synchronized (this) {
                maintenanceQueued = false;
              }
              try {
                lake.table(name).newMaintenance().inlineOnly().run();
              } catch (RuntimeException e) {
                // The data is committed and the next run tries again; nobody waits for an answer.
                LOG.log(System.Logger.Level.WARNING, "Maintenance of " + name + " failed", e);
              }
            });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        synchronized (this) {
          maintenanceQueued = false; // stopping: the next server maintains it
        }
      }
    }
  }

  /** Creates the batch's table or adds its new columns; the table as it now is. */
  private Table prepare(LineProtocolBatch batch) {
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

  private static String digest(String namespace, byte[] body) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(namespace.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      return HexFormat.of().formatHex(sha.digest(body), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
