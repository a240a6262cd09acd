package dev.timelake.index;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.roaringbitmap.RoaringBitmap;

/**
 * A set of 64-bit interval ids in unsigned order: 32-bit Roaring bitmaps keyed by the ids' high 32
 * bits, the layout of the RoaringFormatSpec's 64-bit extension, so that it serializes to the
 * portable bytes as they are and answers range questions (how many ids, which runs) in work
 * proportional to the runs, not the ids. Empty buckets are never kept. Mutable; not thread-safe
 * while changed.
 */
public final class IntervalIds {
  private static final long LOW_MASK = 0xFFFF_FFFFL;

  private final TreeMap<Integer, RoaringBitmap> buckets = new TreeMap<>(Integer::compareUnsigned);

  private static int high(long id) {
    return (int) (id >>> 32);
  }

  private static long low(long id) {
    return id & LOW_MASK;
  }

  private static long id(int high, long low) {
    return ((long) high << 32) | low;
  }

  /** Adds the ids {@code first..last}, inclusive, unsigned. */
  public void add(long first, long last) {
    int from = high(first);
    int to = high(last);
    for (int high = from; ; high++) {
      long start = high == from ? low(first) : 0;
      long end = high == to ? low(last) : LOW_MASK;
      buckets.computeIfAbsent(high, h -> new RoaringBitmap()).add(start, end + 1);
      if (high == to) {
        break;
      }
    }
  }

  /** Adds every id of {@code other}. */
  public void or(IntervalIds other) {
    other.buckets.forEach(
        (high, bitmap) -> {
          RoaringBitmap mine = buckets.get(high);
          if (mine == null) {
            buckets.put(high, bitmap.clone());
          } else {
            mine.or(bitmap);
          }
        });
  }

  public boolean contains(long id) {
    RoaringBitmap bucket = buckets.get(high(id));
    return bucket != null && bucket.contains((int) id);
  }

  public boolean isEmpty() {
    return buckets.isEmpty();
  }

  /** The number of ids. */
  public long cardinality() {
    return buckets.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum();
  }

  /** The number of ids in {@code first..last}, inclusive, unsigned. */
  public long count(long first, long last) {
    long count = 0;
    for (Map.Entry<Integer, RoaringBitmap> bucket : range(first, last).entrySet()) {
      int high = bucket.getKey();
      long start = high == high(first) ? low(first) : 0;
      long end = high == high(last) ? low(last) : LOW_MASK;
      count += bucket.getValue().rangeCardinality(start, end + 1);
    }
    return count;
  }

  /** The number of ids both sets hold. */
  public long andCardinality(IntervalIds other) {
    long count = 0;
    for (Map.Entry<Integer, RoaringBitmap> bucket : buckets.entrySet()) {
      RoaringBitmap theirs = other.buckets.get(bucket.getKey());
      if (theirs != null) {
        count += RoaringBitmap.andCardinality(bucket.getValue(), theirs);
      }
    }
    return count;
  }

  /** The smallest id both sets hold. */
  public OptionalLong firstShared(IntervalIds other) {
    for (Map.Entry<Integer, RoaringBitmap> bucket : buckets.entrySet()) {
      RoaringBitmap theirs = other.buckets.get(bucket.getKey());
      if (theirs != null) {
        RoaringBitmap shared = RoaringBitmap.and(bucket.getValue(), theirs);
        if (!shared.isEmpty()) {
          return OptionalLong.of(id(bucket.getKey(), Integer.toUnsignedLong(shared.first())));
        }
      }
    }
    return OptionalLong.empty();
  }

  /** A run of consecutive ids, {@code first..last} inclusive. */
  public record Run(long first, long last) {
    /** The number of ids in the run. */
    public long length() {
      return last - first + 1;
    }
  }

  /** The runs of consecutive ids within {@code first..last} (inclusive, unsigned), in order. */
  public List<Run> runs(long first, long last) {
    List<Run> runs = new ArrayList<>();
    for (Map.Entry<Integer, RoaringBitmap> bucket : range(first, last).entrySet()) {
      int high = bucket.getKey();
      RoaringBitmap bitmap = bucket.getValue();
      long start = high == high(first) ? low(first) : 0;
      long end = high == high(last) ? low(last) : LOW_MASK;
      long from = start;
      while (from <= end) {
        long present = bitmap.nextValue((int) from);
        if (present < 0 || present > end) {
          break;
        }
        long absent = bitmap.nextAbsentValue((int) present);
        long runEnd = Math.min(absent < 0 || absent > LOW_MASK ? LOW_MASK : absent - 1, end);
        Run run = new Run(id(high, present), id(high, runEnd));
        Run previous = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (previous != null && previous.last() + 1 == run.first()) {
          runs.set(runs.size() - 1, new Run(previous.first(), run.last()));
        } else {
          runs.add(run);
        }
        if (runEnd == LOW_MASK) {
          break;
        }
        from = runEnd + 1;
      }
    }
    return runs;
  }

  /** The runs of every id. */
  public List<Run> runs() {
    return runs(0, -1L);
  }

  private java.util.NavigableMap<Integer, RoaringBitmap> range(long first, long last) {
    return buckets.subMap(high(first), true, high(last), true);
  }

  /** Writes the RoaringFormatSpec 64-bit portable bytes. */
  public void serialize(DataOutput out) throws IOException {
    out.writeLong(Long.reverseBytes(buckets.size()));
    for (Map.Entry<Integer, RoaringBitmap> bucket : buckets.entrySet()) {
      out.writeInt(Integer.reverseBytes(bucket.getKey()));
      RoaringBitmap bitmap = bucket.getValue();
      bitmap.runOptimize();
      bitmap.serialize(out);
    }
  }

  /**
   * Reads the RoaringFormatSpec 64-bit portable bytes.
   *
   * @throws IllegalArgumentException when buckets are out of order, repeated or empty
   */
  public static IntervalIds deserialize(DataInput in) throws IOException {
    long count = Long.reverseBytes(in.readLong());
    if (count < 0 || count > (1L << 32)) {
      throw new IllegalArgumentException(
          "a bitmap of " + Long.toUnsignedString(count) + " buckets");
    }
    IntervalIds ids = new IntervalIds();
    Integer previous = null;
    for (long i = 0; i < count; i++) {
      int high = Integer.reverseBytes(in.readInt());
      if (previous != null && Integer.compareUnsigned(previous, high) >= 0) {
        throw new IllegalArgumentException("bitmap buckets are not in order");
      }
      previous = high;
      RoaringBitmap bitmap = new RoaringBitmap();
      bitmap.deserialize(in);
      if (!bitmap.isEmpty()) {
        ids.buckets.put(high, bitmap);
      }
    }
    return ids;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof IntervalIds ids && buckets.equals(ids.buckets);
  }

  @Override
  public int hashCode() {
    return buckets.hashCode();
  }

  @Override
  public String toString() {
    return runs().toString();
  }
}
