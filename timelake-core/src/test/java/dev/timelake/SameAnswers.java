package dev.timelake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.assertj.core.data.Offset;

/**
 * Compares a routed answer with the unrouted one: the same rows, numbers equal up to the rounding
 * of floating-point sums (a relative 1e-9), in the same order or, for unordered queries, after
 * sorting both the same way.
 */
public final class SameAnswers {
  private SameAnswers() {}

  /** Asserts the rows agree in order. */
  public static void assertSameRows(
      List<List<Object>> actual, List<List<Object>> expected, String what) {
    assertThat(actual).as(what).hasSameSizeAs(expected);
    for (int i = 0; i < actual.size(); i++) {
      for (int c = 0; c < actual.get(i).size(); c++) {
        Object x = actual.get(i).get(c);
        Object y = expected.get(i).get(c);
        String cell =
            what + "\nrow " + i + " column " + c + "\n" + actual.get(i) + "\n" + expected.get(i);
        if (x instanceof Number nx && y instanceof Number ny) {
          assertThat(nx.doubleValue())
              .as(cell)
              .isCloseTo(
                  ny.doubleValue(), Offset.offset(1e-9 * Math.max(1, Math.abs(ny.doubleValue()))));
        } else {
          assertThat(String.valueOf(x)).as(cell).isEqualTo(String.valueOf(y));
        }
      }
    }
  }

  /** Asserts the rows agree once both are sorted. */
  public static void assertSameRowsInAnyOrder(
      List<List<Object>> actual, List<List<Object>> expected, String what) {
    assertSameRows(sorted(actual), sorted(expected), what);
  }

  /** Rows by their printed values, numbers rounded so that rounding cannot reorder them. */
  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(SameAnswers::sortKey));
    return copy;
  }

  private static String sortKey(List<Object> row) {
    StringBuilder key = new StringBuilder();
    for (Object value : row) {
      key.append(value instanceof Number number ? numberKey(number) : String.valueOf(value))
          .append('|');
    }
    return key.toString();
  }

  /**
   * A number rounded to 7 digits, so that the rounding of sums cannot reorder rows; a large whole
   * number (seconds since 1970, a count) exactly, since 7 digits would tell none of them apart.
   */
  private static String numberKey(Number number) {
    double value = number.doubleValue();
    if (Math.abs(value) >= 1e6 && value == Math.rint(value) && Math.abs(value) < 1e18) {
      return String.format(Locale.ROOT, "%020d", (long) value);
    }
    return String.format(Locale.ROOT, "%.6e", value);
  }
}
