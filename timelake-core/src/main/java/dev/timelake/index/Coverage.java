package dev.timelake.index;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which (identity, interval) pairs hold a row: per entity identity, the set of occupied interval
 * ids as 64-bit Roaring bitmaps in unsigned order ({@link IntervalIds}). It says that at least one
 * row exists in a pair, never that every index value of the interval is present. Mutable; not
 * thread-safe.
 */
public final class Coverage {
  private final TreeMap<EntityIdentity, IntervalIds> byIdentity = new TreeMap<>();

  /** Marks the intervals {@code first..last} (ids, inclusive, unsigned) of {@code identity}. */
  public void add(EntityIdentity identity, long first, long last) {
    bitmap(identity).add(first, last);
  }

  /** Marks the ids {@code ids} of {@code identity}. */
  void addIds(EntityIdentity identity, IntervalIds ids) {
    bitmap(identity).or(ids);
  }

  /** Adds every pair of {@code other}. */
  public void addAll(Coverage other) {
    other.byIdentity.forEach((identity, ids) -> bitmap(identity).or(ids));
  }

  /** The occupied ids of each identity, in identity order (read-only views). */
  public Map<EntityIdentity, IntervalIds> byIdentity() {
    return Collections.unmodifiableMap(byIdentity);
  }

  /** The occupied ids of {@code identity}, empty when it has none. */
  public IntervalIds ids(EntityIdentity identity) {
    IntervalIds ids = byIdentity.get(identity);
    return ids == null ? new IntervalIds() : ids;
  }

  /** The number of occupied pairs. */
  public long pairs() {
    return byIdentity.values().stream().mapToLong(IntervalIds::cardinality).sum();
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
    for (Map.Entry<EntityIdentity, IntervalIds> entry : byIdentity.entrySet()) {
      IntervalIds theirs = other.byIdentity.get(entry.getKey());
      if (theirs == null) {
        continue;
      }
      long shared = entry.getValue().andCardinality(theirs);
      if (shared > 0) {
        if (identity == null) {
          identity = entry.getKey();
          id = entry.getValue().firstShared(theirs).orElseThrow();
        }
        count += shared;
      }
    }
    return identity == null ? Optional.empty() : Optional.of(new Overlap(count, identity, id));
  }

  private IntervalIds bitmap(EntityIdentity identity) {
    return byIdentity.computeIfAbsent(identity, i -> new IntervalIds());
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
