package dev.timelake.read;

import java.util.Locale;

/** How the reader removes older copies of a key from a group of files that may share keys. */
public enum DedupStrategy {
  /** Rank every row of the group by (insertion time, commit order) and keep the first per key. */
  MERGE,
  /**
   * List the older copies first from the key columns of the rows whose key also occurs in a
   * non-fresh file, then read the group with every filter pushed down, anti-joined to that list.
   */
  KEYS_FIRST,
  /**
   * Rank every row read, in one read of each file: for reads a key filter narrows to a few series,
   * where reading the group again for its contested keys costs more than ranking the few rows.
   */
  RANK;

  /** Parses the setting value {@code merge}, {@code keys-first} or {@code rank}. */
  public static DedupStrategy parse(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
  }
}
