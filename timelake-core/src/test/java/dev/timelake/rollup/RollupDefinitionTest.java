package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RollupRoute;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rollup statements: what a definition may be, what gets stored, refresh and rollback. */
class RollupDefinitionTest {
  private static final String PREFIX = "Cannot create rollup iot.r: ";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void createRawTable() {
    lake = Lake.open(warehouse);
    Table raw = lake.createTable(TestTables.readings("iot.raw").build());
    raw.newAppend().row("a", T0, 1.0).row("a", T0.plusSeconds(90), 3.0).row("b", T0, 5.0).commit();
    lake.createTable(TestTables.readings("iot.other").build());
    session = lake.newSession();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  private static String sql(String statement) {
    try (QueryResult result = session.sql(statement)) {
      return result.hasRows() ? String.valueOf(result.rows()) : result.message();
    }
  }

  private static List<RollupRoute> routes(String query) {
    try (QueryResult result = session.sql(query)) {
      return result.routes();
    }
  }

  private static void assertRejected(String select, String message) {
    assertThatThrownBy(() -> sql("CREATE MATERIALIZED ROLLUP iot.r AS " + select))
        .hasMessage(PREFIX + message);
    assertThat(lake.findTable(dev.timelake.TableName.parse("iot.r"))).isEmpty();
  }

  @Test
  void rejectsAWhereThatComparesTwoColumns() {
    assertRejected(
        "SELECT device, time_bucket(INTERVAL '1 minute', time) AS bucket, avg(value) FROM iot.raw"
            + " WHERE value > time GROUP BY device, bucket",
        "WHERE value > time: a rollup's filter terms each compare one column other than time"
            + " with constants (quality = 0, tag LIKE 'L01-%', line IN (1, 2)); no subquery, other"
            + " table or non-constant");
  }

  @Test
  void rejectsJoins() {
    assertRejected(
        "SELECT r.device, time_bucket(INTERVAL '1 minute', r.time) AS bucket, avg(r.value) FROM"
            + " iot.raw r JOIN iot.other o ON r.device = o.device GROUP BY 1, 2",
        "joins are not allowed: a rollup reads one table");
  }

  @Test
  void rejectsCalendarBucketsWithAnOrigin() {
    assertRejected(
        "SELECT device, time_bucket(INTERVAL '1 month', time, TIMESTAMPTZ '2026-01-15"
            + " 00:00:00+00') AS bucket, avg(value) FROM iot.raw GROUP BY device, bucket",
        "time_bucket(INTERVAL '1 month', time, TIMESTAMPTZ '2026-01-15 00:00:00+00'): months and"
            + " years are bucketed from January 2000 by time_bucket(width, time [, 'zone']);"
            + " another origin or offset is not supported");
  }

  @Test
  void rejectsBucketsWithoutAGrid() {
    assertRejected(
        "SELECT device, date_trunc('decade', time) AS bucket, avg(value) FROM iot.raw"
            + " GROUP BY device, bucket",
        "date_trunc('decade', time) has no grid rollups know (units: microseconds to year, not"
            + " decades)");
    assertRejected(
        "SELECT device, time_bucket(INTERVAL '1 day 2 hours', time, 'Europe/Berlin') AS bucket,"
            + " avg(value) FROM iot.raw GROUP BY device, bucket",
        "time_bucket(INTERVAL '1 day 2 hours', time, 'Europe/Berlin'): a width that mixes months,"
            + " days and hours has no grid; use one unit (INTERVAL '1 month', '1 day' or '36"
            + " hours')");
    assertRejected(
        "SELECT device, time_bucket(INTERVAL '1 day', time, 'Europe/Atlantis') AS bucket,"
            + " avg(value) FROM iot.raw GROUP BY device, bucket",
        "time_bucket(INTERVAL '1 day', time, 'Europe/Atlantis'): unknown time zone"
            + " 'Europe/Atlantis' (a name of the IANA time zone database, such as 'Europe/Berlin')");
  }

  @Test
  void groupsByPositionOverAnUnaliasedBucketAndAliasedKeys() {
    sql(
        "CREATE MATERIALIZED ROLLUP iot.p_1h AS SELECT device AS d, time_bucket(INTERVAL '1 hour',"
            + " time), max(value) FROM iot.raw GROUP BY 1, 2 WITH (refresh_interval = 'off')");
    try {
      assertThat(lake.table("iot.p_1h").columns().stream().map(c -> c.name()).toList())
          .containsExactly("device", "bucket", "max_value");
    } finally {
      sql("DROP MATERIALIZED ROLLUP iot.p_1h");
    }
  }

  @Test
  void storesTheOriginOfEverySpellingOfTheBucket() {
    sql(
        "CREATE MATERIALIZED ROLLUP iot.o_1h AS SELECT device, time_bucket(INTERVAL '1 hour', time,"
            + " TIMESTAMPTZ '2026-01-01 00:30:00+00') AS bucket, max(value) FROM iot.raw"
            + " GROUP BY device, bucket WITH (refresh_interval = 'off')");
    sql(
        "CREATE MATERIALIZED ROLLUP iot.t_1d AS SELECT device, date_trunc('day', time) AS bucket,"
            + " max(value) FROM iot.raw GROUP BY device, bucket WITH (refresh_interval = 'off')");
    try {
      assertThat(lake.table("iot.o_1h").settings())
          .containsEntry("rollup-bucket", "1h")
          .containsEntry("rollup-origin", "1800000000");
      assertThat(lake.table("iot.t_1d").settings())
          .containsEntry("rollup-bucket", "1d")
          .containsEntry("rollup-origin", "0");
      assertThat(sql("SELECT device, bucket, max_value FROM iot.o_1h ORDER BY device, bucket"))
          .isEqualTo("[[a, 2025-12-31T23:30Z, 3.0], [b, 2025-12-31T23:30Z, 5.0]]");
    } finally {
      sql("DROP MATERIALIZED ROLLUP iot.o_1h");
      sql("DROP MATERIALIZED ROLLUP iot.t_1d");
    }
  }

  @Test
  void rejectsGroupingByAValueColumn() {
    assertRejected(
        "SELECT value, time_bucket(INTERVAL '1 hour', time) AS bucket, count(*) FROM iot.raw"
            + " GROUP BY value, bucket",
        "column 'value' is not a series-key column of iot.raw (group only by series-key columns:"
            + " device)");
  }

  @Test
  void rejectsUnsupportedAggregates() {
    assertRejected(
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, median(value) FROM iot.raw"
            + " GROUP BY device, bucket",
        "aggregate median(value) is not supported (allowed: count(*), count(x), sum, min, max, avg,"
            + " first_value and last_value ordered by time, m4(time, x), time_weighted_state, time_weighted_mean and integral(time, x), gap_state, gap_count and gap_seconds(time, threshold), percentile_sketch(x) and approx_percentile(x, q))");
  }

  @Test
  void rejectsFirstValueNotOrderedByTime() {
    assertRejected(
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, first_value(value ORDER BY"
            + " value) FROM iot.raw GROUP BY device, bucket",
        "first_value(value ORDER BY value) must be ordered by the time column: first_value(x"
            + " ORDER BY time)");
  }

  @Test
  void rejectsAMissingBucket() {
    assertRejected(
        "SELECT device, avg(value) FROM iot.raw GROUP BY device",
        "select one time_bucket(INTERVAL '…', time) (or date_bin) as the bucket");
  }

  @Test
  void rejectsAPlainTable() {
    lake.createTable(
        dev.timelake.TableDefinition.builder("iot.tags")
            .column("device", dev.timelake.ColumnType.VARCHAR)
            .build());
    assertRejected(
        "SELECT device, time_bucket(INTERVAL '1 hour', device) AS bucket, count(*) FROM iot.tags"
            + " GROUP BY device, bucket",
        "iot.tags is a plain table; a rollup needs a time-series table");
  }

  @Test
  void storesTheDefinitionAndFillsTheRollup() {
    assertThat(
            sql(
                "CREATE MATERIALIZED ROLLUP iot.raw_1m AS SELECT device, time_bucket(INTERVAL '1"
                    + " minute', time) AS bucket, avg(value), count(*) FROM iot.raw GROUP BY"
                    + " device, bucket WITH (retention = '2y', refresh_interval = 'off')"))
        .isEqualTo("Created rollup iot.raw_1m (3 rows)");
    Map<String, String> settings = lake.table("iot.raw_1m").settings();
    assertThat(settings)
        .containsEntry("rollup-source", "iot.raw")
        .containsEntry("rollup-bucket", "1m")
        .containsEntry("rollup-origin", "946857600000000")
        .containsEntry("retention", "2y")
        .containsEntry("rollup-refresh-interval", "off")
        .containsEntry(
            "rollup-aggregates",
            "[{\"name\":\"avg_value\",\"function\":\"avg\",\"column\":\"value\"},"
                + "{\"name\":\"count\",\"function\":\"count\",\"column\":null},"
                + "{\"name\":\"count_value\",\"function\":\"count\",\"column\":\"value\"}]");
    assertThat(lake.table("iot.raw").settings()).containsEntry("rollups", "iot.raw_1m");
    assertThat(
            sql(
                "SELECT device, bucket, avg_value, count, count_value FROM iot.raw_1m"
                    + " ORDER BY device, bucket"))
        .isEqualTo(
            "[[a, 2026-01-01T00:00Z, 1.0, 1, 1], [a, 2026-01-01T00:01Z, 3.0, 1, 1],"
                + " [b, 2026-01-01T00:00Z, 5.0, 1, 1]]");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE MATERIALIZED ROLLUP iot.raw_1m AS SELECT device, time_bucket(INTERVAL"
                        + " '1 minute', time) AS bucket, count(*) FROM iot.raw GROUP BY device,"
                        + " bucket"))
        .hasMessage("Cannot create rollup iot.raw_1m: a table of that name exists");
    assertThat(sql("DROP MATERIALIZED ROLLUP iot.raw_1m")).isEqualTo("Dropped rollup iot.raw_1m");
    assertThat(lake.table("iot.raw").settings()).containsEntry("rollups", "");
    assertThat(sql("DROP MATERIALIZED ROLLUP IF EXISTS iot.raw_1m"))
        .isEqualTo("Rollup iot.raw_1m does not exist");
  }

  @Test
  void explainSaysWhetherAQueryWasRouted() {
    sql(
        "CREATE MATERIALIZED ROLLUP iot.raw_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, max(value) FROM iot.raw GROUP BY device, bucket");
    String maximum =
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS h, max(value) FROM iot.raw"
            + " GROUP BY device, h";
    assertThat(routes(maximum))
        .containsExactly(
            new RollupRoute(
                TableName.parse("iot.raw"),
                List.of(TableName.parse("iot.raw_1h")),
                Optional.empty(),
                List.of(
                    new RollupRoute.Span(
                        TableName.parse("iot.raw_1h"), 1767225600000000L, 1767229200000000L))));
    assertThat(sql("EXPLAIN " + maximum)).contains("routed to rollup iot.raw_1h");
    String minimum =
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS h, min(value) FROM iot.raw"
            + " GROUP BY device, h";
    assertThat(routes(minimum).get(0).reason())
        .hasValue(
            "no rollup of iot.raw answers by (device), 1h buckets, min(value), time {[-inf, +inf)}");
    assertThat(sql("EXPLAIN " + minimum))
        .contains("not routed: iot.raw_1h: stores nothing min(value) can be computed from");
    session.set("rollup-routing", "false");
    try {
      assertThat(routes(maximum).get(0).reason()).hasValue("rollup-routing is off");
    } finally {
      session.set("rollup-routing", "true");
    }
    sql("DROP MATERIALIZED ROLLUP iot.raw_1h");
  }

  @Test
  void refreshRecomputesOnlyChangedBucketsAndRebuildsAfterARollback() {
    Table raw = lake.createTable(TestTables.readings("iot.rb").build());
    raw.newAppend().row("a", T0, 1.0).commit();
    sql(
        "CREATE MATERIALIZED ROLLUP iot.rb_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, sum(value) FROM iot.rb GROUP BY device, bucket WITH"
            + " (refresh_interval = 'off')");
    long before = raw.refresh().info().snapshots().get(0).id();
    raw.newAppend().row("a", T0.plusSeconds(7200), 10.0).commit();
    assertThat(sql("REFRESH MATERIALIZED ROLLUP iot.rb_1h"))
        .isEqualTo("Refreshed rollup iot.rb_1h: 1 row in 1 window");
    // Roll the raw table back past the snapshot the rollup records.
    dev.timelake.catalog.Catalogs.openEmbedded(warehouse)
        .loadTable(org.apache.iceberg.catalog.TableIdentifier.of("iot", "rb"))
        .manageSnapshots()
        .rollbackTo(before)
        .commit();
    String query =
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS h, sum(value) FROM iot.rb GROUP"
            + " BY device, h ORDER BY h";
    assertThat(sql("EXPLAIN " + query))
        .contains("not routed: iot.rb_1h: reflects raw snapshot ")
        .contains("which the raw table was rolled back past; its next refresh rebuilds it");
    // The route's reason is the rollup that answers the query's shape and why it is not used.
    assertThat(routes(query).get(0).reason().orElseThrow())
        .startsWith("iot.rb_1h: reflects raw snapshot ")
        .endsWith("which the raw table was rolled back past; its next refresh rebuilds it");
    assertThat(sql(query)).isEqualTo("[[a, 2026-01-01T00:00Z, 1.0]]");
    assertThat(sql("REFRESH MATERIALIZED ROLLUP iot.rb_1h")).endsWith("(rebuilt)");
    assertThat(sql("SELECT device, bucket, sum_value FROM iot.rb_1h"))
        .isEqualTo("[[a, 2026-01-01T00:00Z, 1.0]]");
    assertThat(routes(query).get(0).isRouted()).isTrue();
    assertThat(sql(query)).isEqualTo("[[a, 2026-01-01T00:00Z, 1.0]]");
  }

  @Test
  void statementsNameWhatIsWrong() {
    assertThatThrownBy(() -> sql("REFRESH MATERIALIZED ROLLUP iot.missing"))
        .hasMessage("Rollup iot.missing does not exist");
    assertThatThrownBy(() -> sql("DROP MATERIALIZED ROLLUP iot.other"))
        .hasMessage("Cannot drop rollup iot.other: it is a table, not a rollup (use DROP TABLE)");
    assertThatThrownBy(() -> sql("CREATE MATERIALIZED ROLLUP iot.x"))
        .hasMessageStartingWith("Cannot read rollup statement 'CREATE MATERIALIZED ROLLUP iot.x'");
  }
}
