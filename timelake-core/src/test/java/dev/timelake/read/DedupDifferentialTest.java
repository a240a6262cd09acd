package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dedup on read against an oracle: random appends with late rows, copies with newer, older and
 * equal insertion times, and random queries with key and value filters, for both strategies. The
 * oracle is plain DuckDB keeping the latest copy of every key with QUALIFY over all rows. The seed
 * of a failing case is in the assertion message; set {@code -Dtests.seed=<hex>} to replay it.
 */
class DedupDifferentialTest {
  private static final long HOUR = 3_600_000_000L;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void dedupOnReadEqualsOracleOnRandomData() throws Exception {
    long base = TestRandom.seed();
    int tables = Integer.getInteger("timelake.tables", 6);
    int queries = Integer.getInteger("timelake.queries", 40);
    int cases = 0;
    try (Lake lake = Lake.open(warehouse);
        Connection oracle = DriverManager.getConnection("jdbc:duckdb:")) {
      try (Statement statement = oracle.createStatement()) {
        statement.execute("SET TimeZone = 'UTC'");
      }
      for (int t = 0; t < tables; t++) {
        long seed = base + t;
        Random random = new Random(seed);
        String name = "d.t" + t;
        List<Object[]> all = load(lake, name, random);
        loadOracle(oracle, all);
        try (Session session = lake.newSession()) {
          for (int q = 0; q < queries; q++) {
            String query = randomQuery(random);
            for (String strategy : List.of("merge", "keys-first")) {
              session.set("read-dedup-strategy", strategy);
              List<String> actual = rows(session, query.replace("$T", name));
              List<String> expected = oracleRows(oracle, query.replace("$T", "winners"));
              assertThat(actual)
                  .as("%s, strategy %s, query %s", TestRandom.describe(seed), strategy, query)
                  .isEqualTo(expected);
              cases++;
            }
          }
        }
      }
    }
    assertThat(cases).isEqualTo(tables * queries * 2);
  }

  /** Appends random batches; returns every appended row as (tag, µs, value, ingest µs, order). */
  private static List<Object[]> load(Lake lake, String name, Random random) {
    Table table =
        lake.createTable(
            TableDefinition.builder(name)
                .column("tag", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .timeColumn("time")
                .seriesKey("tag")
                .chunk(random.nextBoolean() ? dev.timelake.Chunk.DAY : dev.timelake.Chunk.HOUR)
                .build());
    List<Object[]> all = new ArrayList<>();
    int appends = 2 + random.nextInt(5);
    long order = 0;
    long now = 10 * HOUR;
    for (int a = 0; a < appends; a++) {
      now += HOUR;
      // Insertion times mostly move forward, sometimes go back (skewed clocks), sometimes repeat.
      long ingest = now + (random.nextInt(4) == 0 ? -random.nextInt(5) * HOUR : 0);
      boolean explicitIngest = random.nextInt(4) == 0;
      var append =
          table.newAppend().clock(Clock.fixed(T0.plusNanos(ingest * 1000), ZoneOffset.UTC));
      int rows = 1 + random.nextInt(40);
      for (int r = 0; r < rows; r++) {
        String tag = "tag" + random.nextInt(4);
        // Mostly recent times, some late ones, on a coarse grid so keys collide.
        long time =
            random.nextInt(5) == 0
                ? (random.nextInt((int) (now / HOUR) * 4)) * (HOUR / 4)
                : now - random.nextInt(8) * (HOUR / 4);
        Double value = random.nextInt(10) == 0 ? null : (double) random.nextInt(100);
        long rowIngest = explicitIngest ? ingest - random.nextInt(3) * HOUR : ingest;
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("tag", tag);
        row.put("time", T0.plusNanos(time * 1000));
        row.put("value", value);
        if (explicitIngest) {
          row.put("_ingest_ts", T0.plusNanos(rowIngest * 1000));
        }
        append.row(row);
        all.add(new Object[] {tag, time, value, rowIngest, order++});
      }
      append.commit();
    }
    return all;
  }

  private static void loadOracle(Connection oracle, List<Object[]> all) throws Exception {
    try (Statement statement = oracle.createStatement()) {
      statement.execute(
          "CREATE OR REPLACE TABLE raw (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE,"
              + " ingest BIGINT, ord BIGINT)");
      var insert =
          oracle.prepareStatement(
              "INSERT INTO raw VALUES (?, make_timestamptz(? + "
                  + T0.getEpochSecond() * 1_000_000L
                  + "), ?, ?, ?)");
      for (Object[] row : all) {
        insert.setString(1, (String) row[0]);
        insert.setLong(2, (Long) row[1]);
        insert.setObject(3, row[2]);
        insert.setLong(4, (Long) row[3]);
        insert.setLong(5, (Long) row[4]);
        insert.addBatch();
      }
      insert.executeBatch();
      statement.execute(
          "CREATE OR REPLACE TABLE winners AS SELECT tag, time, value FROM raw QUALIFY"
              + " row_number() OVER (PARTITION BY tag, time ORDER BY ingest DESC, ord DESC) = 1");
    }
  }

  private static String randomQuery(Random random) {
    List<String> filters = new ArrayList<>();
    if (random.nextBoolean()) {
      long from = random.nextInt(16) * (HOUR / 2);
      filters.add(
          "time >= TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL ("
              + from / 1_000_000
              + ") SECOND");
    }
    if (random.nextBoolean()) {
      filters.add(
          "time < TIMESTAMPTZ '2026-01-01 08:00:00+00' + INTERVAL ("
              + random.nextInt(10)
              + ") HOUR");
    }
    if (random.nextInt(3) == 0) {
      filters.add("tag = 'tag" + random.nextInt(5) + "'");
    }
    if (random.nextInt(4) == 0) {
      filters.add("tag IN ('tag" + random.nextInt(4) + "', 'tag" + random.nextInt(4) + "')");
    }
    if (random.nextInt(5) == 0) {
      // An OR of key terms (pruning keeps both sides), with a bound in microseconds.
      filters.add(
          "(tag = 'tag"
              + random.nextInt(5)
              + "' OR time < TIMESTAMPTZ '2026-01-01 0"
              + random.nextInt(8)
              + ":00:00.00000"
              + random.nextInt(10)
              + "+00')");
    }
    if (random.nextInt(3) == 0) {
      filters.add("value > " + random.nextInt(100));
    }
    if (random.nextInt(6) == 0) {
      filters.add("value IS NULL");
    }
    String where = filters.isEmpty() ? "" : " WHERE " + String.join(" AND ", filters);
    return switch (random.nextInt(4)) {
      case 0 -> "SELECT tag, time, value FROM $T" + where + " ORDER BY ALL";
      case 1 -> "SELECT tag, time FROM $T" + where + " ORDER BY ALL";
      case 2 -> "SELECT count(*), sum(value), min(time) FROM $T" + where;
      default -> "SELECT tag, count(*), max(value) FROM $T" + where + " GROUP BY tag ORDER BY tag";
    };
  }

  private static List<String> rows(Session session, String sql) {
    List<String> rows = new ArrayList<>();
    try (QueryResult result = session.sql(sql)) {
      for (List<Object> row : result.rows()) {
        rows.add(String.valueOf(row));
      }
    }
    return rows;
  }

  private static List<String> oracleRows(Connection oracle, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Statement statement = oracle.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(String.valueOf(row));
      }
    }
    return rows;
  }
}
