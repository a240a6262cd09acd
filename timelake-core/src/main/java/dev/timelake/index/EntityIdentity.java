package dev.timelake.index;

import java.util.List;

/**
 * The values of a table's entity columns (its series key) for one series, in column order: strings,
 * 32-bit or 64-bit integers, or unsigned 64-bit integers as BigIntegers, never null. A table
 * without entity columns has one identity, the empty one. Identities order component by component,
 * strings by their UTF-8 bytes (code points), as coverage files store them.
 */
public record EntityIdentity(List<Object> values) implements Comparable<EntityIdentity> {
  /** The identity of a table without entity columns. */
  public static final EntityIdentity IMPLICIT = new EntityIdentity(List.of());

  public EntityIdentity {
    values = List.copyOf(values);
    for (Object value : values) {
      if (!(value instanceof String
          || value instanceof Integer
          || value instanceof Long
          || isUnsigned(value))) {
        throw new IllegalArgumentException(
            "an entity value is a string, an int, a long or an unsigned 64-bit BigInteger, not "
                + value);
      }
    }
  }

  /** Shorthand for {@code new EntityIdentity(List.of(values))}. */
  public static EntityIdentity of(Object... values) {
    return new EntityIdentity(List.of(values));
  }

  /** The values by column name, in column order. */
  public java.util.Map<String, Object> toMap(List<String> columns) {
    java.util.Map<String, Object> map = new java.util.LinkedHashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      map.put(columns.get(i), values.get(i));
    }
    return map;
  }

  /** The largest UBIGINT, 2^64 − 1. */
  public static final java.math.BigInteger UNSIGNED_MAX =
      java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE);

  /** A UBIGINT value: a BigInteger from 0 to 2^64 − 1. */
  static boolean isUnsigned(Object value) {
    return value instanceof java.math.BigInteger big
        && big.signum() >= 0
        && big.compareTo(UNSIGNED_MAX) <= 0;
  }

  /** The tag a component is stored with in a coverage, and the first key of its order. */
  static int tag(Object value) {
    if (value instanceof String) {
      return 1;
    }
    if (value instanceof Integer) {
      return 2;
    }
    return value instanceof Long ? 3 : 4;
  }

  /** {@code symbol = 'A', venue = 3}, or {@code (no entity columns)}. */
  public String render(List<String> columns) {
    if (values.isEmpty()) {
      return "(no entity columns)";
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      text.append(i == 0 ? "" : ", ")
          .append(columns.get(i))
          .append(" = ")
          .append(value instanceof String s ? "'" + s.replace("'", "''") + "'" : value);
    }
    return text.toString();
  }

  @Override
  public int compareTo(EntityIdentity other) {
    int common = Math.min(values.size(), other.values.size());
    for (int i = 0; i < common; i++) {
      int order = compare(values.get(i), other.values.get(i));
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(values.size(), other.values.size());
  }

  /** UTF-8 byte order is code point order; comparing code points allocates nothing. */
  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  private static int compare(Object a, Object b) {
    int tags = Integer.compare(tag(a), tag(b));
    if (tags != 0) {
      return tags;
    }
    if (a instanceof String s) {
      return compareCodePoints(s, (String) b);
    }
    if (a instanceof java.math.BigInteger big) {
      return big.compareTo((java.math.BigInteger) b);
    }
    return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
  }
}
