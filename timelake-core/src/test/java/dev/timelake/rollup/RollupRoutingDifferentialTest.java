package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routed answers equal unrouted answers: random data with late rows and copies, refreshes at random
 * points, random queries of the routable shape (ranges with partial edge buckets, key filters,
 * semi-joins). Replay a failing case with {@code -Dtimelake.seed=N}.
 */
class RollupRoutingDifferentialTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void routedAnswersEqualRawAnswers() {
    long base = Long.getLong("timelake.seed", System.nanoTime());
    int tables = Integer.getInteger("timelake.tables", 3);
    int queries = Integer.getInteger("timelake.queries", 40);
    int routed = 0;
    try (Lake lake = Lake.open(warehouse)) {
      lake.createTable(
          TableDefinition.builder("d.tags")
              .column("tag", ColumnType.VARCHAR)
              .column("line", ColumnType.VARCHAR)
              .build());
      Table tags = lake.table("d.tags");
      for (int i = 0; i < 6; i++) {
        tags.newAppend().row("tag" + i, "L" + (i % 2)).commit();
      }
      for (int t = 0; t < tables; t++) {
        long seed = base + t;
        Random random = new Random(seed);
        String raw = "d.r" + t;
        Table table =
            lake.createTable(
                TableDefinition.builder(raw)
                    .column("tag", ColumnType.VARCHAR)
                    .column("time", ColumnType.TIMESTAMPTZ)
                    .column("value", ColumnType.DOUBLE)
                    .timeColumn("time")
                    .seriesKey("tag")
                    .option("auto-maintain", "false")
                    .build());
        try (Session session = lake.newSession()) {
          int appends = 3 + random.nextInt(4);
          int refreshAt = random.nextInt(appends);
          for (int a = 0; a < appends; a++) {
            append(table, random, a);
            if (a == refreshAt) {
              session
                  .sql(
                      "CREATE MATERIALIZED ROLLUP d.r"
                          + t
                          + "_1h AS SELECT tag, time_bucket(INTERVAL"
                          + " '1 hour', time) AS bucket, avg(value) AS avg_value, min(value), max(value),"
                          + " sum(value), count(*), count(value), first_value(value ORDER BY time),"
                          + " last_value(value ORDER BY time) FROM "
                          + raw
                          + " GROUP BY tag, bucket")
                  .close();
            }
          }
          for (int q = 0; q < queries; q++) {
            String query = randomQuery(random, raw);
            session.set("rollup-routing", "true");
            List<String> explanation = new ArrayList<>();
            List<List<Object>> actual = rows(session, query, explanation);
            session.set("rollup-routing", "false");
            List<List<Object>> expected = rows(session, query, new ArrayList<>());
            assertSame(actual, expected, "seed " + seed + ": " + query + "\n" + explanation);
            if (String.join(" ", explanation).contains("routed to rollup")) {
              routed++;
            }
          }
        }
      }
    }
    assertThat(routed).as("queries answered from a rollup").isGreaterThan(tables * queries / 4);
  }

  private static void append(Table table, Random random, int index) {
    var append =
        table
            .newAppend()
            .clock(Clock.fixed(T0.plusSeconds(86_400L * 3 + index * 3600L), ZoneOffset.UTC));
    int rows = 50 + random.nextInt(200);
    for (int r = 0; r < rows; r++) {
      long second = random.nextInt(3 * 86_400 / 60) * 60L;
      Double value = random.nextInt(20) == 0 ? null : (double) random.nextInt(1000) / 8;
      append.row("tag" + random.nextInt(6), T0.plusSeconds(second), value);
    }
    append.commit();
  }

  private static String randomQuery(Random random, String raw) {
    List<String> filters = new ArrayList<>();
    if (random.nextInt(4) != 0) {
      filters.add(
          "time >= TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL ("
              + random.nextInt(200_000)
              + ") SECOND");
    }
    if (random.nextInt(3) != 0) {
      filters.add(
          "time < TIMESTAMPTZ '2026-01-02 00:00:00+00' + INTERVAL ("
              + random.nextInt(200_000)
              + ") SECOND");
    }
    if (random.nextInt(4) == 0) {
      filters.add("tag IN ('tag1', 'tag" + random.nextInt(6) + "')");
    }
    if (random.nextInt(4) == 0) {
      filters.add("tag IN (SELECT tag FROM d.tags WHERE line = 'L" + random.nextInt(2) + "')");
    }
    String where = filters.isEmpty() ? "" : " WHERE " + String.join(" AND ", filters);
    String aggregates =
        switch (random.nextInt(3)) {
          case 0 -> "avg(value), count(*)";
          case 1 -> "min(value) AS lo, max(value) AS hi, sum(value), count(value)";
          default -> "first_value(value ORDER BY time), last_value(value ORDER BY time), count(*)";
        };
    // Date-unit words as aliases: JSqlParser 5.4 parses a bare "hour" as a date unit, not a column.
    String bucket = List.of("b", "hour", "day", "bucket").get(random.nextInt(4));
    return "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS "
        + bucket
        + ", "
        + aggregates
        + " FROM "
        + raw
        + where
        + " GROUP BY tag, "
        + bucket
        + " ORDER BY tag, "
        + bucket;
  }

  private static List<List<Object>> rows(Session session, String sql, List<String> explanation) {
    try (QueryResult result = session.sql(sql)) {
      List<List<Object>> rows = result.rows();
      explanation.addAll(result.explanation());
      return rows;
    }
  }

  private static void assertSame(
      List<List<Object>> actual, List<List<Object>> expected, String what) {
    assertThat(actual).as(what).hasSameSizeAs(expected);
    for (int i = 0; i < actual.size(); i++) {
      List<Object> a = actual.get(i);
      List<Object> e = expected.get(i);
      for (int c = 0; c < a.size(); c++) {
        Object x = a.get(c);
        Object y = e.get(c);
        if (x instanceof Number nx && y instanceof Number ny) {
          assertThat(nx.doubleValue())
              .as(what + " row " + i + " column " + c)
              .isCloseTo(
                  ny.doubleValue(),
                  org.assertj.core.data.Offset.offset(
                      1e-9 * Math.max(1, Math.abs(ny.doubleValue()))));
        } else {
          assertThat(String.valueOf(x))
              .as(what + " row " + i + " column " + c)
              .isEqualTo(String.valueOf(y));
        }
      }
    }
  }
}
