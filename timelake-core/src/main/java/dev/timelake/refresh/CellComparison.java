package dev.timelake.refresh;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.engine.SqlText;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.StoredAggregate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The comparison of a rollup's stored cells with the cells recomputed from raw data, as SQL over
 * two relations with the rollup's columns: a full outer join on (keys…, bucket), where a cell on
 * one side only, or whose compared columns differ, is a mismatch. Floating-point columns compare
 * within a relative tolerance (their sums and averages depend on the order rows are added in);
 * other scalar columns exactly; nested and binary columns — states such as point lists, sketches,
 * gap and time-weighted states, whose form depends on the order they were merged in — not at all.
 */
final class CellComparison {
  /** Relative tolerance of DOUBLE columns; FLOAT holds about 7 digits and gets {@link #FLOAT}. */
  private static final String DOUBLE = "1e-9";

  private static final String FLOAT = "1e-6";

  private static final String BUCKET_MICROS = "__tl_bucket_us";
  private static final String MISSING = "__tl_missing";
  private static final String EXTRA = "__tl_extra";
  private static final String MISMATCH = "__tl_mismatch";

  private final List<String> keys;
  private final String bucket;
  private final List<Column> compared;
  private final List<String> notCompared;

  private CellComparison(
      List<String> keys, String bucket, List<Column> compared, List<String> notCompared) {
    this.keys = List.copyOf(keys);
    this.bucket = bucket;
    this.compared = List.copyOf(compared);
    this.notCompared = List.copyOf(notCompared);
  }

  /** The comparison of {@code rollup}'s cells. */
  static CellComparison of(Rollup rollup) {
    List<Column> compared = new ArrayList<>();
    List<String> notCompared = new ArrayList<>();
    for (StoredAggregate aggregate : rollup.aggregates()) {
      Column column = rollup.contract().column(aggregate.name());
      if (isComparable(column.type())) {
        compared.add(column);
      } else {
        notCompared.add(column.name());
      }
    }
    return new CellComparison(rollup.keys(), rollup.bucketColumn(), compared, notCompared);
  }

  private static boolean isComparable(ColumnType type) {
    return switch (type.kind()) {
      case BLOB, STRUCT, LIST -> false;
      default -> true;
    };
  }

  /** The stored columns left out, in the rollup's order. */
  List<String> notCompared() {
    return notCompared;
  }

  /**
   * One row: the cells on either side, the distinct buckets among them, and the cells that are
   * mismatches.
   */
  String countsSql(String stored, String raw) {
    return "SELECT count(*), count(DISTINCT "
        + BUCKET_MICROS
        + "), count(*) FILTER (WHERE "
        + MISMATCH
        + ") FROM ("
        + joined(stored, raw, false)
        + ") AS __tl_cells";
  }

  /** Up to {@code limit} mismatched cells in bucket and key order, as {@link #describe} reads. */
  String examplesSql(String stored, String raw, int limit) {
    List<String> order = new ArrayList<>();
    order.add(BUCKET_MICROS);
    keys.forEach(key -> order.add(SqlText.identifier(key)));
    return "SELECT * FROM ("
        + joined(stored, raw, true)
        + ") AS __tl_cells WHERE "
        + MISMATCH
        + " ORDER BY "
        + String.join(", ", order)
        + " LIMIT "
        + limit;
  }

  /**
   * A mismatched cell as a line naming its keys and bucket and, for each column that differs, the
   * stored value and the value raw data gives; {@code row} is a row of {@link #examplesSql}.
   */
  String describe(List<Object> row) {
    List<String> cell = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      Object value = row.get(i);
      cell.add(keys.get(i) + "=" + (value instanceof String text ? SqlText.literal(text) : value));
    }
    long micros = ((Number) row.get(keys.size())).longValue();
    cell.add(bucket + "=" + Instant.EPOCH.plus(micros, ChronoUnit.MICROS));
    String where = String.join(", ", cell);
    int flags = keys.size() + 1;
    if (Boolean.TRUE.equals(row.get(flags))) {
      return where + ": missing from the rollup; raw data has rows there";
    }
    if (Boolean.TRUE.equals(row.get(flags + 1))) {
      return where + ": stored in the rollup, but raw data has no rows there";
    }
    List<String> differences = new ArrayList<>();
    int values = flags + 3;
    for (int c = 0; c < compared.size(); c++) {
      if (Boolean.TRUE.equals(row.get(values + 3 * c))) {
        differences.add(
            compared.get(c).name()
                + " stored "
                + text(row.get(values + 3 * c + 1))
                + ", raw data gives "
                + text(row.get(values + 3 * c + 2)));
      }
    }
    return where + ": " + String.join("; ", differences);
  }

  private static String text(Object value) {
    return value == null ? "NULL" : value.toString();
  }

  /**
   * The cells of both sides: keys, bucket start (µs), missing (raw only), extra (stored only),
   * mismatch, then per compared column whether it differs and, with {@code values}, both values as
   * text.
   */
  private String joined(String stored, String raw, boolean values) {
    List<String> items = new ArrayList<>();
    List<String> on = new ArrayList<>();
    for (String key : keys) {
      String s = "s." + SqlText.identifier(key);
      String r = "r." + SqlText.identifier(key);
      items.add("coalesce(" + s + ", " + r + ") AS " + SqlText.identifier(key));
      on.add(s + " = " + r);
    }
    String s = "s." + SqlText.identifier(bucket);
    String r = "r." + SqlText.identifier(bucket);
    on.add(s + " = " + r);
    items.add("epoch_us(coalesce(" + s + ", " + r + ")) AS " + BUCKET_MICROS);
    items.add(s + " IS NULL AS " + MISSING);
    items.add(r + " IS NULL AS " + EXTRA);
    List<String> mismatch = new ArrayList<>(List.of(s + " IS NULL", r + " IS NULL"));
    compared.forEach(column -> mismatch.add(differs(column)));
    items.add("(" + String.join(" OR ", mismatch) + ") AS " + MISMATCH);
    if (values) {
      for (int c = 0; c < compared.size(); c++) {
        String name = SqlText.identifier(compared.get(c).name());
        items.add(differs(compared.get(c)) + " AS __tl_differs_" + c);
        items.add("CAST(s." + name + " AS VARCHAR) AS __tl_stored_" + c);
        items.add("CAST(r." + name + " AS VARCHAR) AS __tl_raw_" + c);
      }
    }
    return "SELECT "
        + String.join(", ", items)
        + " FROM "
        + stored
        + " AS s FULL OUTER JOIN "
        + raw
        + " AS r ON "
        + String.join(" AND ", on);
  }

  /** True when the column's values differ; never NULL. */
  private static String differs(Column column) {
    String name = SqlText.identifier(column.name());
    String s = "s." + name;
    String r = "r." + name;
    String tolerance =
        switch (column.type().kind()) {
          case DOUBLE -> DOUBLE;
          case FLOAT -> FLOAT;
          default -> null;
        };
    if (tolerance == null) {
      return "(" + s + " IS DISTINCT FROM " + r + ")";
    }
    String a = "CAST(" + s + " AS DOUBLE)";
    String b = "CAST(" + r + " AS DOUBLE)";
    // Equal (NULLs, NaNs and infinities included) or close; a NULL on one side only differs.
    return "NOT ("
        + s
        + " IS NOT DISTINCT FROM "
        + r
        + " OR coalesce(abs("
        + a
        + " - "
        + b
        + ") <= "
        + tolerance
        + " * greatest(1.0, abs("
        + a
        + "), abs("
        + b
        + ")), false))";
  }
}
