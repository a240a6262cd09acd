package dev.timelake.spark;

import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.timelake.AppendResult;
import dev.timelake.ColumnType;
import dev.timelake.DuplicateIndexIntervalException;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestTables;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The rules of an embedded append hold for a Spark append: batch ids, the insertion time, one
 * commit with Timelake's summary, and an ordered index's conflicts (an error, or the newest write
 * of an interval replacing the stored one), each compared with the same appends made embedded.
 */
class SparkAppendTest extends WithSparkLake {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final StructType READINGS =
      new StructType()
          .add("device", DataTypes.StringType)
          .add("time", DataTypes.TimestampType)
          .add("value", DataTypes.DoubleType);
  private static final StructType BARS =
      new StructType()
          .add("symbol", DataTypes.StringType)
          .add("ts", DataTypes.TimestampType)
          .add("price", DataTypes.DoubleType);

  /** The rows as a DataFrame of {@code schema}, one partition per row, in order. */
  private static Dataset<Row> frame(StructType schema, List<Row> rows) {
    return spark.createDataFrame(
        JavaSparkContext.fromSparkContext(spark.sparkContext())
            .parallelize(rows, Math.max(1, rows.size())),
        schema);
  }

  private static Row row(String series, long seconds, double value) {
    return RowFactory.create(series, T0.plusSeconds(seconds), value);
  }

  @Test
  void aBatchIdAppendsOnceInOneSnapshotWithTimelakesSummary() {
    Table table = lake.createTable(TestTables.readings("batch.r").build());
    Instant before = Instant.now();

    AppendResult first =
        TimelakeSpark.append(
            frame(READINGS, List.of(row("a", 0, 1.0), row("b", 0, 2.0), row("a", 0, 3.0))),
            address,
            "batch.r",
            "backfill/2026-03");

    assertThat(first.outcome()).isEqualTo(AppendResult.Outcome.COMMITTED);
    assertThat(first.rows()).isEqualTo(2);
    assertThat(first.copiesDropped()).isEqualTo(1);
    var history = table.refresh().info().snapshots();
    assertThat(history).hasSize(1);
    assertThat(history.get(0).id()).isEqualTo(first.snapshotId().getAsLong());
    assertThat(history.get(0).summary())
        .containsEntry("timelake.operation", "append")
        .containsEntry("timelake.batch-id", "backfill/2026-03")
        .containsEntry("timelake.copies-dropped", "1");
    List<List<Object>> rows =
        query(lake, "SELECT device, value, _ingest_ts FROM batch.r ORDER BY device");
    assertThat(rows)
        .extracting(row -> row.get(0) + "=" + row.get(1))
        .containsExactly("a=3.0", "b=2.0");
    assertThat(rows.get(0).get(2)).isEqualTo(rows.get(1).get(2));
    assertThat(((OffsetDateTime) rows.get(0).get(2)).toInstant())
        .isBetween(before.truncatedTo(java.time.temporal.ChronoUnit.MICROS), Instant.now());

    AppendResult again =
        TimelakeSpark.append(
            frame(READINGS, List.of(row("a", 0, 9.0), row("c", 0, 9.0))),
            address,
            "batch.r",
            "backfill/2026-03");

    assertThat(again.outcome()).isEqualTo(AppendResult.Outcome.SKIPPED_DUPLICATE_BATCH);
    assertThat(again.rows()).isZero();
    assertThat(snapshots(table)).isEqualTo(1);
    assertThat(query(lake, "SELECT device, value, _ingest_ts FROM batch.r ORDER BY device"))
        .isEqualTo(rows);
  }

  @Test
  void anEmptyDataFrameCommitsNothing() {
    Table table = lake.createTable(TestTables.readings("empty.r").build());

    AppendResult result = TimelakeSpark.append(frame(READINGS, List.of()), address, "empty.r");

    assertThat(result.outcome()).isEqualTo(AppendResult.Outcome.EMPTY);
    assertThat(snapshots(table)).isZero();
  }

  /** Bars (symbol, ts, price), one row per symbol and minute, conflicts resolved as asked. */
  private static Table bars(String name, String onConflict) {
    return lake.createTable(
        TableDefinition.builder(name)
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .column("price", ColumnType.DOUBLE)
            .indexColumn("ts")
            .entityColumns("symbol")
            .indexGranularity("1m")
            .onConflict(onConflict)
            .option("auto-maintain", "false")
            .build());
  }

  /** The same rows appended embedded, in order. */
  private static AppendResult embedded(Table table, List<Row> rows) {
    var append = table.refresh().newAppend();
    for (Row row : rows) {
      append.row(row.getString(0), row.getInstant(1), row.getDouble(2));
    }
    return append.commit();
  }

  @Test
  void orderedIndexConflictsFailAsInAnEmbeddedAppend() {
    Table sparkBars = bars("market.spark_errors", "error");
    Table embeddedBars = bars("market.embedded_errors", "error");
    List<Row> first = List.of(row("A", 10, 1.0), row("A", 70, 2.0));
    TimelakeSpark.append(frame(BARS, first), address, "market.spark_errors");
    embedded(embeddedBars, first);

    List<Row> overlapping = List.of(row("B", 0, 5.0), row("A", 50, 3.0));
    Throwable fromSpark =
        catchThrowable(
            () -> TimelakeSpark.append(frame(BARS, overlapping), address, "market.spark_errors"));
    Throwable fromEmbedded = catchThrowable(() -> embedded(embeddedBars, overlapping));

    assertThat(fromSpark)
        .isInstanceOf(IndexIntervalOverlapException.class)
        .hasMessageContaining("market.spark_errors")
        .hasMessageContaining("symbol = 'A'");
    assertThat(fromSpark.getMessage().replace("spark_errors", "embedded_errors"))
        .isEqualTo(fromEmbedded.getMessage());
    assertThat(((IndexIntervalOverlapException) fromSpark).exampleIdentity())
        .isEqualTo(Map.of("symbol", "A"));
    assertThat(snapshots(sparkBars)).isEqualTo(1);

    // Two rows of the DataFrame in one minute, in different partitions.
    List<Row> twice = List.of(row("C", 120, 1.0), row("C", 150, 2.0));
    Throwable duplicateFromSpark =
        catchThrowable(
            () -> TimelakeSpark.append(frame(BARS, twice), address, "market.spark_errors"));
    Throwable duplicateEmbedded = catchThrowable(() -> embedded(embeddedBars, twice));
    assertThat(duplicateFromSpark).isInstanceOf(DuplicateIndexIntervalException.class);
    assertThat(duplicateFromSpark.getMessage().replace("spark_errors", "embedded_errors"))
        .isEqualTo(duplicateEmbedded.getMessage());
    assertThat(snapshots(sparkBars)).isEqualTo(1);
    assertThat(storedBars("market.spark_errors")).isEqualTo(storedBars("market.embedded_errors"));
  }

  @Test
  void theNewestWriteOfAnIntervalReplacesTheStoredOneAsInAnEmbeddedAppend() {
    Table embeddedBars = bars("market.embedded_replace", "replace");
    bars("market.spark_replace", "replace");
    List<List<Row>> appends =
        List.of(
            List.of(row("A", 10, 1.0), row("A", 70, 2.0), row("B", 5, 7.0)),
            // The first minute again, twice: the later row of the DataFrame wins.
            List.of(row("A", 50, 3.0), row("A", 20, 4.0)),
            List.of(row("B", 30, 8.0), row("A", 130, 5.0)));
    for (List<Row> rows : appends) {
      AppendResult fromSpark =
          TimelakeSpark.append(frame(BARS, rows), address, "market.spark_replace");
      AppendResult fromEmbedded = embedded(embeddedBars, rows);
      assertThat(fromSpark.rows()).isEqualTo(fromEmbedded.rows());
      assertThat(fromSpark.copiesDropped()).isEqualTo(fromEmbedded.copiesDropped());
      assertThat(fromSpark.lateRows()).isEqualTo(fromEmbedded.lateRows());
    }

    List<String> expected = storedBars("market.embedded_replace");
    assertThat(expected).containsExactly("A 20 4.0", "A 70 2.0", "A 130 5.0", "B 30 8.0");
    assertThat(storedBars("market.spark_replace")).isEqualTo(expected);
    List<String> readBySpark = new ArrayList<>();
    for (Row row :
        TimelakeSpark.read(spark, address, "market.spark_replace")
            .orderBy("symbol", "ts")
            .collectAsList()) {
      readBySpark.add(
          row.getString(0)
              + " "
              + (row.getTimestamp(1).toInstant().getEpochSecond() - T0.getEpochSecond())
              + " "
              + row.getDouble(2));
    }
    assertThat(readBySpark).isEqualTo(expected);
  }

  /** "symbol seconds-after-T0 price" of a bars table, in key order. */
  private static List<String> storedBars(String table) {
    return query(
            lake,
            "SELECT symbol, epoch(ts) - epoch(TIMESTAMPTZ '2026-03-01 10:00:00+00'), price FROM "
                + table
                + " ORDER BY symbol, ts")
        .stream()
        .map(row -> row.get(0) + " " + ((Number) row.get(1)).longValue() + " " + row.get(2))
        .toList();
  }
}
