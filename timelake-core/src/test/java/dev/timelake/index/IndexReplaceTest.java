package dev.timelake.index;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Append;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code on_conflict = 'replace'}: the newest write per series and index interval wins, by the
 * winner rule of copies (insertion time, then commit order, then the later row of one append), on
 * every read path: filtered scans, compaction, the newest row per series and rollups.
 */
class IndexReplaceTest {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final long WIDTH = 15;

  @TempDir Path warehouse;

  private static TableDefinition.Builder prices(String name, String granularity) {
    return TableDefinition.builder(name)
        .column("symbol", ColumnType.VARCHAR)
        .column("ts", ColumnType.TIMESTAMPTZ)
        .column("price", ColumnType.DOUBLE)
        .indexColumn("ts")
        .entityColumns("symbol")
        .indexGranularity(granularity)
        .onConflict("replace")
        .option("auto-maintain", "false");
  }

  @Test
  void aLaterRowOfAnIntervalReplacesTheEarlierOneEvenAtAnotherTime() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.createTable(prices("market.p", "1m").build());
      append(table, 1, row("A", 50, 1.0), row("B", 10, 7.0));
      append(table, 2, row("A", 20, 2.0));

      assertThat(query(lake, "SELECT symbol, second(ts), price FROM market.p ORDER BY symbol"))
          .containsExactly(List.of("A", 20L, 2.0), List.of("B", 10L, 7.0));
      // The replaced row lies outside the filter, the new one inside, and the reverse.
      assertThat(query(lake, "SELECT price FROM market.p WHERE symbol = 'A' AND " + at(40, 60)))
          .isEmpty();
      assertThat(query(lake, "SELECT price FROM market.p WHERE symbol = 'A' AND " + at(0, 30)))
          .containsExactly(List.of(2.0));
      assertThat(
              query(
                  lake,
                  "SELECT price FROM market.p WHERE ts = TIMESTAMPTZ '2026-03-01 10:00:50+00'"))
          .isEmpty();
      assertThat(
              query(
                  lake,
                  "SELECT symbol, second(ts) FROM market.p LATEST ON ts PARTITION BY symbol"
                      + " ORDER BY symbol"))
          .containsExactly(List.of("A", 20L), List.of("B", 10L));
      assertThat(
              table.refresh().indexCoverage().ratio(Map.of("symbol", "A"), T0, T0.plusSeconds(60)))
          .isEqualTo(1.0);

      table.refresh().newMaintenance().run();
      assertThat(query(lake, "SELECT symbol, second(ts), price FROM market.p ORDER BY symbol"))
          .containsExactly(List.of("A", 20L, 2.0), List.of("B", 10L, 7.0));
    }
  }

  @Test
  void theLaterRowOfOneAppendWinsItsInterval() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.createTable(prices("market.p", "1m").build());
      append(table, 1, row("A", 50, 1.0), row("A", 5, 2.0), row("A", 70, 3.0));

      assertThat(query(lake, "SELECT second(ts), price FROM market.p ORDER BY ts"))
          .containsExactly(List.of(5L, 2.0), List.of(10L, 3.0));
    }
  }

  @Test
  void randomAppendsReadAsTheNewestRowPerSeriesAndInterval() {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      Table table = lake.createTable(prices("market.r", WIDTH + "s").build());
      sql(
          session,
          "CREATE MATERIALIZED ROLLUP market.r_30s AS SELECT symbol, time_bucket(INTERVAL '30"
              + " seconds', ts) AS bucket, count(*) AS n, sum(price) AS total FROM market.r GROUP"
              + " BY symbol, bucket WITH (refresh_interval = 'off')");
      Map<List<Object>, Row> oracle = new LinkedHashMap<>();
      for (int batch = 0; batch < 27; batch++) {
        List<Row> rows = new ArrayList<>();
        int size = 1 + random.nextInt(6);
        for (int i = 0; i < size; i++) {
          rows.add(
              row(
                  List.of("a", "b", "c").get(random.nextInt(3)),
                  random.between(-120, 600),
                  random.nextInt(6) == 0 ? null : (double) random.nextInt(100)));
        }
        append(table, batch, rows.toArray(Row[]::new));
        rows.forEach(row -> oracle.put(row.pair(), row));
        if (batch % 13 == 12) {
          table.refresh().newMaintenance().run();
        }
        if (batch % 7 == 6) {
          sql(session, "REFRESH MATERIALIZED ROLLUP market.r_30s");
        }
        for (int q = 0; q < 3; q++) {
          long from = random.between(-130, 610);
          long to = from + random.between(1, 200);
          String context = random + " batch " + batch + " range " + from + ".." + to;
          // A filter on the series ranks their rows in one read; without one, the groups merge.
          String symbol = q == 2 ? "b" : null;
          assertThat(
                  query(
                      lake,
                      "SELECT symbol, epoch(ts)::BIGINT - "
                          + T0.getEpochSecond()
                          + ", price FROM market.r WHERE "
                          + (symbol == null ? "" : "symbol = '" + symbol + "' AND ")
                          + at(from, to)
                          + " ORDER BY symbol, ts"))
              .as(context)
              .isEqualTo(
                  expected(oracle, from, to).stream()
                      .filter(row -> symbol == null || row.get(0).equals(symbol))
                      .toList());
        }
      }
      sql(session, "REFRESH MATERIALIZED ROLLUP market.r_30s");
      String totals =
          "SELECT symbol, time_bucket(INTERVAL '30 seconds', ts) AS bucket, count(*) AS n,"
              + " sum(price) AS total FROM market.r GROUP BY symbol, bucket ORDER BY symbol,"
              + " bucket";
      session.set("rollup-routing", "false");
      List<List<Object>> raw = rows(session, totals);
      assertThat(rows(session, "SELECT * FROM market.r_30s ORDER BY symbol, bucket"))
          .as(random.toString())
          .isEqualTo(raw);
      session.set("rollup-routing", "true");
      assertThat(rows(session, totals)).as(random.toString()).isEqualTo(raw);
      assertThat(raw.stream().mapToLong(r -> ((Number) r.get(2)).longValue()).sum())
          .isEqualTo(oracle.size());
    }
  }

  @Test
  void aRollupWhoseBucketsSplitIntervalsIsRefused() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      lake.createTable(prices("market.p", "1m").build());
      assertThatThrownBy(
              () ->
                  sql(
                      session,
                      "CREATE MATERIALIZED ROLLUP market.p_30s AS SELECT symbol,"
                          + " time_bucket(INTERVAL '30 seconds', ts) AS bucket, count(*) AS n"
                          + " FROM market.p GROUP BY symbol, bucket"))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("market.p_30s")
          .hasMessageContaining("whole intervals")
          .hasMessageContaining("30s");
      assertThat(lake.rollups(dev.timelake.TableName.parse("market.p"))).isEmpty();
    }
  }

  @Test
  void replaceWithoutAGranularityIsRefused() {
    try (Lake lake = Lake.open(warehouse)) {
      assertThatThrownBy(
              () ->
                  lake.createTable(
                      TableDefinition.builder("market.x")
                          .column("ts", ColumnType.TIMESTAMPTZ)
                          .indexColumn("ts")
                          .onConflict("replace")
                          .build()))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("market.x")
          .hasMessageContaining("index_granularity");
      assertThat(lake.findTable(dev.timelake.TableName.parse("market.x")).isPresent()).isFalse();
    }
  }

  @Test
  void replaceWithDedupOffIsRefused() {
    try (Lake lake = Lake.open(warehouse)) {
      assertThatThrownBy(
              () -> lake.createTable(prices("market.x", "1m").option("dedup", "false").build()))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("Cannot create market.x")
          .hasMessageContaining("dedup = false");
      assertThat(lake.findTable(dev.timelake.TableName.parse("market.x")).isPresent()).isFalse();
    }
  }

  @Test
  void replaceWithIntervalsAcrossTimePartitionsIsRefused() {
    try (Lake lake = Lake.open(warehouse)) {
      assertThatThrownBy(() -> lake.createTable(prices("market.x", "2d").build()))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("Cannot create market.x")
          .hasMessageContaining("divides a day, and 2 days does not");
      assertThatThrownBy(
              () ->
                  lake.createTable(
                      prices("market.x", "7 minutes").chunk(dev.timelake.Chunk.HOUR).build()))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("divides an hour, and 7 minutes does not");
      assertThat(lake.findTable(dev.timelake.TableName.parse("market.x")).isPresent()).isFalse();
      lake.createTable(prices("market.ok", "20 minutes").chunk(dev.timelake.Chunk.HOUR).build());
    }
  }

  @Test
  void anUnknownOnConflictActionIsRefusedWithTheChoices() {
    try (Lake lake = Lake.open(warehouse)) {
      assertThatThrownBy(
              () -> lake.createTable(prices("market.x", "1m").onConflict("ignore").build()))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("ignore")
          .hasMessageContaining("replace");
      assertThat(lake.findTable(dev.timelake.TableName.parse("market.x")).isPresent()).isFalse();
    }
  }

  @Test
  void replaceIsAcceptedFromSql() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      sql(
          session,
          "CREATE TABLE market.s (symbol VARCHAR, ts TIMESTAMPTZ, price DOUBLE) WITH"
              + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m',"
              + " on_conflict = 'replace')");
      sql(session, "INSERT INTO market.s VALUES ('A', TIMESTAMPTZ '2026-03-01 10:00:10+00', 1)");
      sql(session, "INSERT INTO market.s VALUES ('A', TIMESTAMPTZ '2026-03-01 10:00:40+00', 2)");
      assertThat(rows(session, "SELECT price FROM market.s")).containsExactly(List.of(2.0));
    }
  }

  /** A row {@code second} seconds after T0. */
  private record Row(String symbol, long second, Double price) {
    List<Object> pair() {
      return List.of(symbol, Math.floorDiv(second, WIDTH));
    }
  }

  private static Row row(String symbol, long second, Double price) {
    return new Row(symbol, second, price);
  }

  /** Appends the rows in one commit whose insertion time grows with {@code batch}. */
  private static void append(Table table, int batch, Row... rows) {
    Append append =
        table
            .refresh()
            .newAppend()
            .clock(Clock.fixed(T0.plusSeconds(3_600L + batch), ZoneOffset.UTC));
    for (Row row : rows) {
      append.row(row.symbol(), T0.plusSeconds(row.second()).atOffset(ZoneOffset.UTC), row.price());
    }
    append.commit();
  }

  private static List<List<Object>> expected(Map<List<Object>, Row> oracle, long from, long to) {
    return oracle.values().stream()
        .filter(row -> row.second() >= from && row.second() < to)
        .sorted(Comparator.comparing(Row::symbol).thenComparingLong(Row::second))
        .map(row -> Arrays.<Object>asList(row.symbol(), row.second(), row.price()))
        .toList();
  }

  /** {@code ts} in [T0 + from s, T0 + to s). */
  private static String at(long from, long to) {
    return "ts >= " + instant(from) + " AND ts < " + instant(to);
  }

  private static String instant(long second) {
    return "TIMESTAMPTZ '"
        + T0.plusSeconds(second).toString().replace("T", " ").replace("Z", "+00")
        + "'";
  }

  private static List<List<Object>> rows(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private static void sql(Session session, String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // statements without rows
    }
  }
}
