package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.NotFoundException;
import dev.timelake.Table;
import dev.timelake.TableInfo;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A server's hot tier: line-protocol writes and its clients' INSERTs of constants acknowledged once
 * they are in the write-ahead log on disk ({@link HotTierLog}), and committed to their tables
 * later, many requests per append, by one flusher thread — when a table holds {@link
 * HotTierSettings#maxRows} rows, when its oldest is {@link HotTierSettings#maxAge} old, before a
 * statement of this server's clients reads the table (see {@link SessionHold}), and when the server
 * stops. A write keeps the time it was acknowledged as its rows' insertion time, so the newest
 * write of a key wins as if it had been committed at once.
 *
 * <p>Each flush names the log's epoch and the records it covers in its batch id. When the server
 * starts, what an earlier one left in the log is committed first: a table's records that one of its
 * snapshots already covers are skipped, so every acknowledged write is committed exactly once,
 * whenever the crash came. A flush that fails is retried, the same records under the same batch id
 * (an append the table already committed is not made twice), with a growing pause.
 */
final class HotTier implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(HotTier.class.getName());

  /** The log's folder in the lake's local work folder. */
  static final String FOLDER = "hot-tier";

  private static final String BATCH_PREFIX = "hot-tier:";

  /** How long a write waits for room when the log is full, before it is answered 503. */
  private static final Duration ROOM_WAIT = Duration.ofSeconds(10);

  /** The longest pause between attempts to flush a table whose flush fails. */
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  /** The tiers of the lakes this process serves: statements of the lake flush them first. */
  private static final Map<Lake, HotTier> TIERS = Collections.synchronizedMap(new WeakHashMap<>());

  private final Lake lake;
  private final HotTierLog log;
  private final HotTierSettings settings;
  private final BufferAllocator allocator;
  private final BackgroundMaintenance maintenance;
  private final Clock clock;
  private final Thread flusher;

  /**
   * One request's rows for one table, held as an Arrow batch (off the heap, so holding a million
   * rows costs the collector nothing; their insertion time is in it): the record they are in and
   * who wrote them.
   */
  private record HeldWrite(long sequence, String user, VectorSchemaRoot batch) {
    int rows() {
      return batch.getRowCount();
    }
  }

  /**
   * One table's rows of a request as an Arrow batch with the columns they fill, and the table's
   * insertion-time column (in the batch), which the tier sets to the time it answers.
   */
  record Batch(VectorSchemaRoot rows, Optional<String> ingestColumn) {}

  /** One table's writes not yet committed, oldest first, and its flush's failures. */
  private static final class Held {
    final ArrayDeque<HeldWrite> records = new ArrayDeque<>();
    long rows;
    long oldestNanos;
    int failures;
    long retryAtNanos;

    /**
     * How many records the failed flush took: the retry takes exactly these, under the same batch
     * id, so a flush whose commit landed unseen is not committed again with more records.
     */
    int retryRecords;

    /** Records numbered up to this are to be committed now: a query of this table waits. */
    long flushThrough;

    String lastFailure;
  }

  /** Digests of recent requests, to recognise resends; guarded by this object. */
  private final Set<String> digests =
      Collections.newSetFromMap(
          new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > 10_000;
            }
          });

  /** Guarded by this object, which flusher and writers wait on. */
  private final Map<TableName, Held> held = new HashMap<>();

  private long lastSequence;
  private long lastIngestMicros;
  private long heldRows;
  private long flushRequestedThrough;
  private boolean closing;
  private boolean halted;

  private HotTier(
      Lake lake,
      HotTierLog log,
      HotTierSettings settings,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance,
      Clock clock) {
    this.lake = lake;
    this.log = log;
    this.settings = settings;
    this.allocator = allocator;
    this.maintenance = maintenance;
    this.clock = clock;
    this.flusher = new Thread(this::flushLoop, "timelake-hot-tier-flusher");
    this.flusher.setDaemon(true);
  }

  /** The folder of {@code lake}'s hot-tier log. */
  static Path folder(Lake lake) {
    return lake.workFolder(FOLDER);
  }

  /**
   * Opens {@code lake}'s hot tier: commits what an earlier server left in the log (a table's
   * records a snapshot already covers are skipped), then starts a new log and its flusher.
   *
   * @throws IOException when the log cannot be read or a new one begun
   * @throws TimelakeException when what the earlier log holds cannot be committed (it stays, for
   *     the next start)
   */
  static HotTier open(
      Lake lake,
      HotTierSettings settings,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance)
      throws IOException {
    Path folder = folder(lake);
    HotTierLog.Replay replay = HotTierLog.replay(folder);
    replay
        .dropped()
        .forEach(
            problem ->
                LOG.log(
                    System.Logger.Level.INFO,
                    "Hot tier: dropped an unacknowledged record cut short by a crash: " + problem));
    commitLeftOver(lake, replay.records(), allocator, maintenance);
    HotTierLog.delete(replay.segments());
    HotTier tier =
        new HotTier(
            lake, HotTierLog.open(folder), settings, allocator, maintenance, Clock.systemUTC());
    tier.flusher.start();
    TIERS.put(lake, tier);
    return tier;
  }

  /**
   * Holds {@code tables}' rows of {@code request} (each table's batch, checked against it), written
   * by {@code user}; returns once the request is on disk. A request whose digest the tier holds or
   * held lately is not written again. The batches are the tier's from then on.
   *
   * @throws LineProtocolWriter.Stopping when the tier is closing, full (after a wait) or cannot
   *     write its log: nothing was written, the client may send it again
   */
  void write(
      LineProtocolRequest request, Map<TableName, Batch> tables, String digest, String user) {
    force(holdUnforced(request, tables, digest, user));
  }

  /**
   * Holds the request as {@link #write} does, but returns before its record is forced to disk: the
   * log position to {@link #force}, or -1 for a resend (nothing to force).
   */
  private long holdUnforced(
      LineProtocolRequest request, Map<TableName, Batch> tables, String digest, String user) {
    long position = -1;
    try {
      position = hold(request, tables, digest, user);
    } finally {
      if (position < 0) { // refused, or a resend: the batches are not held
        tables.values().forEach(batch -> batch.rows().close());
      }
    }
    return position;
  }

  /**
   * Returns once the log is on disk up to {@code position} (nothing for -1).
   *
   * @throws LineProtocolWriter.Stopping when the log cannot be forced
   */
  private void force(long position) {
    if (position < 0) {
      return;
    }
    try {
      log.force(position);
    } catch (IOException e) {
      // Held in memory, and committed with the rest: a resend is recognised by its digest.
      throw new LineProtocolWriter.Stopping(
          "The server cannot force its hot tier's log to disk ("
              + e.getMessage()
              + "); send it again",
          e);
    }
  }

  /**
   * Appends the request to the log and holds its batches; the log position to force, or -1 for a
   * resend of a request held or committed lately (the caller closes its batches).
   */
  private synchronized long hold(
      LineProtocolRequest request, Map<TableName, Batch> tables, String digest, String user) {
    awaitRoom();
    if (digests.contains(digest)) {
      return -1;
    }
    long ingest = Math.max(micros(clock.instant()), lastIngestMicros + 1);
    HotTierRecord record =
        new HotTierRecord(
            lastSequence + 1, request, List.copyOf(tables.keySet()), digest, user, ingest);
    long position;
    try {
      position = log.append(record);
    } catch (IOException e) {
      throw new LineProtocolWriter.Stopping(
          "The server cannot write its hot tier's log ("
              + e.getMessage()
              + "); nothing was written, send it again",
          e);
    }
    lastSequence = record.sequence();
    lastIngestMicros = ingest;
    digests.add(digest);
    tables.forEach(
        (name, batch) -> {
          batch.ingestColumn().ifPresent(column -> setAll(batch.rows(), column, ingest));
          hold(name, new HeldWrite(record.sequence(), user, batch.rows()));
        });
    return position;
  }

  /** Sets column {@code name} of every row of {@code batch} to the instant {@code micros}. */
  private static void setAll(VectorSchemaRoot batch, String name, long micros) {
    TimeStampMicroTZVector vector = (TimeStampMicroTZVector) batch.getVector(name);
    for (int row = 0; row < batch.getRowCount(); row++) {
      vector.set(row, micros);
    }
  }

  /** Adds a write to its table's; under the lock. */
  private void hold(TableName name, HeldWrite write) {
    Held table = held.computeIfAbsent(name, n -> new Held());
    if (table.records.isEmpty()) {
      table.oldestNanos = System.nanoTime();
    }
    table.records.addLast(write);
    table.rows += write.rows();
    heldRows += write.rows();
    if (table.rows >= settings.maxRows()) {
      notifyAll();
    }
  }

  /**
   * Waits, a while, until the tier has room: called before a request is parsed, so that while the
   * flusher is behind, its CPU is not taken by parsing requests that would only wait.
   *
   * @throws LineProtocolWriter.Stopping when the tier is closing, or stays full
   */
  synchronized void awaitRoomToParse() {
    awaitRoom();
  }

  /** Waits, a while, for the log to have room; under this object's lock. */
  private void awaitRoom() {
    long deadline = System.nanoTime() + ROOM_WAIT.toNanos();
    while (true) {
      if (closing) {
        throw new LineProtocolWriter.Stopping(
            "The server is stopping; nothing was written, send it again", null);
      }
      // The log's bytes bound the disk; the rows bound the memory their points take.
      if (log.bytesHeld() < settings.maxBytes() && heldRows < 2 * settings.maxRows()) {
        return;
      }
      flushRequestedThrough = Math.max(flushRequestedThrough, lastSequence);
      notifyAll();
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new LineProtocolWriter.Stopping(
            "The server's hot tier is full ("
                + heldRows
                + " rows, "
                + log.bytesHeld()
                + " bytes of log; limits "
                + 2 * settings.maxRows()
                + " rows, "
                + settings.maxBytes()
                + " bytes) and no room was freed within "
                + ROOM_WAIT.toSeconds()
                + " s"
                + failureNote()
                + "; nothing was written, send it"
                + " again later",
            null);
      }
      waitNanos(left);
    }
  }

  /**
   * Commits every write acknowledged before the call; waits at most {@code wait}.
   *
   * @throws TimelakeException when they are not all committed by then (a failing flush)
   */
  void flush(Duration wait) {
    synchronized (this) {
      if (heldRows == 0) {
        return;
      }
      long target = lastSequence;
      flushRequestedThrough = Math.max(flushRequestedThrough, target);
      notifyAll();
      awaitCommitted(wait, () -> holdsThrough(target));
    }
  }

  /**
   * Commits what table {@code name} held when called; waits at most {@code wait}. Other tables stay
   * held.
   *
   * @throws TimelakeException when it is not committed by then (a failing flush)
   */
  void flush(TableName name, Duration wait) {
    synchronized (this) {
      Held table = held.get(name);
      if (table == null || table.records.isEmpty()) {
        return;
      }
      long target = table.records.peekLast().sequence();
      table.flushThrough = Math.max(table.flushThrough, target);
      notifyAll();
      awaitCommitted(
          wait, () -> !table.records.isEmpty() && table.records.peekFirst().sequence() <= target);
    }
  }

  /**
   * The most rows of a table a query reads from the tier as they are held; with more, the query has
   * them committed first (one commit, which later queries read as files).
   */
  static final long READ_ROWS = 100_000;

  /**
   * What table {@code name} holds now, for a query to read with its committed rows (see {@link
   * dev.timelake.HeldWrites#readHeld}): its batches, sliced (sharing their memory, so a flush that
   * closes them meanwhile frees nothing the reader reads), read with the table's columns in order
   * and each request's insertion time; only those after the records {@code since} named when this
   * tier still holds all of those. Empty when nothing is held; empty too once it is committed when
   * it holds more than {@link #READ_ROWS} rows (waiting at most {@code wait}).
   */
  Optional<dev.timelake.HeldRead> read(TableName name, Optional<String> since, Duration wait) {
    List<VectorSchemaRoot> slices = new ArrayList<>();
    String version;
    boolean addedOnly = false;
    synchronized (this) {
      Held table = held.get(name);
      if (table == null || table.records.isEmpty()) {
        return Optional.empty();
      }
      if (table.rows > READ_ROWS) {
        version = null;
      } else {
        version = version(name);
        long after = 0;
        Optional<long[]> read = since.flatMap(this::records);
        if (read.isPresent()
            && read.get()[0] == table.records.peekFirst().sequence()
            && read.get()[1] <= table.records.peekLast().sequence()) {
          after = read.get()[1];
          addedOnly = true;
        }
        for (HeldWrite record : table.records) {
          if (record.sequence() > after) {
            slices.add(record.batch().slice(0, record.batch().getRowCount()));
          }
        }
      }
    }
    if (version == null) {
      flush(name, wait);
      return Optional.empty();
    }
    try {
      List<String> order =
          lake.table(name).columns().stream().map(dev.timelake.Column::name).toList();
      return Optional.of(
          new dev.timelake.HeldRead(
              new HeldBatchesReader(slices, order, allocator, true),
              slices.size(),
              version,
              addedOnly));
    } catch (RuntimeException e) {
      slices.forEach(VectorSchemaRoot::close);
      throw e;
    }
  }

  /** The first and last records a {@link #version} of this log names; empty for another's. */
  private Optional<long[]> records(String version) {
    String prefix = log.epoch() + ":";
    if (!version.startsWith(prefix) || !version.substring(prefix.length()).contains("-")) {
      return Optional.empty();
    }
    String range = version.substring(prefix.length());
    int dash = range.indexOf('-');
    try {
      return Optional.of(
          new long[] {
            Long.parseLong(range.substring(0, dash)), Long.parseLong(range.substring(dash + 1))
          });
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * What table {@code name} holds, named by the log's epoch and the first and last of its records
   * held (see {@link dev.timelake.HeldWrites#heldVersion}).
   */
  synchronized String version(TableName name) {
    Held table = held.get(name);
    return table == null || table.records.isEmpty()
        ? log.epoch() + ":none"
        : log.epoch()
            + ":"
            + table.records.peekFirst().sequence()
            + "-"
            + table.records.peekLast().sequence();
  }

  /** Waits, under the lock, while {@code holding} says the wanted records are held. */
  private void awaitCommitted(Duration wait, java.util.function.BooleanSupplier holding) {
    long deadline = System.nanoTime() + wait.toNanos();
    while (holding.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || halted) {
        throw new dev.timelake.CommitFailedException(
            "The server's hot tier could not commit its acknowledged writes within "
                + wait.toSeconds()
                + " s"
                + failureNote()
                + "; the statement did not run, try it again");
      }
      waitNanos(left);
    }
  }

  /** Whether a record numbered {@code sequence} or lower is held; under the lock. */
  private boolean holdsThrough(long sequence) {
    for (Held table : held.values()) {
      if (!table.records.isEmpty() && table.records.peekFirst().sequence() <= sequence) {
        return true;
      }
    }
    return false;
  }

  private String failureNote() {
    for (Map.Entry<TableName, Held> table : held.entrySet()) {
      if (table.getValue().lastFailure != null) {
        return " (committing " + table.getKey() + " fails: " + table.getValue().lastFailure + ")";
      }
    }
    return "";
  }

  /** What the tier holds now, for the console and tests. */
  synchronized Stats stats() {
    long oldest = Long.MAX_VALUE;
    for (Held table : held.values()) {
      if (!table.records.isEmpty()) {
        oldest = Math.min(oldest, table.oldestNanos);
      }
    }
    Duration age =
        oldest == Long.MAX_VALUE ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - oldest);
    return new Stats(heldRows, log.bytesHeld(), age);
  }

  /** How many times the log has been forced to disk. */
  long logForces() {
    return log.forces();
  }

  /** Rows held and not committed, the log's bytes on disk, the oldest held row's age. */
  record Stats(long rows, long logBytes, Duration oldest) {}

  /** The flusher: commits tables as they come due, until closed with nothing held. */
  private void flushLoop() {
    while (true) {
      List<Due> due;
      synchronized (this) {
        while ((due = dueTables()).isEmpty()) {
          if ((closing && heldRows == 0) || halted) {
            return;
          }
          waitNanos(nextDueNanos());
          if (System.nanoTime() - statusNanos >= STATUS_EVERY.toNanos()) {
            break;
          }
        }
      }
      for (Due table : due) {
        flushTable(table);
      }
      writeStatus();
    }
  }

  /** How often the flusher says what the tier holds, while it holds anything. */
  private static final Duration STATUS_EVERY = Duration.ofSeconds(1);

  /** When the flusher last wrote the status; only the flusher reads and writes it. */
  private long statusNanos = System.nanoTime() - STATUS_EVERY.toNanos();

  /** Whether the last status written said the tier held rows. */
  private boolean statusHeldRows = true;

  /** Writes what the tier holds for other processes, unless it said "nothing" already. */
  private void writeStatus() {
    HotTierStatus status;
    synchronized (this) {
      if (heldRows == 0 && !statusHeldRows) {
        return;
      }
      long now = System.nanoTime();
      java.util.Map<TableName, HotTierStatus.TableHeld> tables = new java.util.TreeMap<>();
      held.forEach(
          (name, table) -> {
            if (!table.records.isEmpty()) {
              tables.put(
                  name,
                  new HotTierStatus.TableHeld(
                      table.rows, Duration.ofNanos(now - table.oldestNanos)));
            }
          });
      status = new HotTierStatus(clock.instant(), heldRows, log.bytesHeld(), tables);
      statusNanos = now;
      statusHeldRows = heldRows > 0;
    }
    try {
      status.write(folder(lake));
    } catch (IOException | RuntimeException e) {
      // Only timelake info reads it; the tier works without.
    }
  }

  /** A table's records to commit now: the oldest, up to about {@code maxRows} rows. */
  private record Due(TableName name, List<HeldWrite> records) {}

  /** Tables due now; under the lock. */
  private List<Due> dueTables() {
    List<Due> due = new ArrayList<>();
    if (halted) {
      return due;
    }
    long now = System.nanoTime();
    for (Map.Entry<TableName, Held> entry : held.entrySet()) {
      Held table = entry.getValue();
      if (table.records.isEmpty() || now < table.retryAtNanos) {
        continue;
      }
      boolean isDue =
          closing
              || table.rows >= settings.maxRows()
              || now - table.oldestNanos >= settings.maxAge().toNanos()
              || table.records.peekFirst().sequence()
                  <= Math.max(flushRequestedThrough, table.flushThrough);
      if (isDue) {
        List<HeldWrite> records = new ArrayList<>();
        long rows = 0;
        for (HeldWrite record : table.records) {
          if (table.retryRecords > 0
              ? records.size() == table.retryRecords
              : !records.isEmpty() && rows + record.rows() > settings.maxRows()) {
            break;
          }
          records.add(record);
          rows += record.rows();
        }
        due.add(new Due(entry.getKey(), records));
      }
    }
    return due;
  }

  /** How long until a table comes due, at most a second (a wait's bound); under the lock. */
  private long nextDueNanos() {
    long now = System.nanoTime();
    long next = Duration.ofSeconds(1).toNanos();
    for (Held table : held.values()) {
      if (!table.records.isEmpty()) {
        long at = Math.max(table.retryAtNanos, table.oldestNanos + settings.maxAge().toNanos());
        next = Math.min(next, Math.max(1_000_000, at - now));
      }
    }
    return next;
  }

  private void flushTable(Due due) {
    try {
      commit(lake, due.name(), log.epoch(), due.records(), allocator, maintenance);
    } catch (RuntimeException e) {
      if (e instanceof NotFoundException) {
        LOG.log(
            System.Logger.Level.WARNING,
            "Hot tier: table "
                + due.name()
                + " no longer exists; what it held of "
                + requests(due.records().size())
                + " is dropped");
      } else {
        synchronized (this) {
          Held table = held.get(due.name());
          table.failures++;
          table.retryRecords = due.records().size();
          long pause = Math.min(MAX_BACKOFF.toMillis(), 250L << Math.min(table.failures - 1, 7));
          table.retryAtNanos = System.nanoTime() + pause * 1_000_000;
          table.lastFailure = e.getMessage();
        }
        LOG.log(
            System.Logger.Level.WARNING,
            "Hot tier: committing "
                + requests(due.records().size())
                + " to "
                + due.name()
                + " failed; trying again: "
                + e.getMessage(),
            e);
        return;
      }
    }
    synchronized (this) {
      Held table = held.get(due.name());
      for (int i = 0; i < due.records().size(); i++) {
        HeldWrite record = table.records.removeFirst();
        table.rows -= record.rows();
        heldRows -= record.rows();
        record.batch().close();
      }
      table.failures = 0;
      table.retryRecords = 0;
      table.retryAtNanos = 0;
      table.lastFailure = null;
      table.oldestNanos = System.nanoTime();
      log.release(firstHeldSequence());
      notifyAll();
    }
  }

  /** The lowest number of a record held; one past the last when none is. Under the lock. */
  private long firstHeldSequence() {
    long first = lastSequence + 1;
    for (Held table : held.values()) {
      if (!table.records.isEmpty()) {
        first = Math.min(first, table.records.peekFirst().sequence());
      }
    }
    return first;
  }

  /**
   * Commits {@code records} of one table, consecutive among its records of log {@code epoch}, as
   * one append whose batch id names them; their batches stay open.
   */
  private static void commit(
      Lake lake,
      TableName name,
      String epoch,
      List<HeldWrite> records,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance) {
    String batchId =
        BATCH_PREFIX
            + epoch
            + ":"
            + records.get(0).sequence()
            + "-"
            + records.get(records.size() - 1).sequence();
    PointsCommit.commitBatches(
        lake,
        name,
        records.stream().map(HeldWrite::batch).toList(),
        batchId,
        records.stream().map(HeldWrite::user).toList(),
        allocator,
        maintenance);
  }

  /**
   * Commits the records an earlier log left, table by table and epoch by epoch, skipping those a
   * snapshot of the table already covers.
   */
  private static void commitLeftOver(
      Lake lake,
      List<HotTierLog.Replayed> replayed,
      BufferAllocator allocator,
      BackgroundMaintenance maintenance) {
    Map<TableName, Map<String, List<HotTierLog.Replayed>>> byTable = new LinkedHashMap<>();
    for (HotTierLog.Replayed replay : replayed) {
      for (TableName table : replay.record().tables()) {
        byTable
            .computeIfAbsent(table, t -> new LinkedHashMap<>())
            .computeIfAbsent(replay.epoch(), e -> new ArrayList<>())
            .add(replay);
      }
    }
    for (Map.Entry<TableName, Map<String, List<HotTierLog.Replayed>>> table : byTable.entrySet()) {
      Table current;
      try {
        current = lake.table(table.getKey());
      } catch (NotFoundException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "Hot tier: table "
                + table.getKey()
                + " no longer exists; its writes left in the log"
                + " are dropped");
        continue;
      }
      for (Map.Entry<String, List<HotTierLog.Replayed>> epoch : table.getValue().entrySet()) {
        long covered = committedThrough(current, epoch.getKey());
        List<HeldWrite> left = new ArrayList<>();
        try {
          for (HotTierLog.Replayed replay : epoch.getValue()) {
            if (replay.record().sequence() > covered) {
              left.add(heldAgain(current, replay.record(), allocator));
            }
          }
          if (!left.isEmpty()) {
            commit(lake, table.getKey(), epoch.getKey(), left, allocator, maintenance);
          }
        } finally {
          left.forEach(write -> write.batch().close());
        }
        if (!left.isEmpty()) {
          LOG.log(
              System.Logger.Level.INFO,
              "Hot tier: committed "
                  + requests(left.size())
                  + " to "
                  + table.getKey()
                  + " that the last server acknowledged and had not committed");
        }
      }
    }
  }

  /** A logged request's rows for {@code table}, read again from the request as received. */
  private static HeldWrite heldAgain(Table table, HotTierRecord record, BufferAllocator allocator) {
    LineProtocolRequest request = record.request();
    if (request.format() == LineProtocolRequest.Format.ARROW_IPC) {
      VectorSchemaRoot read;
      try {
        read = HeldRowsIpc.read(request.body(), allocator);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(
            "Hot tier: record " + record.sequence() + " of the log holds no readable rows", e);
      }
      table.ingestTimeColumn().ifPresent(column -> setAll(read, column, record.ingestMicros()));
      return new HeldWrite(record.sequence(), record.user(), read);
    }
    List<LineProtocol.Point> points =
        LineProtocolPlanner.byTable(request.namespace(), request.points())
            .getOrDefault(table.name(), List.of());
    long[] ingest = new long[points.size()];
    java.util.Arrays.fill(ingest, record.ingestMicros());
    return new HeldWrite(
        record.sequence(),
        record.user(),
        LineProtocolVectors.vectors(table, points, ingest, allocator));
  }

  /** The highest record number of log {@code epoch} a snapshot of {@code table} committed. */
  static long committedThrough(Table table, String epoch) {
    String prefix = BATCH_PREFIX + epoch + ":";
    long through = 0;
    for (TableInfo.SnapshotInfo snapshot : table.snapshots()) {
      String batch = snapshot.summary().getOrDefault("timelake.batch-id", "");
      if (batch.startsWith(prefix)) {
        String range = batch.substring(prefix.length());
        through = Math.max(through, Long.parseLong(range.substring(range.indexOf('-') + 1)));
      }
    }
    return through;
  }

  /**
   * Commits everything held (waiting for the flusher, as long as its flushes succeed), then stops;
   * what cannot be committed stays in the log for the next start.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (halted) {
        return;
      }
      closing = true;
      notifyAll();
    }
    TIERS.remove(lake, this);
    try {
      flusher.join(Duration.ofMinutes(1).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    boolean committed;
    synchronized (this) {
      committed = heldRows == 0;
      halted = true;
      releaseBatches();
      notifyAll();
    }
    try {
      if (committed) {
        log.closeAndDelete();
      } else {
        log.close();
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "Hot tier: closing the log failed: " + e, e);
    }
  }

  /**
   * Stops at once without committing anything, as a crash would (what was acknowledged stays in the
   * log); for tests.
   */
  void halt() {
    synchronized (this) {
      halted = true;
      closing = true;
      notifyAll();
    }
    TIERS.remove(lake, this);
    try {
      flusher.join();
      synchronized (this) {
        releaseBatches();
      }
      log.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // as a crash
    }
  }

  /** Frees what the tier holds in memory (the log keeps it); under the lock, once stopped. */
  private void releaseBatches() {
    for (Held table : held.values()) {
      table.records.forEach(write -> write.batch().close());
      table.records.clear();
    }
  }

  /**
   * This tier as the place a server session's INSERTs of constant rows go (see {@link
   * dev.timelake.Session#holdWritesIn}): each is one record of the log, its rows as an Arrow batch,
   * answered once forced to disk, and counted in the ingest view as {@code source}'s.
   */
  SessionHold heldWrites(String source) {
    return new SessionHold(source, false);
  }

  /**
   * Like {@link #heldWrites}, for a connection that calls {@link SessionHold#forcePending} before
   * it sends its client anything: a hold returns before its record is forced, so the INSERTs a
   * client pipelines (a pgjdbc batch) share one force, and still none is answered before it is on
   * disk.
   */
  SessionHold heldWritesForcedBeforeAnswering(String source) {
    return new SessionHold(source, true);
  }

  /** A session's INSERTs into this tier; see {@link #heldWrites}. */
  final class SessionHold implements dev.timelake.HeldWrites {
    private final String source;
    private final boolean deferForce;
    private volatile long pending = -1;

    private SessionHold(String source, boolean deferForce) {
      this.source = source;
      this.deferForce = deferForce;
    }

    @Override
    public BufferAllocator allocator() {
      return allocator;
    }

    @Override
    public void hold(
        TableName table, VectorSchemaRoot rows, Optional<String> ingestColumn, String user) {
      LineProtocolRequest request;
      try {
        request =
            new LineProtocolRequest(
                table.namespace(),
                LineProtocolRequest.Format.ARROW_IPC,
                LineProtocol.Precision.MICROSECONDS,
                micros(clock.instant()),
                HeldRowsIpc.bytes(rows));
      } catch (RuntimeException e) {
        rows.close();
        throw e;
      }
      int count = rows.getRowCount();
      try {
        long position =
            holdUnforced(
                request,
                Map.of(table, new Batch(rows, ingestColumn)),
                java.util.UUID.randomUUID().toString(),
                user);
        if (deferForce) {
          pending = Math.max(pending, position);
        } else {
          force(position);
        }
        IngestMonitor.of(lake).written(table, count, source);
      } catch (LineProtocolWriter.Stopping e) {
        throw new dev.timelake.CommitFailedException(e.getMessage(), e);
      }
    }

    /**
     * Forces what this session held since the last call to disk; the connection calls it before it
     * sends anything, so no answer leaves before what it answers is durable.
     *
     * @throws IOException when the log cannot be forced: what was held stays held, and is
     *     committed; the connection's answers since the last force must not be sent
     */
    void forcePending() throws IOException {
      long position = pending;
      if (position < 0) {
        return;
      }
      log.force(position);
      pending = -1;
    }

    @Override
    public void commitHeld() {
      flush(Duration.ofSeconds(30));
    }

    @Override
    public void commitHeld(TableName table) {
      flush(table, Duration.ofSeconds(30));
    }

    @Override
    public Optional<dev.timelake.HeldRead> readHeld(TableName table, Optional<String> since) {
      return read(table, since, Duration.ofSeconds(30));
    }

    @Override
    public Optional<String> heldVersion(TableName table) {
      return Optional.of(version(table));
    }

    @Override
    public boolean mayHold(TableName table) {
      synchronized (HotTier.this) {
        Held held = HotTier.this.held.get(table);
        return held != null && !held.records.isEmpty();
      }
    }
  }

  /** The tier of {@code lake} in this process, if it has one. */
  static Optional<HotTier> of(Lake lake) {
    return Optional.ofNullable(TIERS.get(lake));
  }

  private void waitNanos(long nanos) {
    try {
      wait(Math.max(1, nanos / 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LineProtocolWriter.Stopping("Interrupted while waiting for the hot tier", e);
    }
  }

  private static String requests(int count) {
    return count == 1 ? "1 request" : count + " requests";
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000L);
  }
}
