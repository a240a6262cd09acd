package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import dev.timelake.catalog.Catalogs;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routed answers equal unrouted answers, and rollups computed from other rollups equal the raw
 * table's aggregates: random data with late rows and copies over two series-key columns, several
 * rollups (1 minute, 1 hour, 1 hour by site only, 1 day) created and refreshed at random points,
 * sometimes a rollback of the raw table, then random queries — coarser buckets in several spellings
 * (multiples 2–60 of a minute, hours, a day, 90 minutes, an offset origin), subsets of the keys
 * including none, ranges without a bucket with partial edges, key filters, HAVING, LIMIT — each run
 * with routing on and off. Names, types and rows must agree. Replay a failure with {@code
 * -Dtests.seed=…}; {@code -Dtimelake.differential.tables=N} and {@code
 * -Dtimelake.differential.queries=N} run more (3 tables of 100 queries by default).
 */
class RollupRoutingDifferentialTest {
  /**
   * Where a table's three days begin, each over a clock change: Europe/Berlin's skipped hour and
   * its local month's end; Berlin's repeated hour (local 02:00-03:00 twice, 00:00-02:00 UTC); New
   * York's repeated hour and Berlin's month end; Lord Howe's repeated half hour. A fifth of the
   * rows land within an hour of the change, so late rows and copies fall in the repeated hour.
   */
  private static final List<DataWindow> WINDOWS =
      List.of(
          new DataWindow("2026-03-29T00:00:00Z", "2026-03-29T01:00:00Z"),
          new DataWindow("2026-10-24T12:00:00Z", "2026-10-25T01:00:00Z"),
          new DataWindow("2026-10-31T00:00:00Z", "2026-11-01T06:00:00Z"),
          new DataWindow("2026-04-03T12:00:00Z", "2026-04-04T15:00:00Z"));

  /** Zones of calendar buckets: half-hour offsets, clock changes, a half-hour clock change. */
  private static final List<String> ZONES =
      List.of("Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC");

  private static final int DAYS = 3;
  private static final List<String> SITES = List.of("s0", "s1");
  private static final List<String> TAGS = List.of("t0", "t1", "t2");

  private static final String STATISTICS =
      "count(*) AS n, count(value) AS count_value, sum(value) AS sum_value, min(value) AS"
          + " min_value, max(value) AS max_value, avg(value) AS avg_value";
  private static final String EVERYTHING =
      STATISTICS
          + ", sum(quality) AS sum_quality, count(quality) AS count_quality, avg(quality) AS"
          + " avg_quality, first_value(value ORDER BY time) AS first_v,"
          + " last_value(value ORDER BY time) AS last_v, min(time) AS first_t,"
          + " max(time) AS last_t";

  /**
   * The rollups a table may get: name suffix, grouping columns, bucket, aggregates, and for a
   * filtered rollup its WHERE.
   */
  private static final List<String[]> ROLLUPS =
      List.of(
          new String[] {"_1m", "site, tag", "time_bucket(INTERVAL '1 minute', time)", EVERYTHING},
          new String[] {"_1h", "site, tag", "time_bucket(INTERVAL '1 hour', time)", EVERYTHING},
          new String[] {
            "_site_1h",
            "site",
            "date_trunc('hour', time)",
            STATISTICS + ", first_value(value ORDER BY time) AS first_v, min(time) AS first_t"
          },
          new String[] {"_1d", "site, tag", "time_bucket(INTERVAL '1 day', time)", STATISTICS},
          new String[] {
            "_berlin_day",
            "site, tag",
            "time_bucket(INTERVAL '1 day', time, 'Europe/Berlin')",
            STATISTICS
          });

  /** Filtered rollups, of which a table gets one half the time, besides those above. */
  private static final List<String[]> FILTERED =
      List.of(
          new String[] {
            "_good_1h",
            "site, tag",
            "time_bucket(INTERVAL '1 hour', time)",
            STATISTICS,
            "quality >= 50"
          },
          new String[] {
            "_s0_1h", "site, tag", "time_bucket(INTERVAL '1 hour', time)", STATISTICS, "site = 's0'"
          });

  private static final List<String> AGGREGATES =
      List.of(
          "count(*)",
          "count(value)",
          "sum(value)",
          "min(value)",
          "max(value)",
          "avg(value)",
          "sum(quality)",
          "avg(quality)",
          "first_value(value ORDER BY time)",
          "last_value(value ORDER BY time)",
          "count(*) + 1",
          "avg(value) * 2",
          "max(value) - min(value)");

  @TempDir Path warehouse;

  /** The raw tables rolled back past their rollups' snapshots, whose queries are not routed. */
  private final java.util.Set<String> rolledBack = new java.util.HashSet<>();

  @Test
  void routedAnswersEqualRawAnswersAndRollupsOfRollupsEqualTheRawTable() {
    TestRandom random = TestRandom.create();
    int tables = Integer.getInteger("timelake.differential.tables", 3);
    int queries = Integer.getInteger("timelake.differential.queries", 100);
    int routed = 0;
    int routable = 0; // queries of tables whose rollups were not made stale by a rollback
    try (Lake lake = Lake.open(warehouse)) {
      Table tags =
          lake.createTable(
              TableDefinition.builder("d.tags")
                  .column("tag", ColumnType.VARCHAR)
                  .column("line", ColumnType.VARCHAR)
                  .build());
      for (int i = 0; i < TAGS.size(); i++) {
        tags.newAppend().row(TAGS.get(i), "L" + (i % 2)).commit();
      }
      for (int t = 0; t < tables; t++) {
        String raw = "d.r" + t;
        DataWindow window = WINDOWS.get(random.nextInt(WINDOWS.size()));
        List<String> rollups = build(lake, raw, window, random);
        try (Session session = lake.newSession()) {
          if (random.nextInt(3) == 0) {
            // Outside UTC, time_bucket and ranges are still routed; date_trunc buckets locally.
            String zone = random.nextBoolean() ? "Asia/Kolkata" : "America/New_York";
            session.sql("SET TimeZone = '" + zone + "'").close();
          }
          for (int q = 0; q < queries; q++) {
            String query = randomQuery(random, raw, window.start());
            if (!rolledBack.contains(raw)) {
              routable++;
            }
            if (compare(session, query, random)) {
              routed++;
            }
          }
          refreshEverything(lake, raw);
          // Rollups bucket in UTC; their oracle (the definition over raw data) must too.
          session.sql("SET TimeZone = 'UTC'").close();
          for (String rollup : rollups) {
            assertRollupEqualsRaw(session, raw, rollup, random);
          }
        }
      }
    }
    // That routing happens at all (its answers are checked above): about 12-20 % of the random
    // queries are routed; with 300 queries, 1/8 failed for some seeds (35 of 300), and after
    // calendar buckets and filtered rollups joined the mix a seed whose rollups two rollbacks had
    // made stale routed 25 (319dc9163debbb53), so 1/16 — of the queries of tables not rolled
    // back (two of three were, and the third had one coarse rollup: none routed,
    // c5af2f92cdd208fb; a table now gets two rollups at least).
    if (routable > 0) { // every table rolled back: 1 run in 125
      assertThat(routed)
          .as("queries answered from rollups of %d routable (%s)", routable, random)
          .isGreaterThan(routable / 16);
    }
  }

  /** Appends, rollups created and refreshed at random points, maybe a rollback; the rollups. */
  private List<String> build(Lake lake, String raw, DataWindow window, TestRandom random) {
    Table table =
        lake.createTable(
            TableDefinition.builder(raw)
                .column("site", ColumnType.VARCHAR)
                .column("tag", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .column("quality", ColumnType.INTEGER)
                .timeColumn("time")
                .seriesKey("site", "tag")
                .option("auto-maintain", "false")
                .build());
    List<String> rollups = new ArrayList<>();
    List<String[]> pending = new ArrayList<>(ROLLUPS);
    if (random.nextBoolean()) {
      pending.add(FILTERED.get(random.nextInt(FILTERED.size())));
    }
    int appends = 4 + random.nextInt(4);
    long rollbackTo = -1;
    try (Session session = lake.newSession()) {
      for (int a = 0; a < appends; a++) {
        append(table, window, random, a);
        if (a == 1) {
          rollbackTo = table.refresh().info().snapshots().get(0).id();
        }
        if (!pending.isEmpty() && random.nextInt(3) != 0) {
          String[] spec = pending.remove(random.nextInt(pending.size()));
          rollups.add(create(session, raw, spec));
        }
        if (!rollups.isEmpty() && random.nextInt(3) == 0) {
          sql(
              session,
              "REFRESH MATERIALIZED ROLLUP " + rollups.get(random.nextInt(rollups.size())));
        }
      }
      while (rollups.size() < 2) {
        // A lone coarse rollup answers few queries: two at least, so that routing is exercised.
        rollups.add(create(session, raw, pending.remove(random.nextInt(pending.size()))));
      }
      for (String rollup : rollups) {
        if (random.nextBoolean()) {
          sql(session, "REFRESH MATERIALIZED ROLLUP " + rollup);
        }
      }
      if (random.nextInt(5) == 0) {
        rolledBack.add(raw);
        rollBack(raw, rollbackTo);
        if (random.nextBoolean()) {
          sql(session, "REFRESH MATERIALIZED ROLLUP " + rollups.get(0));
        }
      }
    }
    return rollups;
  }

  private static String create(Session session, String raw, String[] spec) {
    String name = raw + spec[0];
    sql(
        session,
        "CREATE MATERIALIZED ROLLUP "
            + name
            + " AS "
            + definition(raw, spec)
            + " WITH (refresh_interval = 'off')");
    return name;
  }

  /** The SELECT of a rollup spec over {@code raw}. */
  private static String definition(String raw, String[] spec) {
    return "SELECT "
        + spec[1]
        + ", "
        + spec[2]
        + " AS bucket, "
        + spec[3]
        + " FROM "
        + raw
        + (spec.length > 4 ? " WHERE " + spec[4] : "")
        + " GROUP BY "
        + spec[1]
        + ", bucket";
  }

  /**
   * Rows at random minutes of the three days, each series at its own second of the minute (so no
   * two series share an instant and first_value over fewer keys is well defined), a few of them
   * copies of earlier keys with new values.
   */
  private static void append(Table table, DataWindow window, TestRandom random, int index) {
    Instant t0 = window.start();
    var append =
        table
            .newAppend()
            .clock(Clock.fixed(t0.plusSeconds(86_400L * DAYS + index * 3600L), ZoneOffset.UTC));
    long nearChange = window.change().getEpochSecond() - t0.getEpochSecond() - 3600;
    int rows = 40 + random.nextInt(120);
    for (int r = 0; r < rows; r++) {
      int site = random.nextInt(SITES.size());
      int tag = random.nextInt(TAGS.size());
      long minute =
          random.nextInt(5) == 0
              ? nearChange / 60 + random.nextInt(40) * 3L
              : random.nextInt(DAYS * 1440 / 3) * 3L;
      long second = minute * 60 + site * TAGS.size() + tag;
      Double value = random.nextInt(15) == 0 ? null : (double) random.nextInt(1000) / 8;
      Integer quality = random.nextInt(10) == 0 ? null : random.nextInt(100);
      append.row(SITES.get(site), TAGS.get(tag), t0.plusSeconds(second), value, quality);
    }
    append.commit();
  }

  private void rollBack(String raw, long snapshot) {
    String[] name = raw.split("\\.");
    Catalogs.openEmbedded(warehouse)
        .loadTable(TableIdentifier.of(name[0], name[1]))
        .manageSnapshots()
        .rollbackTo(snapshot)
        .commit();
  }

  private static void refreshEverything(Lake lake, String raw) {
    lake.table(raw).newMaintenance().run();
  }

  private static String randomQuery(TestRandom random, String raw, Instant t0) {
    List<String> keys = new ArrayList<>();
    switch (random.nextInt(5)) {
      case 0 -> {}
      case 1 -> keys.add("site");
      case 2 -> keys.add("tag");
      case 3 -> keys.addAll(List.of("site", "tag"));
      default -> keys.addAll(List.of("tag", "site"));
    }
    String bucket = random.nextInt(5) == 0 ? null : randomBucket(random);
    List<String> select = new ArrayList<>(keys);
    List<String> groups = new ArrayList<>(keys);
    if (bucket != null) {
      String alias = List.of("b", "bucket", "hour", "day").get(random.nextInt(4));
      select.add(bucket + " AS " + alias);
      groups.add(random.nextBoolean() ? alias : bucket);
    }
    int aggregates = 1 + random.nextInt(4);
    for (int i = 0; i < aggregates; i++) {
      String aggregate = AGGREGATES.get(random.nextInt(AGGREGATES.size()));
      select.add(random.nextBoolean() ? aggregate : aggregate + " AS a" + i);
    }
    List<String> filters = new ArrayList<>();
    long start = random.between(-86_400, 86_400L * (DAYS + 1));
    long end = random.nextInt(20) == 0 ? start : start + random.between(1, 86_400L * DAYS);
    if (random.nextInt(4) != 0) {
      filters.add("time >= " + instant(random, t0, start));
    }
    if (random.nextInt(3) != 0) {
      filters.add("time < " + instant(random, t0, end));
    }
    if (random.nextInt(5) == 0) {
      filters.add("site = 's" + random.nextInt(SITES.size()) + "'");
    }
    if (random.nextInt(5) == 0) {
      filters.add("tag IN ('t1', 't" + random.nextInt(TAGS.size()) + "')");
    }
    if (random.nextInt(6) == 0) {
      filters.add("tag IN (SELECT tag FROM d.tags WHERE line = 'L" + random.nextInt(2) + "')");
    }
    // A filtered rollup's own term, one it does not answer, and one a key filter narrows.
    if (random.nextInt(7) == 0) {
      filters.add("quality >= 50");
    } else if (random.nextInt(20) == 0) {
      filters.add("quality >= 40");
    }
    if (random.nextInt(10) == 0) {
      filters.add("site IN ('s0')");
    }
    StringBuilder sql =
        new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM ").append(raw);
    if (!filters.isEmpty()) {
      sql.append(" WHERE ").append(String.join(" AND ", filters));
    }
    if (!groups.isEmpty()) {
      sql.append(" GROUP BY ").append(String.join(", ", groups));
    }
    if (random.nextInt(6) == 0) {
      sql.append(" HAVING count(*) > 2");
    }
    if (!groups.isEmpty() && random.nextInt(5) == 0) {
      sql.append(" ORDER BY ALL LIMIT 7");
    }
    return sql.toString();
  }

  private static String randomBucket(TestRandom random) {
    String zone = ZONES.get(random.nextInt(ZONES.size()));
    return switch (random.nextInt(13)) {
      case 0 -> "time_bucket(INTERVAL '" + (2 + random.nextInt(59)) + " minutes', time)";
      case 1 -> "time_bucket(INTERVAL '1 hour', time)";
      case 2 ->
          "time_bucket(INTERVAL '" + List.of(2, 3, 6, 12).get(random.nextInt(4)) + " hours', time)";
      case 3 -> "time_bucket(INTERVAL '1 day', time)";
      case 4 ->
          "date_trunc('" + List.of("minute", "hour", "day").get(random.nextInt(3)) + "', time)";
      case 5 -> "time_bucket(INTERVAL '90 minutes', time)";
      case 6 -> "time_bucket(INTERVAL '1 hour', time, TIMESTAMPTZ '2026-01-01 00:30:00+00')";
      case 7 ->
          "date_bin(INTERVAL '" + List.of(15, 30, 120).get(random.nextInt(3)) + " minutes', time)";
      case 8 -> {
        // Grafana's $__timeGroup without its TimescaleDB option: the bucket as epoch seconds.
        int seconds = List.of(60, 300, 3600, 5400, 86400).get(random.nextInt(5));
        yield "floor(extract(epoch from time)/" + seconds + ")*" + seconds;
      }
      case 9 -> "time_bucket(INTERVAL '1 day', time, '" + zone + "')";
      case 10 ->
          "date_trunc('"
              + List.of("day", "week", "month").get(random.nextInt(3))
              + "', time AT TIME ZONE '"
              + zone
              + "')";
      case 11 -> "time_bucket(INTERVAL '1 month', time, '" + zone + "')";
      default -> "time_bucket(INTERVAL '1 minute', time)";
    };
  }

  /** The instant {@code seconds} after the data's start, often moved to an hour's start. */
  private static String instant(TestRandom random, Instant t0, long seconds) {
    if (random.nextBoolean()) {
      seconds = seconds / 3600 * 3600;
    }
    return "TIMESTAMPTZ '" + t0 + "' + INTERVAL (" + seconds + ") SECOND";
  }

  /** Runs {@code query} routed and not; true when it was routed. */
  private static boolean compare(Session session, String query, TestRandom random) {
    session.set("rollup-routing", "true");
    Answer routed = Answer.of(session, query);
    session.set("rollup-routing", "false");
    Answer raw = Answer.of(session, query);
    String what = random + ": " + query + "\n" + String.join("\n", routed.explanation());
    assertThat(routed.columns()).as(what).isEqualTo(raw.columns());
    assertThat(routed.types()).as(what).isEqualTo(raw.types());
    SameAnswers.assertSameRowsInAnyOrder(routed.rows(), raw.rows(), what);
    return routed.routed();
  }

  /** The rollup's rows equal its definition computed from the raw table. */
  private static void assertRollupEqualsRaw(
      Session session, String raw, String rollup, TestRandom random) {
    String[] spec =
        java.util.stream.Stream.concat(ROLLUPS.stream(), FILTERED.stream())
            .filter(s -> rollup.equals(raw + s[0]))
            .findFirst()
            .orElseThrow();
    session.set("rollup-routing", "false");
    Answer expected = Answer.of(session, definition(raw, spec));
    Answer actual = Answer.of(session, "SELECT * FROM " + rollup);
    SameAnswers.assertSameRowsInAnyOrder(
        actual.rows(), expected.rows(), random + ": rollup " + rollup);
  }

  private static void sql(Session session, String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // statements without rows
    }
  }

  /** Three days of data from {@code start}, with a clock change at {@code change}. */
  private record DataWindow(Instant start, Instant change) {
    DataWindow(String start, String change) {
      this(Instant.parse(start), Instant.parse(change));
    }
  }

  /** A query's column names, types, rows and whether it was routed. */
  private record Answer(
      List<String> columns,
      List<String> types,
      List<List<Object>> rows,
      boolean routed,
      List<String> explanation) {
    static Answer of(Session session, String sql) {
      try (QueryResult result = session.sql(sql)) {
        return new Answer(
            result.columnNames(),
            result.columnTypes(),
            result.rows(),
            result.isRouted(),
            result.explanation());
      }
    }
  }
}
