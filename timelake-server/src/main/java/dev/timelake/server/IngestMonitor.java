package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.TableName;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.WeakHashMap;

/**
 * What a server's clients wrote into its lake in the last minutes, for the web console: rows per
 * table in ten-second slots over ten minutes, by which protocol, the last write; and the last
 * refused requests with their reasons. One per lake in this process, shared by its PostgreSQL and
 * HTTP servers; kept in memory only.
 */
final class IngestMonitor {
  /** Seconds per slot and slots kept: ten minutes. */
  static final int SLOT_SECONDS = 10;

  static final int SLOTS = 60;

  /** Refusals kept. */
  static final int REFUSALS = 50;

  private static final Map<Lake, IngestMonitor> MONITORS = new WeakHashMap<>();

  private final Clock clock;
  private final Map<TableName, Written> tables = new TreeMap<>();
  private final Deque<Map<String, Object>> refusals = new ArrayDeque<>();

  IngestMonitor(Clock clock) {
    this.clock = clock;
  }

  /** The monitor of {@code lake}'s servers. */
  static IngestMonitor of(Lake lake) {
    synchronized (MONITORS) {
      return MONITORS.computeIfAbsent(lake, l -> new IngestMonitor(Clock.systemUTC()));
    }
  }

  /** One table's writes: rows per slot (a ring indexed by slot number), sources, last write. */
  private static final class Written {
    final long[] rows = new long[SLOTS];
    long newestSlot = Long.MIN_VALUE;
    final Set<String> sources = new TreeSet<>();
    Instant last;
    long total;

    Written copy() {
      Written copy = new Written();
      System.arraycopy(rows, 0, copy.rows, 0, SLOTS);
      copy.newestSlot = newestSlot;
      copy.sources.addAll(sources);
      copy.last = last;
      copy.total = total;
      return copy;
    }

    void add(long slot, long count) {
      advance(slot);
      rows[(int) Math.floorMod(slot, SLOTS)] += count;
    }

    /** Empties the slots between the newest one written and {@code slot}. */
    void advance(long slot) {
      if (slot <= newestSlot) {
        return;
      }
      long from = newestSlot == Long.MIN_VALUE ? slot - SLOTS + 1 : newestSlot + 1;
      for (long s = Math.max(from, slot - SLOTS + 1); s <= slot; s++) {
        rows[(int) Math.floorMod(s, SLOTS)] = 0;
      }
      newestSlot = slot;
    }
  }

  /** {@code rows} were committed into {@code table} through {@code source}. */
  synchronized void written(TableName table, long rows, String source) {
    if (rows <= 0) {
      return;
    }
    Instant now = clock.instant();
    Written written = tables.computeIfAbsent(table, t -> new Written());
    written.add(now.getEpochSecond() / SLOT_SECONDS, rows);
    written.sources.add(source);
    written.last = now;
    written.total += rows;
  }

  /** A request through {@code source} was refused, for {@code reason}. */
  synchronized void refused(String source, String reason) {
    Map<String, Object> refusal = new LinkedHashMap<>();
    refusal.put("at", clock.instant().toString());
    refusal.put("source", source);
    refusal.put("reason", reason == null ? "" : reason);
    refusals.addFirst(refusal);
    while (refusals.size() > REFUSALS) {
      refusals.removeLast();
    }
  }

  /**
   * A write this server did not see: an import or another process's append, read from the table's
   * snapshot history.
   */
  record OtherWrite(TableName table, Instant at, long rows, String source) {}

  /** How far back the view reaches. */
  static java.time.Duration window() {
    return java.time.Duration.ofSeconds((long) SLOTS * SLOT_SECONDS);
  }

  /** {@link #view(List)} of this server's clients' writes only. */
  Map<String, Object> view() {
    return view(List.of());
  }

  /**
   * Per table: rows in each slot of the last ten minutes (oldest first), rows in the last minute,
   * sources, last write and rows since the server started (other writers' rows counted in the
   * window only); and the newest refusals first. {@code others} are the writes this server's
   * clients did not make, placed in their slots as they were committed.
   */
  synchronized Map<String, Object> view(List<OtherWrite> others) {
    long slot = clock.instant().getEpochSecond() / SLOT_SECONDS;
    Map<TableName, Written> merged = new TreeMap<>();
    tables.forEach((name, written) -> merged.put(name, written.copy()));
    for (OtherWrite other : others) {
      long at = other.at().getEpochSecond() / SLOT_SECONDS;
      if (at <= slot - SLOTS || at > slot || other.rows() <= 0) {
        continue;
      }
      Written written = merged.computeIfAbsent(other.table(), t -> new Written());
      written.add(at, other.rows());
      written.advance(slot);
      written.sources.add(other.source());
      written.last =
          written.last == null || written.last.isBefore(other.at()) ? other.at() : written.last;
      written.total += other.rows();
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map.Entry<TableName, Written> entry : merged.entrySet()) {
      Written written = entry.getValue();
      written.advance(slot);
      List<Long> slots = new ArrayList<>(SLOTS);
      for (long s = slot - SLOTS + 1; s <= slot; s++) {
        slots.add(written.rows[(int) Math.floorMod(s, SLOTS)]);
      }
      long lastMinute =
          slots.subList(SLOTS - 60 / SLOT_SECONDS, SLOTS).stream().mapToLong(Long::longValue).sum();
      Map<String, Object> table = new LinkedHashMap<>();
      table.put("table", entry.getKey().toString());
      table.put("sources", List.copyOf(written.sources));
      table.put("lastWrite", written.last.toString());
      table.put("rowsLastMinute", lastMinute);
      table.put("rowsPerSecond", lastMinute / 60.0);
      table.put("rowsSinceStart", written.total);
      table.put("slots", slots);
      rows.add(table);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("slotSeconds", SLOT_SECONDS);
    view.put("tables", rows);
    view.put("refused", List.copyOf(refusals));
    return view;
  }
}
