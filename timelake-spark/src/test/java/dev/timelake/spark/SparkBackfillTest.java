package dev.timelake.spark;

import static dev.timelake.TestTables.micros;
import static dev.timelake.TestTables.query;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.unix_micros;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.AppendResult;
import dev.timelake.ColumnType;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * A month of readings appended from Spark into a table that already holds some days and has an
 * hourly rollup: Timelake's reader, the rollup (routed and not) and Spark's reader all give what an
 * oracle computed here gives (the later write of a key wins: a copy later in the DataFrame, or the
 * DataFrame over stored rows).
 */
class SparkBackfillTest extends WithSparkLake {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final int DAYS = 30;
  private static final int TAGS = 3;
  private static final int STEP_MINUTES = 15;
  private static final StructType READINGS =
      new StructType()
          .add("tag", DataTypes.StringType, false)
          .add("time", DataTypes.TimestampType, false)
          .add("value", DataTypes.DoubleType, true);

  /** A reading's key: tag and time in µs. */
  private record Key(String tag, long micros) {}

  private static final Comparator<Key> KEYS =
      Comparator.comparing(Key::tag).thenComparingLong(Key::micros);

  @Test
  void aMonthAppendedFromSparkReadsAsTheOracleEverywhere() {
    TestRandom random = TestRandom.create();
    Table table =
        lake.createTable(
            TableDefinition.builder("iot.readings")
                .column("tag", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .timeColumn("time")
                .seriesKey("tag")
                .build());
    Map<Key, Double> oracle = new TreeMap<>(KEYS);
    // Days 10 to 19 already hold rows at the day's end: the month's rows of those days are late,
    // and each 23:45 row is replaced by the month's.
    var stored = table.newAppend();
    for (int day = 10; day < 20; day++) {
      for (int tag = 0; tag < TAGS; tag++) {
        for (int minute : new int[] {23 * 60 + 45, 23 * 60 + 50}) {
          Instant time = T0.plus(day, ChronoUnit.DAYS).plus(minute, ChronoUnit.MINUTES);
          stored.row("t" + tag, time, -1.0);
          oracle.put(new Key("t" + tag, micros(time)), -1.0);
        }
      }
    }
    stored.commit();
    try (Session session = lake.newSession()) {
      session
          .sql(
              "CREATE MATERIALIZED ROLLUP iot.readings_1h AS SELECT tag, time_bucket(INTERVAL '1"
                  + " hour', time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.readings"
                  + " GROUP BY tag, bucket WITH (refresh_interval = '0s')")
          .close();
    }

    List<Row> month = month(random);
    Map<Key, Double> written = new LinkedHashMap<>();
    for (Row row : month) {
      written.put(key(row), row.isNullAt(2) ? null : row.getDouble(2));
    }
    long late =
        written.keySet().stream().filter(key -> dayOf(key) >= 10 && dayOf(key) < 20).count();
    oracle.putAll(written);
    Instant before = Instant.now();

    // Eight partitions in the list's order: copies meet across partitions' files.
    var partitioned =
        spark.createDataFrame(
            JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(month, 8),
            READINGS);
    AppendResult result = TimelakeSpark.append(partitioned, address, "iot.readings");

    assertThat(result.outcome()).isEqualTo(AppendResult.Outcome.COMMITTED);
    assertThat(result.rows()).as("%s", random).isEqualTo(written.size());
    assertThat(result.copiesDropped()).isEqualTo(month.size() - written.size());
    assertThat(result.lateRows()).isEqualTo(late);
    assertThat(result.maintenanceError()).isEmpty();

    List<List<Object>> expected = rows(oracle);
    assertThat(timelakeRows()).as("%s", random).isEqualTo(expected);
    assertThat(sparkRows()).as("%s", random).isEqualTo(expected);
    List<List<Object>> hourly = hourly(oracle);
    assertThat(
            query(lake, "SELECT tag, bucket, n, total FROM iot.readings_1h ORDER BY tag, bucket"))
        .as("the rollup, refreshed after the append")
        .isEqualTo(hourly);
    String byHour =
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS bucket, count(*), sum(value)"
            + " FROM iot.readings GROUP BY tag, bucket ORDER BY tag, bucket";
    try (Session session = lake.newSession();
        QueryResult routed = session.sql(byHour)) {
      assertThat(routed.isRouted()).isTrue();
      assertThat(routed.rows()).isEqualTo(hourly);
    }
    try (Session session = lake.newSession().set("rollup-routing", "false");
        QueryResult unrouted = session.sql(byHour)) {
      assertThat(unrouted.isRouted()).isFalse();
      assertThat(unrouted.rows()).isEqualTo(hourly);
    }
    // The month's rows carry the append's insertion time; the stored rows kept theirs.
    List<List<Object>> ingest =
        query(
            lake,
            "SELECT min(_ingest_ts), max(_ingest_ts) FROM iot.readings WHERE value IS NULL"
                + " OR value >= 0");
    assertThat((OffsetDateTime) ingest.get(0).get(0)).isEqualTo(ingest.get(0).get(1));
    assertThat(((OffsetDateTime) ingest.get(0).get(0)).toInstant())
        .isBetween(before.truncatedTo(ChronoUnit.MICROS), Instant.now());
  }

  /**
   * Every tag every 15 minutes of the month, in random order of tags within a step, with copies:
   * one right after its first write and some at the end of the DataFrame (another partition); the
   * later copy is the one that counts. Values are whole numbers (sums are exact) or null; times
   * carry microseconds, which must arrive exactly.
   */
  private static List<Row> month(TestRandom random) {
    List<Row> rows = new ArrayList<>();
    List<Row> atTheEnd = new ArrayList<>();
    for (int step = 0; step < DAYS * 24 * 60 / STEP_MINUTES; step++) {
      Instant time = T0.plus((long) step * STEP_MINUTES, ChronoUnit.MINUTES);
      for (int tag = 0; tag < TAGS; tag++) {
        Instant at = time.plus(tag * 7L, ChronoUnit.MICROS);
        rows.add(reading("t" + tag, at, random));
        int copy = random.nextInt(40);
        if (copy == 0) {
          rows.add(reading("t" + tag, at, random));
        } else if (copy == 1) {
          atTheEnd.add(reading("t" + tag, at, random));
        }
      }
    }
    rows.addAll(atTheEnd);
    return rows;
  }

  private static Row reading(String tag, Instant time, TestRandom random) {
    Double value = random.nextInt(50) == 0 ? null : (double) random.nextInt(1000);
    return RowFactory.create(tag, time, value);
  }

  private static Key key(Row row) {
    return new Key(row.getString(0), micros(row.getInstant(1)));
  }

  private static long dayOf(Key key) {
    return Math.floorDiv(key.micros() - micros(T0), 86_400_000_000L);
  }

  /** (tag, time µs, value) rows of the oracle, in key order. */
  private static List<List<Object>> rows(Map<Key, Double> oracle) {
    List<List<Object>> rows = new ArrayList<>();
    oracle.forEach(
        (key, value) -> rows.add(java.util.Arrays.asList(key.tag(), key.micros(), value)));
    return rows;
  }

  /** (tag, hour, count, sum of values) of the oracle, as Timelake returns them. */
  private static List<List<Object>> hourly(Map<Key, Double> oracle) {
    Map<List<Object>, long[]> counts = new LinkedHashMap<>();
    Map<List<Object>, Double> sums = new LinkedHashMap<>();
    oracle.forEach(
        (key, value) -> {
          long hour = Math.floorDiv(key.micros(), 3_600_000_000L) * 3_600L;
          List<Object> bucket =
              List.of(key.tag(), Instant.ofEpochSecond(hour).atOffset(ZoneOffset.UTC));
          counts.computeIfAbsent(bucket, b -> new long[1])[0]++;
          if (value != null) {
            sums.merge(bucket, value, Double::sum);
          }
        });
    List<List<Object>> rows = new ArrayList<>();
    counts.forEach(
        (bucket, count) ->
            rows.add(
                java.util.Arrays.asList(bucket.get(0), bucket.get(1), count[0], sums.get(bucket))));
    return rows;
  }

  private static List<List<Object>> timelakeRows() {
    return query(lake, "SELECT tag, epoch_us(time), value FROM iot.readings ORDER BY tag, time");
  }

  private static List<List<Object>> sparkRows() {
    List<List<Object>> rows = new ArrayList<>();
    for (Row row :
        TimelakeSpark.read(spark, address, "iot.readings")
            .select(col("tag"), unix_micros(col("time")).as("micros"), col("value"))
            .orderBy("tag", "micros")
            .collectAsList()) {
      rows.add(java.util.Arrays.asList(row.get(0), row.get(1), row.get(2)));
    }
    return rows;
  }
}
