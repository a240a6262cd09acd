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
   * Per table: rows in each slot of the last ten minutes (oldest first), rows in the last minute,
   * sources, last write and rows since the server started; and the newest refusals first.
   */
  synchronized Map<String, Object> view() {
    long slot = clock.instant().getEpochSecond() / SLOT_SECONDS;
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map.Entry<TableName, Written> entry : tables.entrySet()) {
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
