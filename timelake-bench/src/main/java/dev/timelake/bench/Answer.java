package dev.timelake.bench;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The rows a query returned, normalized so that answers from Timelake and from plain DuckDB
 * compare: integers as {@code Long}, decimals and floats as {@code Double}, timestamps as {@code
 * Instant}, anything else as its text; rows sorted. Doubles compare with a relative tolerance,
 * since a sum in another order differs in its last bits.
 */
record Answer(List<List<Object>> rows) {
  /** Relative difference under which two doubles are the same answer. */
  static final double TOLERANCE = 1e-9;

  private static final Comparator<List<Object>> ROW_ORDER = Answer::compareRows;

  Answer {
    List<List<Object>> sorted = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<Object> normalized = new ArrayList<>(row.size());
      for (Object value : row) {
        normalized.add(normalize(value));
      }
      sorted.add(normalized);
    }
    sorted.sort(ROW_ORDER);
    rows = List.copyOf(sorted.stream().map(Answer::unmodifiable).toList());
  }

  private static List<Object> unmodifiable(List<Object> row) {
    return Collections.unmodifiableList(row);
  }

  /** The sum of every numeric value, for telling answers apart at a glance. */
  double checksum() {
    double sum = 0;
    for (List<Object> row : rows) {
      for (Object value : row) {
        if (value instanceof Number number) {
          sum += number.doubleValue();
        }
      }
    }
    return sum;
  }

  /**
   * How this answer differs from {@code expected}: empty when they agree, else e.g. {@code 3,002
   * rows vs 3,000} or {@code 12 of 3,000 rows differ}.
   */
  Optional<String> difference(Answer expected) {
    if (rows.size() != expected.rows.size()) {
      return Optional.of(
          String.format(Locale.ROOT, "%,d rows vs %,d", rows.size(), expected.rows.size()));
    }
    int differing = 0;
    for (int i = 0; i < rows.size(); i++) {
      if (!sameRow(rows.get(i), expected.rows.get(i))) {
        differing++;
      }
    }
    return differing == 0
        ? Optional.empty()
        : Optional.of(String.format(Locale.ROOT, "%,d of %,d rows differ", differing, rows.size()));
  }

  private static boolean sameRow(List<Object> a, List<Object> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!sameValue(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  static boolean sameValue(Object a, Object b) {
    if (a instanceof Double x && b instanceof Double y) {
      return x.equals(y) || Math.abs(x - y) <= TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
    }
    if (a instanceof Number x && b instanceof Number y) {
      return sameValue(x.doubleValue(), y.doubleValue());
    }
    return Objects.equals(a, b);
  }

  static Object normalize(Object value) {
    if (value == null || value instanceof String || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Long || value instanceof Double) {
      return value;
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof BigInteger big) {
      return big.bitLength() < 64 ? (Object) big.longValue() : (Object) big.doubleValue();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.doubleValue();
    }
    if (value instanceof OffsetDateTime time) {
      return time.toInstant();
    }
    if (value instanceof ZonedDateTime time) {
      return time.toInstant();
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      return timestamp.toInstant();
    }
    if (value instanceof Instant) {
      return value;
    }
    return value.toString();
  }

  private static int compareRows(List<Object> a, List<Object> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int order = compareValues(a.get(i), b.get(i));
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareValues(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a instanceof Instant x && b instanceof Instant y) {
      return x.compareTo(y);
    }
    return a.toString().compareTo(b.toString());
  }
}
