package dev.timelake.index;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Which (identity, interval) pairs hold a row: per entity identity, the set of occupied interval
 * ids as a 64-bit Roaring bitmap in unsigned order. It says that at least one row exists in a pair,
 * never that every index value of the interval is present. Mutable; not thread-safe.
 */
public final class Coverage {
  private final TreeMap<EntityIdentity, Roaring64NavigableMap> byIdentity = new TreeMap<>();

  /** Marks the intervals {@code first..last} (ids, inclusive, unsigned) of {@code identity}. */
  public void add(EntityIdentity identity, long first, long last) {
    Roaring64NavigableMap ids = bitmap(identity);
    if (last == -1L) {
      // addRange takes an exclusive end, which the last id of the domain has not.
      ids.addLong(last);
      if (first != last) {
        ids.addRange(first, last);
      }
    } else {
      ids.addRange(first, last + 1);
    }
  }

  /** Marks the ids {@code ids} of {@code identity}. */
  void addIds(EntityIdentity identity, Roaring64NavigableMap ids) {
    bitmap(identity).or(ids);
  }

  /** Adds every pair of {@code other}. */
  public void addAll(Coverage other) {
    other.byIdentity.forEach((identity, ids) -> bitmap(identity).or(ids));
  }

  /** The occupied ids of each identity, in identity order (read-only views). */
  public Map<EntityIdentity, Roaring64NavigableMap> byIdentity() {
    return Collections.unmodifiableMap(byIdentity);
  }

  /** The occupied ids of {@code identity}, empty when it has none. */
  public Roaring64NavigableMap ids(EntityIdentity identity) {
    Roaring64NavigableMap ids = byIdentity.get(identity);
    return ids == null ? new Roaring64NavigableMap(false) : ids;
  }

  /** The number of occupied pairs. */
  public long pairs() {
    return byIdentity.values().stream().mapToLong(Roaring64NavigableMap::getLongCardinality).sum();
  }

  public boolean isEmpty() {
    return pairs() == 0;
  }

  /** A pair of two coverages that both hold, and how many such pairs there are. */
  public record Overlap(long pairs, EntityIdentity exampleIdentity, long exampleId) {}

  /** The pairs this coverage shares with {@code other}, with the first as example. */
  public Optional<Overlap> overlap(Coverage other) {
    long count = 0;
    EntityIdentity identity = null;
    long id = 0;
    for (Map.Entry<EntityIdentity, Roaring64NavigableMap> entry : byIdentity.entrySet()) {
      Roaring64NavigableMap theirs = other.byIdentity.get(entry.getKey());
      if (theirs == null) {
        continue;
      }
      long shared = Roaring64NavigableMap.andCardinality(entry.getValue(), theirs);
      if (shared > 0) {
        if (identity == null) {
          identity = entry.getKey();
          // first() of an intersection fails on the empty buckets it keeps; the iterator skips
          // them.
          id = Roaring64NavigableMap.and(entry.getValue(), theirs).getLongIterator().next();
        }
        count += shared;
      }
    }
    return identity == null ? Optional.empty() : Optional.of(new Overlap(count, identity, id));
  }

  private Roaring64NavigableMap bitmap(EntityIdentity identity) {
    return byIdentity.computeIfAbsent(identity, i -> new Roaring64NavigableMap(false));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Coverage coverage && byIdentity.equals(coverage.byIdentity);
  }

  @Override
  public int hashCode() {
    return byIdentity.hashCode();
  }

  @Override
  public String toString() {
    return "Coverage" + byIdentity;
  }
}
