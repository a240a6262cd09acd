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
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Appends line-protocol points to the lake: one table per measurement in the request's namespace,
 * created on first write as a time-series table (time column {@code time}, the tags as VARCHAR
 * columns and the series key, the fields as columns of their line-protocol type), fields and tags
 * it has not seen added as nullable columns. Every point is checked against its table before
 * anything is created or committed (the table's name, each tag's and field's name and type, each
 * value's fit and each time's range in the engine and the table's partitions), so a rejected
 * request changes nothing; each table's points are one append whose batch id is a digest of the
 * request, so a client that resends a request after a lost answer appends nothing twice.
 */
final class LineProtocolWriter {
  private static final System.Logger LOG = System.getLogger(LineProtocolWriter.class.getName());

  /** The time column of tables this writer creates. */
  static final String TIME_COLUMN = "time";

  /** Unsigned 64-bit fields: Iceberg has no unsigned type, DECIMAL(20, 0) holds every value. */
  static final ColumnType UNSIGNED = ColumnType.decimal(20, 0);

  /** The partitions of a table this writer creates. */
  static final Chunk NEW_TABLE_CHUNK = Chunk.DAY;

  private static final long MAX_EXACT_DOUBLE = 1L << 53;

  private final Lake lake;
  private final BufferAllocator allocator;

  LineProtocolWriter(Lake lake, BufferAllocator allocator) {
    this.lake = lake;
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

  /** The most tables one request may write: each is planned under its own lock. */
  static final int MAX_MEASUREMENTS = 1_000;

  /**
   * The longest namespace or measurement name: each is a folder name in the warehouse (at most 255
   * bytes on common file systems) and a catalog key; this leaves room to spare.
   */
  static final int MAX_NAME_LENGTH = 128;

  /**
   * Writes {@code points} to tables of {@code namespace}: every point checked and the tables made
   * or widened first (under each table's lock, so two requests cannot give a new field two types),
   * then each table's points committed, together with those of requests that arrived while the
   * table's previous commit ran (a group commit: one Iceberg snapshot for many requests). Returns
   * when all are committed. {@code requestKey} identifies the request for retries (its namespace,
   * precision and body), or is empty when a resent body would be new points (lines without a
   * timestamp take the time they arrive).
   *
   * @throws Rejected naming the first line that cannot be written, before anything is created,
   *     widened or appended
   * @throws Stopping when the writer is closing
   * @throws TimelakeException when a commit fails
   */
  void write(
      dev.timelake.ClientAccess access,
      String namespace,
      List<LineProtocol.Point> points,
      Optional<String> requestKey) {
    Map<TableName, List<LineProtocol.Point>> byTable = byTable(namespace, points);
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
      List<Batch> batches = new ArrayList<>();
      for (Map.Entry<TableName, List<LineProtocol.Point>> entry : byTable.entrySet()) {
        batches.add(plan(entry.getKey(), entry.getValue()));
      }
      // A writer appends to existing tables; making or widening one is an admin's.
      for (Batch batch : batches) {
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
        Batch batch = batches.get(i);
        Table table = batch.prepare(lake);
        pending.add(new Pending(queues.get(i), table, batch.points, digest));
      }
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).unlock();
      }
    }
    for (Pending request : pending) {
      request.queue.commit(request);
    }
  }

  /**
   * The points by table, in name order (the planning locks of several tables are always taken in
   * that order). Measurements that differ only in case are one table, as in SQL.
   */
  private static Map<TableName, List<LineProtocol.Point>> byTable(
      String namespace, List<LineProtocol.Point> points) {
    Map<String, TableName> names = new java.util.HashMap<>();
    Map<TableName, List<LineProtocol.Point>> byTable = new java.util.TreeMap<>();
    for (LineProtocol.Point point : points) {
      TableName name = names.get(point.measurement());
      if (name == null) {
        name = tableName(namespace, point);
        names.put(point.measurement(), name);
      }
      byTable.computeIfAbsent(name, table -> new ArrayList<>()).add(point);
      if (byTable.size() > MAX_MEASUREMENTS) {
        throw new Rejected(
            lineOf(point)
                + "the request writes more than "
                + MAX_MEASUREMENTS
                + " measurements; at most "
                + MAX_MEASUREMENTS
                + " may be written at once");
      }
    }
    return byTable;
  }

  private final Map<TableName, TableQueue> queues = new java.util.concurrent.ConcurrentHashMap<>();

  /** Threads that commit queued requests, at most one per table at a time. */
  private final ExecutorService committers =
      Executors.newCachedThreadPool(daemons("timelake-http-commit"));

  /** The one thread maintaining tables after their commits. */
  private final ExecutorService maintenance =
      Executors.newSingleThreadExecutor(daemons("timelake-http-maintenance"));

  /** Threads named {@code name} that do not keep the JVM alive. */
  static java.util.concurrent.ThreadFactory daemons(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

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
      try (VectorSchemaRoot root = vectors(table, points, allocator)) {
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

  /**
   * The table {@code point}'s measurement names in {@code namespace}, which a line-protocol write
   * may create: a valid name, not reserved for DuckDB, PostgreSQL clients or Timelake, and short
   * enough to be a folder name.
   */
  private static TableName tableName(String namespace, LineProtocol.Point point) {
    TableName name;
    try {
      name = new TableName(namespace, point.measurement()).requireCreatable();
    } catch (TimelakeException e) {
      throw new Rejected(lineOf(point) + e.getMessage());
    }
    if (name.namespace().length() > MAX_NAME_LENGTH || name.name().length() > MAX_NAME_LENGTH) {
      boolean namespaceTooLong = name.namespace().length() > MAX_NAME_LENGTH;
      String part = namespaceTooLong ? name.namespace() : name.name();
      throw new Rejected(
          lineOf(point)
              + "Cannot create a table named after "
              + (namespaceTooLong ? "namespace '" : "measurement '")
              + (part.length() > 40 ? part.substring(0, 40) + "…" : part)
              + "': it is "
              + part.length()
              + " characters long, at most "
              + MAX_NAME_LENGTH
              + " are allowed");
    }
    return name;
  }

  /**
   * The columns the points need, checked against the existing table (or chosen for a new one), and
   * every point's values checked against them.
   */
  private Batch plan(TableName name, List<LineProtocol.Point> points) {
    Optional<Table> existing = lake.findTable(name);
    existing.ifPresent(table -> requireTimeColumn(table, points.get(0)));
    requireStorableTimes(name, existing.map(Table::chunk).orElse(NEW_TABLE_CHUNK), points);
    Map<String, ColumnType> known = new LinkedHashMap<>();
    existing.ifPresent(table -> table.columns().forEach(c -> known.put(c.name(), c.type())));
    // The insertion-time column Timelake fills itself: a new table gets one, an existing one may
    // have none (then 'time' is the only name Timelake keeps for itself).
    String ingest =
        existing.isPresent()
            ? existing.get().ingestTimeColumn().orElse(TIME_COLUMN)
            : dev.timelake.table.TableCreator.INGEST_TIME_COLUMN;
    Map<String, ColumnType> added = new LinkedHashMap<>();
    Map<String, Integer> tagLines = new java.util.HashMap<>();
    // Column names are case-insensitive in SQL: 'Temp' and 'temp' cannot be two columns.
    Map<String, String> spellings = new java.util.HashMap<>();
    known
        .keySet()
        .forEach(column -> spellings.put(column.toLowerCase(java.util.Locale.ROOT), column));
    for (LineProtocol.Point point : points) {
      for (String tag : point.tags().keySet()) {
        reserved(point, tag, ingest);
        sameSpelling(name, point, tag, spellings);
        tagLines.merge(tag, 1, Integer::sum);
        ColumnType type = known.containsKey(tag) ? known.get(tag) : added.get(tag);
        if (type == null) {
          added.put(tag, ColumnType.VARCHAR);
        } else if (type.kind() != ColumnType.Kind.VARCHAR) {
          throw new Rejected(
              lineOf(point)
                  + "tag '"
                  + tag
                  + "' is text, but column "
                  + name
                  + "."
                  + tag
                  + " is "
                  + type.sql()
                  + "; send it as a field, or use another tag name");
        }
      }
      for (LineProtocol.Field field : point.fields()) {
        reserved(point, field.name(), ingest);
        sameSpelling(name, point, field.name(), spellings);
        if (point.tags().containsKey(field.name())) {
          throw new Rejected(
              lineOf(point) + "'" + field.name() + "' is both a tag and a field of this line");
        }
        ColumnType type =
            known.containsKey(field.name()) ? known.get(field.name()) : added.get(field.name());
        if (type == null) {
          added.put(field.name(), columnType(field.type()));
        } else {
          check(name, point, field, type);
        }
      }
    }
    if (existing.isPresent()) {
      requireEveryLineFills(name, existing.get(), points);
    }
    // A new table's series key: the tags every line has (a tag some lines lack is a column).
    List<String> seriesKey =
        new TreeSet<>(tagLines.keySet())
            .stream().filter(tag -> tagLines.get(tag) == points.size()).toList();
    Map<String, ColumnType> columns = new LinkedHashMap<>();
    columns.put(TIME_COLUMN, ColumnType.TIMESTAMPTZ);
    columns.putAll(known);
    columns.putAll(added);
    columns.remove(dev.timelake.table.TableCreator.INGEST_TIME_COLUMN);
    return new Batch(name, existing.isEmpty(), seriesKey, columns, added, points);
  }

  /**
   * Fails when {@code column} is already a column, or another name of this request, in another
   * case.
   */
  private static void sameSpelling(
      TableName table, LineProtocol.Point point, String column, Map<String, String> spellings) {
    String earlier = spellings.putIfAbsent(column.toLowerCase(java.util.Locale.ROOT), column);
    if (earlier != null && !earlier.equals(column)) {
      throw new Rejected(
          lineOf(point)
              + "'"
              + column
              + "' and '"
              + earlier
              + "' of "
              + table
              + " differ only in case, and column names are not case-sensitive; use one spelling");
    }
  }

  /** Fails naming the first line without a series-key tag or a value of a required column. */
  private static void requireEveryLineFills(
      TableName name, Table table, List<LineProtocol.Point> points) {
    String ingest = table.ingestTimeColumn().orElse("");
    List<String> required =
        table.columns().stream()
            .filter(column -> !column.isNullable())
            .map(Column::name)
            .filter(column -> !column.equals(TIME_COLUMN) && !column.equals(ingest))
            .toList();
    if (required.isEmpty()) {
      return;
    }
    for (LineProtocol.Point point : points) {
      for (String column : required) {
        if (!point.tags().containsKey(column)
            && point.fields().stream().noneMatch(field -> field.name().equals(column))) {
          throw new Rejected(
              lineOf(point)
                  + "no value for '"
                  + column
                  + "', which every row of "
                  + name
                  + " needs"
                  + (table.seriesKey().contains(column) ? " (a tag of its series key)" : ""));
        }
      }
    }
  }

  /** Fails for a tag or field named (in any case) like the time or insertion-time column. */
  private static void reserved(LineProtocol.Point point, String name, String ingest) {
    if (name.equalsIgnoreCase(TIME_COLUMN) || name.equalsIgnoreCase(ingest)) {
      throw new Rejected(
          lineOf(point)
              + "'"
              + name
              + "' is a column Timelake sets itself (the point's timestamp and insertion time);"
              + " rename the tag or field");
    }
  }

  /** Fails unless {@code table}'s time column is {@code time}, a TIMESTAMPTZ. */
  private static void requireTimeColumn(Table table, LineProtocol.Point first) {
    Optional<ColumnType> type =
        table.columns().stream()
            .filter(column -> column.name().equals(TIME_COLUMN))
            .map(Column::type)
            .findFirst();
    if (!table.timeColumn().orElse("").equals(TIME_COLUMN)) {
      throw new Rejected(
          lineOf(first)
              + "Table "
              + table.name()
              + " is not a line-protocol table: its time column is "
              + table.timeColumn().map(c -> "'" + c + "'").orElse("missing")
              + ", line protocol writes 'time'");
    }
    if (type.isEmpty() || type.get().kind() != ColumnType.Kind.TIMESTAMPTZ) {
      throw new Rejected(
          lineOf(first)
              + "Table "
              + table.name()
              + " is not a line-protocol table: its time column 'time' is "
              + type.map(ColumnType::sql).orElse("missing")
              + ", line protocol writes TIMESTAMPTZ");
    }
  }

  /**
   * Fails naming the first point whose time {@code table} cannot store: outside DuckDB's
   * TIMESTAMPTZ, or in a partition whose number (hours, days or months since 1970) does not fit in
   * 32 bits, as Iceberg's partition transforms need.
   */
  private static void requireStorableTimes(
      TableName table, Chunk chunk, List<LineProtocol.Point> points) {
    long earliest = Long.MAX_VALUE;
    long latest = Long.MIN_VALUE;
    for (LineProtocol.Point point : points) {
      earliest = Math.min(earliest, point.micros());
      latest = Math.max(latest, point.micros());
    }
    // Partition numbers grow with time: when the extremes fit, every point between them does.
    if (isStorable(chunk, earliest) && isStorable(chunk, latest)) {
      return;
    }
    for (LineProtocol.Point point : points) {
      if (!isStorable(chunk, point.micros())) {
        String time = Instant.EPOCH.plus(point.micros(), ChronoUnit.MICROS).toString();
        throw new Rejected(
            lineOf(point)
                + (point.micros() < LineProtocol.EARLIEST_MICROS
                        || point.micros() > LineProtocol.LATEST_MICROS
                    ? "time " + time + " is not within " + LineProtocol.STORABLE_TIMES
                    : "time "
                        + time
                        + " is beyond the "
                        + chunk.label()
                        + " partitions of "
                        + table
                        + " (their number since 1970 must fit in 32 bits)"));
      }
    }
  }

  private static boolean isStorable(Chunk chunk, long micros) {
    if (micros < LineProtocol.EARLIEST_MICROS || micros > LineProtocol.LATEST_MICROS) {
      return false;
    }
    try {
      dev.timelake.table.TimePartitions.ordinal(chunk, micros);
      return true;
    } catch (ArithmeticException | java.time.DateTimeException e) {
      return false;
    }
  }

  private static String lineOf(LineProtocol.Point point) {
    return "line " + point.line() + ": ";
  }

  /** The column type a new field gets. */
  private static ColumnType columnType(LineProtocol.FieldType type) {
    return switch (type) {
      case DOUBLE -> ColumnType.DOUBLE;
      case BIGINT -> ColumnType.BIGINT;
      case UBIGINT -> UNSIGNED;
      case VARCHAR -> ColumnType.VARCHAR;
      case BOOLEAN -> ColumnType.BOOLEAN;
    };
  }

  /** Fails unless the field's value fits the column exactly. */
  private static void check(
      TableName table, LineProtocol.Point point, LineProtocol.Field field, ColumnType column) {
    if (convert(field, column) == null) {
      throw new Rejected(
          lineOf(point)
              + "field '"
              + field.name()
              + "' is "
              + describe(field)
              + ", which column "
              + table
              + "."
              + field.name()
              + " ("
              + column.sql()
              + ") cannot hold exactly");
    }
  }

  private static String describe(LineProtocol.Field field) {
    String kind =
        switch (field.type()) {
          case DOUBLE -> "a float";
          case BIGINT -> "an integer";
          case UBIGINT -> "an unsigned integer";
          case VARCHAR -> "a string";
          case BOOLEAN -> "a boolean";
        };
    String value = String.valueOf(field.value());
    return kind + " (" + (value.length() > 40 ? value.substring(0, 40) + "…" : value) + ")";
  }

  /** The field's value as the column's Java value; null when it does not fit exactly. */
  static Object convert(LineProtocol.Field field, ColumnType column) {
    Object value = field.value();
    return switch (column.kind()) {
      case DOUBLE ->
          switch (field.type()) {
            case DOUBLE -> value;
            case BIGINT -> exactDouble(BigInteger.valueOf((Long) value));
            case UBIGINT -> exactDouble((BigInteger) value);
            default -> null;
          };
      case FLOAT ->
          field.type() == LineProtocol.FieldType.DOUBLE
                  && (double) (float) (double) (Double) value == (Double) value
              ? (float) (double) (Double) value
              : null;
      case BIGINT ->
          switch (field.type()) {
            case BIGINT -> value;
            case UBIGINT ->
                ((BigInteger) value).bitLength() < 64 ? ((BigInteger) value).longValue() : null;
            default -> null;
          };
      case INTEGER -> {
        BigInteger integer = integer(field);
        yield integer != null && integer.bitLength() < 32 ? integer.intValue() : null;
      }
      case DECIMAL -> {
        BigInteger integer = integer(field);
        yield integer != null
                && column.scale() == 0
                && integer.abs().toString().length() <= column.precision()
            ? new BigDecimal(integer)
            : null;
      }
      case VARCHAR -> field.type() == LineProtocol.FieldType.VARCHAR ? value : null;
      case BOOLEAN -> field.type() == LineProtocol.FieldType.BOOLEAN ? value : null;
      default -> null;
    };
  }

  private static BigInteger integer(LineProtocol.Field field) {
    return switch (field.type()) {
      case BIGINT -> BigInteger.valueOf((Long) field.value());
      case UBIGINT -> (BigInteger) field.value();
      default -> null;
    };
  }

  private static Double exactDouble(BigInteger value) {
    return value.abs().compareTo(BigInteger.valueOf(MAX_EXACT_DOUBLE)) <= 0
        ? value.doubleValue()
        : null;
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

  /**
   * {@code points} as Arrow vectors for {@code table}, one per column of the table (columns no
   * point fills are all null); the values were checked against these columns when planned.
   */
  private static VectorSchemaRoot vectors(
      Table table, List<LineProtocol.Point> points, BufferAllocator allocator) {
    // Only the columns the points fill: the append reads the others as null, whatever their type.
    java.util.Set<String> filled = new java.util.HashSet<>(List.of(TIME_COLUMN));
    for (LineProtocol.Point point : points) {
      filled.addAll(point.tags().keySet());
      point.fields().forEach(field -> filled.add(field.name()));
    }
    List<Column> columns =
        table.columns().stream().filter(column -> filled.contains(column.name())).toList();
    Map<String, Integer> index = new java.util.HashMap<>();
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (Column column : columns) {
        index.put(column.name(), vectors.size());
        FieldVector vector = Batch.vector(column.name(), column.type(), allocator);
        vectors.add(vector);
        vector.setInitialCapacity(points.size());
        vector.allocateNew();
      }
      return fill(vectors, index, columns, points);
    } catch (RuntimeException | OutOfMemoryError e) {
      // The allocator outlives the request: whatever this request took goes back.
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  private static VectorSchemaRoot fill(
      List<FieldVector> vectors,
      Map<String, Integer> index,
      List<Column> columns,
      List<LineProtocol.Point> points) {
    int count = points.size();
    TimeStampMicroTZVector time = (TimeStampMicroTZVector) vectors.get(index.get(TIME_COLUMN));
    // Parsed names are shared Strings: look each up once per batch, not once per point.
    java.util.IdentityHashMap<String, Integer> positions = new java.util.IdentityHashMap<>();
    java.util.IdentityHashMap<String, byte[]> utf8 = new java.util.IdentityHashMap<>();
    // (tag values come from the parser's name cache too, so most are shared as well)
    for (int row = 0; row < count; row++) {
      LineProtocol.Point point = points.get(row);
      time.set(row, point.micros());
      for (Map.Entry<String, String> tag : point.tags().entrySet()) {
        int position = positions.computeIfAbsent(tag.getKey(), index::get);
        byte[] bytes =
            utf8.computeIfAbsent(tag.getValue(), v -> v.getBytes(StandardCharsets.UTF_8));
        ((VarCharVector) vectors.get(position)).setSafe(row, bytes);
      }
      for (LineProtocol.Field field : point.fields()) {
        int position = positions.computeIfAbsent(field.name(), index::get);
        FieldVector vector = vectors.get(position);
        Batch.set(vector, row, convert(field, columns.get(position).type()));
      }
    }
    for (FieldVector vector : vectors) {
      vector.setValueCount(count);
    }
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(count);
    return root;
  }

  /** One table's points and the columns they fill. */
  private record Batch(
      TableName name,
      boolean create,
      List<String> tags,
      Map<String, ColumnType> columns,
      Map<String, ColumnType> added,
      List<LineProtocol.Point> points) {

    /** Creates the table or adds its new columns; the table as it now is. */
    Table prepare(Lake lake) {
      if (create) {
        TableDefinition.Builder definition = TableDefinition.builder(name);
        definition.column(Column.required(TIME_COLUMN, ColumnType.TIMESTAMPTZ));
        added.forEach(definition::column);
        definition.timeColumn(TIME_COLUMN);
        definition.chunk(NEW_TABLE_CHUNK);
        if (!tags.isEmpty()) {
          definition.seriesKey(tags.toArray(String[]::new));
        }
        try {
          return lake.createTable(definition.build());
        } catch (AlreadyExistsException e) {
          // Another request created it first; add what this one needs to that table.
          return addMissing(lake.table(name));
        }
      }
      return addMissing(lake.table(name));
    }

    private Table addMissing(Table table) {
      Table current = table;
      for (Map.Entry<String, ColumnType> column : added.entrySet()) {
        boolean present =
            current.columns().stream().anyMatch(c -> c.name().equals(column.getKey()));
        if (!present) {
          current = current.addColumn(column.getKey(), column.getValue());
        }
      }
      return current;
    }

    private static FieldVector vector(String name, ColumnType type, BufferAllocator allocator) {
      return switch (type.kind()) {
        case TIMESTAMPTZ -> new TimeStampMicroTZVector(name, allocator, "UTC");
        case VARCHAR -> new VarCharVector(name, allocator);
        case DOUBLE -> new Float8Vector(name, allocator);
        case FLOAT -> new Float4Vector(name, allocator);
        case BIGINT -> new BigIntVector(name, allocator);
        case INTEGER -> new IntVector(name, allocator);
        case BOOLEAN -> new BitVector(name, allocator);
        case DECIMAL -> new DecimalVector(name, allocator, type.precision(), type.scale());
        default ->
            throw new IllegalStateException(
                "Column '" + name + "' is " + type.sql() + ", which planning lets no value into");
      };
    }

    private static void set(FieldVector vector, int row, Object value) {
      if (vector instanceof Float8Vector v) {
        v.set(row, (Double) value);
      } else if (vector instanceof Float4Vector v) {
        v.set(row, (Float) value);
      } else if (vector instanceof BigIntVector v) {
        v.set(row, (Long) value);
      } else if (vector instanceof IntVector v) {
        v.set(row, (Integer) value);
      } else if (vector instanceof BitVector v) {
        v.set(row, (Boolean) value ? 1 : 0);
      } else if (vector instanceof DecimalVector v) {
        v.setSafe(row, (BigDecimal) value);
      } else if (vector instanceof VarCharVector v) {
        v.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
      } else {
        throw new IllegalStateException("no setter for " + vector.getClass());
      }
    }
  }
}
