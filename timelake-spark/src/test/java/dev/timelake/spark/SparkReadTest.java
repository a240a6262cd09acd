package dev.timelake.spark;

import static dev.timelake.TestTables.query;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.unix_micros;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Spark's reads of Timelake tables against Timelake's own reader: random appends with late rows,
 * copies with newer, older and equal insertion times, NULL values, before and after compaction; by
 * name through the catalog; tables whose schema grew; tables whose newest write per interval wins.
 */
class SparkReadTest extends WithSparkLake {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

  /** (device, time µs, value, ingest µs) of Spark's read, sorted. */
  private static List<List<Object>> sparkRows(Dataset<Row> rows) {
    List<List<Object>> result = new ArrayList<>();
    for (Row row :
        rows.select(
                col("device"),
                unix_micros(col("time")),
                col("value"),
                unix_micros(col("_ingest_ts")))
            .collectAsList()) {
      result.add(java.util.Arrays.asList(row.get(0), row.get(1), row.get(2), row.get(3)));
    }
    result.sort(ROWS);
    return result;
  }

  /** The same columns from Timelake's reader, sorted. */
  private static List<List<Object>> timelakeRows(String table) {
    List<List<Object>> rows =
        new ArrayList<>(
            query(
                lake, "SELECT device, epoch_us(time), value, epoch_us(_ingest_ts) FROM " + table));
    rows.sort(ROWS);
    return rows;
  }

  private static final Comparator<List<Object>> ROWS =
      Comparator.comparing((List<Object> row) -> String.valueOf(row.get(0)))
          .thenComparing(row -> ((Number) row.get(1)).longValue());

  @Test
  void sparkReadsTheRowsTimelakeReadsOnRandomAppends() {
    TestRandom random = TestRandom.create();
    for (int t = 0; t < 3; t++) {
      String name = "diff.t" + t;
      Table table = lake.createTable(TestTables.readings(name).build());
      int appends = 4 + random.nextInt(6);
      for (int a = 0; a < appends; a++) {
        // Few distinct insertion times: equal ones leave the commit order to decide.
        Instant ingest = T0.plus(random.nextInt(3), ChronoUnit.HOURS);
        var append = table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC));
        int rows = random.nextInt(40); // some appends are empty
        for (int r = 0; r < rows; r++) {
          // Three days (partitions), whole minutes: late rows and copies across appends.
          Instant time = T0.plus(random.nextInt(3 * 24 * 60), ChronoUnit.MINUTES);
          Double value = random.nextInt(10) == 0 ? null : (double) random.nextInt(1000);
          append.row("d" + random.nextInt(5), time, value);
        }
        append.commit();
      }
      assertThat(sparkRows(TimelakeSpark.read(spark, address, name)))
          .as("%s, %s", random, name)
          .isEqualTo(timelakeRows(name));
      table.newMaintenance().run();
      assertThat(sparkRows(TimelakeSpark.read(spark, address, name)))
          .as("%s, %s after maintenance", random, name)
          .isEqualTo(timelakeRows(name));
    }
  }

  @Test
  void anotherEnginesAppendWinsByItsCommitInSparkAsInTimelake() {
    Table table = lake.createTable(TestTables.readings("external.r").build());
    table.newAppend().row("a", T0, 1.0).row("b", T0, 2.0).commit();
    // Its stored insertion times are nonsense (far past): the commit's time counts.
    java.time.OffsetDateTime past = java.time.OffsetDateTime.parse("2000-01-01T00:00:00Z");
    java.time.OffsetDateTime at = T0.atOffset(ZoneOffset.UTC);
    dev.timelake.ExternalIcebergAppend.append(
        warehouse,
        "external",
        "r",
        List.of(
            java.util.Map.of("device", "a", "time", at, "value", 10.0, "_ingest_ts", past),
            java.util.Map.of(
                "device", "c", "time", at.plusMinutes(1), "value", 30.0, "_ingest_ts", past)));

    List<List<Object>> expected =
        List.of(List.of("a", 10.0), List.of("b", 2.0), List.of("c", 30.0));
    assertThat(query(lake, "SELECT device, value FROM external.r ORDER BY device"))
        .isEqualTo(expected);
    List<List<Object>> spark = new ArrayList<>();
    for (Row row :
        TimelakeSpark.read(WithSparkLake.spark, address, "external.r")
            .orderBy("device")
            .select("device", "value")
            .collectAsList()) {
      spark.add(List.of(row.get(0), row.get(1)));
    }
    assertThat(spark).isEqualTo(expected);
  }

  @Test
  void filesThatShareNoKeyAreReadWithoutRanking() {
    Table table = lake.createTable(TestTables.readings("plan.fresh").build());
    table.newAppend().row("a", T0, 1.0).commit();
    table.newAppend().row("a", T0.plusSeconds(60), 2.0).commit();
    assertThat(plan(TimelakeSpark.read(spark, address, "plan.fresh"))).doesNotContain("Window");

    table.newAppend().row("a", T0, 3.0).commit(); // a late copy: those files are ranked
    Dataset<Row> rows = TimelakeSpark.read(spark, address, "plan.fresh");
    assertThat(plan(rows)).contains("Window");
    assertThat(sparkRows(rows)).isEqualTo(timelakeRows("plan.fresh"));
  }

  private static String plan(Dataset<Row> rows) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) rows)
        .queryExecution()
        .executedPlan()
        .toString();
  }

  @Test
  void sparkSqlReadsTablesByNameThroughTheCatalog() {
    Table table = lake.createTable(TestTables.readings("byname.r").build());
    table.newAppend().row("a", T0, 1.0).row("b", T0, 2.0).commit();
    table.newAppend().row("a", T0, 5.0).commit(); // replaces a's reading

    List<Row> sums =
        spark
            .sql(
                "SELECT r.device, sum(r.value) AS total FROM timelake.byname.r AS r"
                    + " GROUP BY r.device ORDER BY r.device")
            .collectAsList();
    assertThat(sums)
        .extracting(row -> row.get(0) + "=" + row.get(1))
        .containsExactly("a=5.0", "b=2.0");
    assertThat(spark.sql("SHOW TABLES IN timelake.byname").collectAsList())
        .extracting(row -> row.getString(1))
        .containsExactly("r");
    assertThatThrownBy(() -> spark.sql("SELECT * FROM timelake.byname.missing").collect())
        .hasMessageContaining("missing");
  }

  @Test
  void columnsAddedLaterReadAsNullInOlderFiles() {
    Table table = lake.createTable(TestTables.readings("evolve.r").build());
    table.newAppend().row("a", T0, 1.0).commit();
    table.addColumn("unit", ColumnType.VARCHAR);
    lake.table("evolve.r").newAppend().row("a", T0.plusSeconds(60), 2.0, "bar").commit();
    lake.table("evolve.r").newAppend().row("a", T0, 3.0, "kPa").commit(); // replaces the first

    List<Row> rows = TimelakeSpark.read(spark, address, "evolve.r").orderBy("time").collectAsList();
    assertThat(rows)
        .extracting(row -> row.getAs("value") + "/" + row.getAs("unit"))
        .containsExactly("3.0/kPa", "2.0/bar");
  }

  /** Bars (symbol, ts, price) whose newest write per symbol and interval wins. */
  private static Table replaceTable(String name, ColumnType time, String granularity) {
    return lake.createTable(
        TableDefinition.builder(name)
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", time)
            .column("price", ColumnType.DOUBLE)
            .indexColumn("ts")
            .entityColumns("symbol")
            .indexGranularity(granularity)
            .onConflict("replace")
            .option("auto-maintain", "false")
            .build());
  }

  @Test
  void theNewestWriteOfAnIntervalWinsInAReplaceTable() {
    Table bars = replaceTable("market.bars", ColumnType.TIMESTAMPTZ, "1m");
    bars.newAppend().row("A", T0.plusSeconds(10), 1.0).row("A", T0.plusSeconds(70), 2.0).commit();
    bars.newAppend().row("A", T0.plusSeconds(50), 3.0).commit(); // the first minute again
    bars.newAppend().row("A", T0.minusSeconds(30), 4.0).commit(); // before the epoch minute

    List<Row> rows =
        TimelakeSpark.read(spark, address, "market.bars").orderBy("ts").collectAsList();
    assertThat(rows).extracting(row -> row.getAs("price")).containsExactly(4.0, 3.0, 2.0);
    assertThat(rows.size())
        .isEqualTo(
            ((Number) query(lake, "SELECT count(*) FROM market.bars").get(0).get(0)).intValue());
  }

  @Test
  void intervalsOfATimestampWithoutTimeZoneDoNotDependOnTheSessionTimeZone() {
    Table bars = replaceTable("market.local_bars", ColumnType.TIMESTAMP, "1h");
    java.time.LocalDateTime nine = java.time.LocalDateTime.of(2026, 3, 1, 9, 0);
    bars.newAppend()
        .row("A", nine.plusMinutes(10), 1.0)
        .row("A", nine.plusMinutes(70), 2.0)
        .commit();
    bars.newAppend().row("A", nine.plusMinutes(50), 3.0).commit(); // the 09:00 hour again

    String zone = spark.conf().get("spark.sql.session.timeZone");
    try {
      // A zone 30 minutes off whole hours would move hour boundaries if it were applied.
      spark.conf().set("spark.sql.session.timeZone", "Asia/Kolkata");
      List<Object> prices =
          TimelakeSpark.read(spark, address, "market.local_bars")
              .orderBy("ts")
              .collectAsList()
              .stream()
              .map(row -> row.getAs("price"))
              .toList();
      assertThat(prices).containsExactly(3.0, 2.0);
    } finally {
      spark.conf().set("spark.sql.session.timeZone", zone);
    }
    assertThat(query(lake, "SELECT price FROM market.local_bars ORDER BY ts"))
        .containsExactly(List.of(3.0), List.of(2.0));
  }

  @Test
  void localPathsAreReadAsFileUrisAndS3AsS3a() {
    assertThat(DedupReader.hadoopPath("/data/lake/t/data/a.parquet"))
        .isEqualTo("file:///data/lake/t/data/a.parquet");
    assertThat(DedupReader.hadoopPath("file:/data/a.parquet")).isEqualTo("file:/data/a.parquet");
    assertThat(DedupReader.hadoopPath("s3://bucket/lake/a.parquet"))
        .isEqualTo("s3a://bucket/lake/a.parquet");
  }

  @Test
  void anEmptyTableReadsAsNoRowsWithItsColumns() {
    lake.createTable(TestTables.readings("empty.r").build());
    Dataset<Row> rows = TimelakeSpark.read(spark, address, "empty.r");
    assertThat(rows.count()).isZero();
    assertThat(rows.columns()).containsExactly("device", "time", "value", "_ingest_ts");
  }
}
