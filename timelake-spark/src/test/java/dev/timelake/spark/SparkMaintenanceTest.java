package dev.timelake.spark;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.MaintenanceReport;
import dev.timelake.Table;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Maintenance as a Spark job: the table reads the same afterwards in Timelake's reader and in
 * Spark's, its contract (summary keys, sequence numbers) is what an embedded run leaves, and an
 * embedded writer's appends meanwhile stay.
 */
class SparkMaintenanceTest extends WithSparkLake {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

  private static void load(Table table, TestRandom random) {
    for (int a = 0; a < 12; a++) {
      Instant ingest = T0.plus(random.nextInt(3), ChronoUnit.HOURS);
      var append = table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC));
      for (int r = 0; r < 60; r++) {
        Instant time = T0.plus(random.nextInt(4 * 24 * 60), ChronoUnit.MINUTES);
        append.row("d" + random.nextInt(6), time, (double) random.nextInt(1000));
      }
      append.commit();
    }
  }

  private static List<List<Object>> rows(String table) {
    return query(lake, "SELECT device, time, value, _ingest_ts FROM " + table + " ORDER BY 1, 2");
  }

  @Test
  void aTableMaintainedBySparkReadsTheSameEverywhere() {
    TestRandom random = TestRandom.create();
    Table table = lake.createTable(TestTables.readings("spark.m").build());
    load(table, random);
    List<List<Object>> before = rows("spark.m");
    long sparkBefore = TimelakeSpark.read(spark, address, "spark.m").count();

    MaintenanceReport report = TimelakeSpark.maintain(spark, address, "spark.m");

    assertThat(report.partitionsRewritten()).as("%s", random).isPositive();
    assertThat(report.filesAfter()).isLessThan(report.filesBefore());
    assertThat(rows("spark.m")).as("%s", random).isEqualTo(before);
    assertThat(TimelakeSpark.read(spark, address, "spark.m").count()).isEqualTo(sparkBefore);
    var snapshots = lake.table("spark.m").info().snapshots();
    Map<String, String> summary = snapshots.get(snapshots.size() - 1).summary();
    assertThat(summary).containsEntry("timelake.operation", "compaction");
    // Nothing is left to merge: an embedded run afterwards finds the same layout.
    assertThat(table.newMaintenance().run().partitionsRewritten()).isZero();
  }

  @Test
  void rollupsRefreshedBySparkHoldWhatTheRawDataGives() {
    TestRandom random = TestRandom.create();
    Table table = lake.createTable(TestTables.readings("spark.raw").build());
    load(table, random);
    for (String width : List.of("1 minute", "1 hour")) {
      String name = "spark.raw_" + width.replace(" ", "");
      try (var session = lake.newSession();
          var ignored =
              session.sql(
                  "CREATE MATERIALIZED ROLLUP "
                      + name
                      + " AS SELECT device, time_bucket(INTERVAL '"
                      + width
                      + "', time) AS bucket, count(*) AS n, sum(value) AS total FROM spark.raw"
                      + " GROUP BY device, bucket WITH (refresh_interval = 'off')")) {
        // created and filled
      }
    }
    load(table, random); // late rows and copies the rollups do not reflect yet

    var reports = TimelakeSpark.refreshAll(spark, address, "spark.raw");

    assertThat(reports).hasSize(2).allMatch(report -> report.windows() > 0);
    for (String width : List.of("1 minute", "1 hour")) {
      String name = "spark.raw_" + width.replace(" ", "");
      assertThat(query(lake, "SELECT device, bucket, n, total FROM " + name + " ORDER BY 1, 2"))
          .as("%s, %s", random, name)
          .isEqualTo(
              unrouted(
                  "SELECT device, time_bucket(INTERVAL '"
                      + width
                      + "', time) AS bucket, count(*), sum(value) FROM spark.raw GROUP BY ALL"
                      + " ORDER BY 1, 2"));
    }
  }

  /** Rows of a query answered from raw data, never from a rollup. */
  private static List<List<Object>> unrouted(String sql) {
    try (var session = lake.newSession().set("rollup-routing", "false");
        var result = session.sql(sql)) {
      return result.rows();
    }
  }

  @Test
  void appendsDuringASparkMaintenanceStay() {
    TestRandom random = TestRandom.create();
    Table table = lake.createTable(TestTables.readings("spark.busy").build());
    load(table, random);
    var maintenance = table.newMaintenance().distribute();
    table.newAppend().row("late", T0, 1.0).commit(); // an embedded writer, meanwhile
    var results =
        org.apache.spark.api.java.JavaSparkContext.fromSparkContext(spark.sparkContext())
            .parallelize(maintenance.tasks(), Math.max(1, maintenance.tasks().size()))
            .map(task -> task.run(address.lake()))
            .collect();
    maintenance.commit(results);

    assertThat(query(lake, "SELECT count(*) FROM spark.busy WHERE device = 'late'"))
        .containsExactly(List.of(1L));
    assertThat(TimelakeSpark.read(spark, address, "spark.busy").where("device = 'late'").count())
        .isEqualTo(1);
  }
}
