package dev.timelake.fill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gap-filled queries over random readings (gaps of whole hours, late rows, resent copies with new
 * values, NULL values) against two oracles of the same query unfilled and unrouted: the fill worked
 * out in Java, and plain DuckDB's {@code generate_series} grid LEFT JOINed to those rows with the
 * carried and interpolated values found by correlated subqueries (no window, as the product uses).
 * Every bucket of the range once per series, locf and interpolate as specified, the answer the same
 * whether the aggregate is routed to the hourly and daily rollups or not.
 */
class GapFillDifferentialTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long HOUR = 3_600_000_000L;
  private static final List<String> TAGS = List.of("a", "b", "c", "d");

  @TempDir Path warehouse;

  @Test
  void gapFilledAnswersEqualTheFillOfTheUnfilledAnswer() throws java.sql.SQLException {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession();
        java.sql.Connection oracle = java.sql.DriverManager.getConnection("jdbc:duckdb:")) {
      Table table = lake.createTable(TestTables.tagReadings("d.r").build());
      TestTables.commitReadings(table.newAppend(), "tag", readings(random, 0.7, 0, 72));
      for (String width : List.of("1 hour", "1 day")) {
        sql(
            session,
            "CREATE MATERIALIZED ROLLUP d.r_"
                + width.replace(" ", "")
                + " AS SELECT tag, time_bucket(INTERVAL '"
                + width
                + "', time) AS bucket, avg(value), max(value), sum(value), count(value) FROM d.r"
                + " GROUP BY tag, bucket WITH (refresh_interval = 'off')");
      }
      // Late rows and copies of two hours after the refresh: their buckets come from raw data.
      int late = random.nextInt(70);
      TestTables.commitReadings(table.newAppend(), "tag", readings(random, 0.3, late, late + 2));
      int routed = 0;
      for (int i = 0; i < 40; i++) {
        GapFillCase query = GapFillCase.random(random);
        session.set("rollup-routing", "false");
        List<List<Object>> unfilled = rows(session, query.unfilled());
        List<List<Object>> expected = query.fill(unfilled);
        SameAnswers.assertSameRows(
            query.sqlFill(oracle, unfilled),
            expected,
            random + "\nthe SQL oracle and the Java oracle differ on\n" + query.gapFilled());
        session.set("rollup-routing", "true");
        try (QueryResult result = session.sql(query.gapFilled())) {
          routed += result.isRouted() ? 1 : 0;
          SameAnswers.assertSameRows(result.rows(), expected, random + "\n" + query.gapFilled());
        }
        try (QueryResult result = session.sql(query.sampleBy())) {
          SameAnswers.assertSameRows(result.rows(), expected, random + "\n" + query.sampleBy());
        }
      }
      assertThat(routed).as("gap-filled queries answered from a rollup").isPositive();
    }
  }

  /**
   * Readings every 5 minutes of hours {@code [from, to)} after T0, each kept with probability
   * {@code keep}, whole hours cut.
   */
  private static List<Object[]> readings(TestRandom random, double keep, int from, int to) {
    List<Object[]> readings = new ArrayList<>();
    for (String tag : TAGS) {
      for (int hour = from; hour < to; hour++) {
        if (random.nextInt(4) == 0) {
          continue; // an hour without readings: a gap to fill
        }
        for (int minute = 0; minute < 60; minute += 5) {
          if (random.nextDouble() < keep) {
            Double value = random.nextInt(20) == 0 ? null : (double) random.nextInt(1000) / 8;
            readings.add(new Object[] {tag, T0.plusSeconds(hour * 3600L + minute * 60L), value});
          }
        }
      }
    }
    return readings;
  }

  private static void sql(Session session, String sql) {
    session.sql(sql).close();
  }

  private static List<List<Object>> rows(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  /** One random gap-filled query and the fill its unfilled twin's rows give. */
  private record GapFillCase(
      String width,
      long widthMicros,
      String aggregate,
      String fill,
      long start,
      long finish,
      List<String> named,
      boolean explicit) {

    static GapFillCase random(TestRandom random) {
      String[][] widths = {{"1 hour", "1"}, {"2 hours", "2"}, {"1 day", "24"}, {"3 hours", "3"}};
      String[] width = widths[random.nextInt(widths.length)];
      long start = micros(T0) + random.between(-30, 80) * HOUR + (random.nextBoolean() ? 0 : 7);
      long finish = start + random.between(1, 60) * HOUR;
      List<String> named =
          random.nextBoolean()
              ? List.of()
              : List.of(TAGS.get(random.nextInt(TAGS.size())), "unknown");
      return new GapFillCase(
          width[0],
          Long.parseLong(width[1]) * HOUR,
          List.of("avg", "max", "sum", "count").get(random.nextInt(4)),
          List.of("", "locf", "interpolate").get(random.nextInt(3)),
          start,
          finish,
          named,
          random.nextBoolean());
    }

    String where() {
      String where =
          " WHERE time >= make_timestamptz("
              + start
              + ") AND time < make_timestamptz("
              + finish
              + ")";
      if (!named.isEmpty()) {
        where += " AND tag IN ('" + String.join("', '", named) + "')";
      }
      return where;
    }

    String unfilled() {
      return "SELECT tag, time_bucket(INTERVAL '"
          + width
          + "', time) AS b, "
          + aggregate
          + "(value) AS v FROM d.r"
          + where()
          + " GROUP BY 1, 2";
    }

    String gapFilled() {
      String bounds =
          explicit ? ", make_timestamptz(" + start + "), make_timestamptz(" + finish + ")" : "";
      String value = aggregate + "(value)";
      return "SELECT tag, time_bucket_gapfill(INTERVAL '"
          + width
          + "', time"
          + bounds
          + ") AS b, "
          + (fill.isEmpty() ? value : fill + "(" + value + ")")
          + " AS v FROM d.r"
          + where()
          + " GROUP BY tag, b";
    }

    /** The same query in QuestDB's spelling. */
    String sampleBy() {
      String unit = width.endsWith("day") ? "d" : "h";
      String mode =
          switch (fill) {
            case "locf" -> "PREV";
            case "interpolate" -> "LINEAR";
            default -> "NULL";
          };
      return "SELECT tag, time, "
          + aggregate
          + "(value) AS v FROM d.r"
          + where()
          + " SAMPLE BY "
          + widthMicros / (unit.equals("d") ? 24 * HOUR : HOUR)
          + unit
          + " FROM make_timestamptz("
          + start
          + ") TO make_timestamptz("
          + finish
          + ") FILL("
          + mode
          + ") ORDER BY tag, time";
    }

    /**
     * The expected rows from plain DuckDB: {@code unfilled} loaded into a table, a {@code
     * generate_series} grid crossed with the series and LEFT JOINed to them; an empty bucket's
     * value found by correlated subqueries (the latest earlier bucket's for locf; the nearest
     * non-NULL buckets on each side for interpolate).
     */
    List<List<Object>> sqlFill(java.sql.Connection oracle, List<List<Object>> unfilled) {
      try (java.sql.Statement statement = oracle.createStatement()) {
        statement.execute("CREATE OR REPLACE TABLE u (tag VARCHAR, b TIMESTAMPTZ, v DOUBLE)");
        try (java.sql.PreparedStatement insert =
            oracle.prepareStatement("INSERT INTO u VALUES (?, ?, ?)")) {
          for (List<Object> row : unfilled) {
            insert.setObject(1, row.get(0));
            insert.setObject(2, row.get(1));
            insert.setObject(3, row.get(2) == null ? null : ((Number) row.get(2)).doubleValue());
            insert.addBatch();
          }
          insert.executeBatch();
        }
        long first = Math.floorDiv(start, widthMicros) * widthMicros;
        String named =
            this.named.isEmpty()
                ? ""
                : " UNION SELECT unnest(['" + String.join("', '", this.named) + "'])";
        String empty =
            switch (fill) {
              case "locf" ->
                  "(SELECT p.v FROM u p WHERE p.tag = s.tag AND p.b < g.b ORDER BY p.b DESC"
                      + " LIMIT 1)";
              case "interpolate" ->
                  "(SELECT p.v + (n.v - p.v) * (epoch_us(g.b) - epoch_us(p.b))"
                      + " / (epoch_us(n.b) - epoch_us(p.b))"
                      + " FROM (SELECT b, v FROM u WHERE tag = s.tag AND b < g.b AND v IS NOT"
                      + " NULL ORDER BY b DESC LIMIT 1) p,"
                      + " (SELECT b, v FROM u WHERE tag = s.tag AND b > g.b AND v IS NOT NULL"
                      + " ORDER BY b LIMIT 1) n)";
              default -> "NULL";
            };
        String sql =
            "SELECT s.tag, g.b, CASE WHEN u.b IS NOT NULL THEN u.v ELSE "
                + empty
                + " END FROM (SELECT DISTINCT tag FROM u"
                + named
                + ") s CROSS JOIN (SELECT unnest(generate_series(make_timestamptz("
                + first
                + "), make_timestamptz("
                + (finish - 1)
                + "), INTERVAL '"
                + width
                + "')) AS b) g LEFT JOIN u ON u.tag = s.tag AND u.b = g.b ORDER BY 1, 2";
        List<List<Object>> rows = new ArrayList<>();
        try (java.sql.ResultSet result = statement.executeQuery(sql)) {
          while (result.next()) {
            rows.add(
                Arrays.asList(
                    result.getString(1),
                    result.getObject(2, OffsetDateTime.class),
                    result.getObject(3)));
          }
        }
        return rows;
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException("The SQL oracle failed: " + e.getMessage(), e);
      }
    }

    /** The expected rows, by series then bucket: the grid, the values, the fill. */
    List<List<Object>> fill(List<List<Object>> unfilled) {
      Map<String, Map<Long, Object>> bySeries = new LinkedHashMap<>();
      TreeSet<String> series = new TreeSet<>(named);
      for (List<Object> row : unfilled) {
        String tag = (String) row.get(0);
        series.add(tag);
        bySeries
            .computeIfAbsent(tag, k -> new LinkedHashMap<>())
            .put(micros((OffsetDateTime) row.get(1)), row.get(2));
      }
      List<Long> grid = new ArrayList<>();
      for (long b = Math.floorDiv(start, widthMicros) * widthMicros; b < finish; b += widthMicros) {
        grid.add(b);
      }
      List<List<Object>> expected = new ArrayList<>();
      for (String tag : series) {
        Map<Long, Object> values = bySeries.getOrDefault(tag, Map.of());
        Object[] filled = new Object[grid.size()];
        for (int i = 0; i < grid.size(); i++) {
          long b = grid.get(i);
          filled[i] = values.containsKey(b) ? values.get(b) : missing(values, grid, i);
        }
        for (int i = 0; i < grid.size(); i++) {
          expected.add(
              Arrays.asList(
                  tag, TestTables.utc(Instant.EPOCH.plusNanos(grid.get(i) * 1000)), filled[i]));
        }
      }
      return expected;
    }

    private Object missing(Map<Long, Object> values, List<Long> grid, int index) {
      long b = grid.get(index);
      if (fill.equals("locf")) {
        Long before = null;
        for (long at : values.keySet()) {
          if (at < b && (before == null || at > before)) {
            before = at;
          }
        }
        return before == null ? null : values.get(before);
      }
      if (fill.equals("interpolate")) {
        Long before = null;
        Long after = null;
        for (Map.Entry<Long, Object> entry : values.entrySet()) {
          long at = entry.getKey();
          if (entry.getValue() == null) {
            continue;
          }
          if (at < b && (before == null || at > before)) {
            before = at;
          }
          if (at > b && (after == null || at < after)) {
            after = at;
          }
        }
        if (before == null || after == null) {
          return null;
        }
        double y0 = ((Number) values.get(before)).doubleValue();
        double y1 = ((Number) values.get(after)).doubleValue();
        return y0 + (y1 - y0) * (double) (b - before) / (double) (after - before);
      }
      return null;
    }
  }

  private static long micros(Instant instant) {
    return TestTables.micros(instant);
  }

  private static long micros(OffsetDateTime time) {
    return TestTables.micros(time.toInstant());
  }
}
