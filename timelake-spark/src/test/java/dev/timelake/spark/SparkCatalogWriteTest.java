package dev.timelake.spark;

import static dev.timelake.TestTables.micros;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static org.apache.spark.sql.functions.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestTables;
import java.time.Instant;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Appends through Timelake's Spark catalog ({@code df.writeTo("timelake.ns.t").append()}, {@code
 * INSERT INTO}) are Timelake appends; overwrites of every kind are refused with Timelake's message.
 */
class SparkCatalogWriteTest extends WithSparkLake {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final StructType READINGS =
      new StructType()
          .add("device", DataTypes.StringType)
          .add("time", DataTypes.TimestampType)
          .add("value", DataTypes.DoubleType);

  private static Dataset<Row> readings(Object[]... rows) {
    return spark.createDataFrame(List.of(rows).stream().map(RowFactory::create).toList(), READINGS);
  }

  private static List<List<Object>> stored(String table) {
    return query(
        lake, "SELECT device, epoch_us(time), value FROM " + table + " ORDER BY device, time");
  }

  @Test
  void writeToAppendsWithTimelakesRules() throws Exception {
    Table table = lake.createTable(TestTables.readings("cat.r").build());
    table.newAppend().row("a", T0, 1.0).commit();

    readings(new Object[] {"a", T0, 5.0}, new Object[] {"b", T0, 2.0}, new Object[] {"b", T0, 3.0})
        .writeTo("timelake.cat.r")
        .append();

    assertThat(stored("cat.r"))
        .containsExactly(List.of("a", micros(T0), 5.0), List.of("b", micros(T0), 3.0));
    var summary = table.refresh().info().snapshots().get(1).summary();
    assertThat(summary).containsEntry("timelake.operation", "append");
    assertThat(summary).containsEntry("timelake.copies-dropped", "1");
    // Spark reads its own write with copies removed.
    assertThat(spark.sql("SELECT count(*) FROM timelake.cat.r").first().getLong(0)).isEqualTo(2);
  }

  @Test
  void aBatchIdOptionMakesTheAppendIdempotent() throws Exception {
    Table table = lake.createTable(TestTables.readings("cat.batch").build());
    for (int run = 0; run < 2; run++) {
      readings(new Object[] {"a", T0.plusSeconds(run), 1.0})
          .writeTo("timelake.cat.batch")
          .option("batch-id", "job-17")
          .append();
    }
    assertThat(snapshots(table)).isEqualTo(1);
    assertThat(query(lake, "SELECT count(*) FROM cat.batch")).containsExactly(List.of(1L));

    assertThatThrownBy(
            () ->
                readings(new Object[] {"a", T0, 1.0})
                    .writeTo("timelake.cat.batch")
                    .option("batchId", "job-18")
                    .append())
        .hasMessageContaining("Cannot append to cat.batch from Spark: unknown write option batchId")
        .hasMessageContaining("(expected batch-id)");
  }

  @Test
  void insertIntoAppendsTheQuerysRowsByName() {
    lake.createTable(TestTables.readings("cat.sql").build());
    spark
        .sql(
            "INSERT INTO timelake.cat.sql (time, device, value)"
                + " VALUES (TIMESTAMP '2026-03-01 10:00:00', 'a', 1.5D)")
        .collect();
    assertThat(stored("cat.sql")).containsExactly(List.of("a", micros(T0), 1.5));
    // Types are checked as for a DataFrame: Spark's 2.5 is a DECIMAL, not a DOUBLE.
    assertThatThrownBy(
            () ->
                spark.sql(
                    "INSERT INTO timelake.cat.sql (time, device, value)"
                        + " VALUES (TIMESTAMP '2026-03-01 10:00:00', 'a', 2.5)"))
        .hasMessageContaining("column 'value' is DECIMAL(2,1) in the DataFrame but DOUBLE");
    // Columns are matched by name, never by position.
    assertThatThrownBy(
            () ->
                spark.sql(
                    "INSERT INTO timelake.cat.sql VALUES ('b', TIMESTAMP '2026-03-01 10:00:00', 1D)"))
        .hasMessageContaining(
            "the DataFrame has column 'col1', which the table does not have (columns are matched"
                + " by name; the table has device, time, value)");
    assertThat(snapshots(lake.table("cat.sql"))).isEqualTo(1);
  }

  @Test
  void aTableReadBySparkAppendsToAnotherWhoseColumnsLieElsewhere() {
    Table source = lake.createTable(TestTables.readings("cat.source").build());
    source.newAppend().row("a", T0, 1.0).row("b", T0, 2.0).commit();
    source.newAppend().row("a", T0, 3.0).commit(); // a copy, removed on read
    // Another column order: columns meet by name, not by position or the source's field ids.
    lake.createTable(
        TableDefinition.builder("cat.target")
            .column("value", ColumnType.DOUBLE)
            .column("time", ColumnType.TIMESTAMPTZ)
            .column("device", ColumnType.VARCHAR)
            .timeColumn("time")
            .seriesKey("device")
            .build());

    spark.sql(
        "INSERT INTO timelake.cat.target (device, time, value)"
            + " SELECT device, time, value FROM timelake.cat.source");

    assertThat(stored("cat.target")).isEqualTo(stored("cat.source"));
  }

  @Test
  void aDataFrameThatDoesNotFitIsRefusedWithTimelakesMessage() {
    Table table = lake.createTable(TestTables.readings("cat.bad").build());
    assertThatThrownBy(
            () ->
                readings(new Object[] {"a", T0, 1.0})
                    .drop("device")
                    .writeTo("timelake.cat.bad")
                    .append())
        .hasMessageContaining(
            "Cannot append to cat.bad from Spark: required column 'device' is missing from the"
                + " DataFrame");
    assertThat(snapshots(table)).isZero();
  }

  @Test
  void overwritesAreRefusedAndCommitNothing() {
    Table table = lake.createTable(TestTables.readings("cat.over").build());
    table.newAppend().row("a", T0, 1.0).commit();
    Dataset<Row> rows = readings(new Object[] {"b", T0, 2.0});
    String refused = "Cannot overwrite cat.over from Spark: Timelake tables take appends only";

    assertThatThrownBy(() -> rows.writeTo("timelake.cat.over").overwrite(lit(true)))
        .hasMessageContaining(refused);
    // Spark refuses this one itself: a dynamic overwrite needs a V2 batch write.
    assertThatThrownBy(() -> rows.writeTo("timelake.cat.over").overwritePartitions())
        .hasMessageContaining("cat`.`over` does not support dynamic overwrite");
    rows.createOrReplaceTempView("replacement");
    assertThatThrownBy(
            () -> spark.sql("INSERT OVERWRITE timelake.cat.over SELECT * FROM replacement"))
        .hasMessageContaining(refused);
    assertThat(snapshots(table)).isEqualTo(1);
    assertThat(stored("cat.over")).containsExactly(List.of("a", micros(T0), 1.0));
  }
}
