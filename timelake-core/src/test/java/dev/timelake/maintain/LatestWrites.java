package dev.timelake.maintain;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The answer oracle: every row written, keeping per (device, time) the latest write, that is the
 * highest insertion time, then the latest in commit order (rows added later win). Independent of
 * Timelake's code; prints rows as {@link MaintenanceFixture#ROWS} does.
 */
final class LatestWrites {
  record Key(String device, long micros) implements Comparable<Key> {
    @Override
    public int compareTo(Key other) {
      int byDevice = device.compareTo(other.device);
      return byDevice != 0 ? byDevice : Long.compare(micros, other.micros);
    }
  }

  private record Write(Double value, long ingestMicros, long order) {
    boolean beats(Write other) {
      return ingestMicros != other.ingestMicros
          ? ingestMicros > other.ingestMicros
          : order > other.order;
    }
  }

  private final Map<Key, Write> latest = new TreeMap<>();
  private long order;

  /** Records one row written with insertion time {@code ingest}, after every row before it. */
  synchronized void add(String device, Instant time, Double value, Instant ingest) {
    Key key = new Key(device, micros(time));
    Write write = new Write(value, micros(ingest), order++);
    Write current = latest.get(key);
    if (current == null || write.beats(current)) {
      latest.put(key, write);
    }
  }

  /** Forgets the rows whose key matches, e.g. partitions that retention drops. */
  synchronized void removeIf(Predicate<Key> dropped) {
    latest.keySet().removeIf(dropped);
  }

  /** The winners, sorted by (device, time), as {@code [device, µs, value]}. */
  synchronized List<String> rows() {
    List<String> rows = new ArrayList<>();
    latest.forEach(
        (key, write) ->
            rows.add(String.valueOf(Arrays.asList(key.device(), key.micros(), write.value()))));
    return rows;
  }

  synchronized int size() {
    return latest.size();
  }

  /** The winning value of a key. */
  synchronized Double value(String device, Instant time) {
    return latest.get(new Key(device, micros(time))).value();
  }

  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }
}
