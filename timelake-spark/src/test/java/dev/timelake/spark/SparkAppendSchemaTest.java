package dev.timelake.spark;

import static dev.timelake.TestTables.micros;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.udf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.NotFoundException;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestTables;
import dev.timelake.ValidationException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DataFrames whose columns do not fit the table are refused before Spark writes anything, naming
 * the table and the column; nothing is committed and no staged file is left. Columns that fit
 * arrive with their values exactly, whatever the session's time zone.
 */
class SparkAppendSchemaTest extends WithSparkLake {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir static Path staging;
  private static int tables;
  private String name;
  private Table table;

  @BeforeAll
  static void stageUnderATemporaryFolder() {
    spark.conf().set(StagedRows.STAGING, staging.toString());
  }

  @BeforeEach
  void createTable() {
    name = "schema.r" + ++tables;
    table = lake.createTable(TestTables.readings(name).build());
  }

  @AfterEach
  void nothingIsLeftStaged() throws IOException {
    try (Stream<Path> left = Files.list(staging)) {
      assertThat(left.toList()).isEmpty();
    }
  }

  private static Dataset<Row> frame(StructType schema, Object... values) {
    return spark.createDataFrame(List.of(RowFactory.create(values)), schema);
  }

  private static StructType readings() {
    return new StructType()
        .add("device", DataTypes.StringType)
        .add("time", DataTypes.TimestampType)
        .add("value", DataTypes.DoubleType);
  }

  private void assertRefused(Dataset<Row> rows, String... messageParts) {
    assertThatThrownBy(() -> TimelakeSpark.append(rows, address, name))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Cannot append to " + name + " from Spark: ")
        .hasMessageContainingAll(messageParts);
    assertThat(snapshots(table)).isZero();
  }

  @Test
  void aMissingSeriesKeyColumnIsRefusedNamingIt() {
    StructType schema = new StructType().add("time", DataTypes.TimestampType);
    assertRefused(frame(schema, T0), "required column 'device' is missing from the DataFrame");
  }

  @Test
  void aColumnOfAnotherTypeIsRefusedNamingTheTypesItTakes() {
    StructType schema =
        new StructType()
            .add("device", DataTypes.StringType)
            .add("time", DataTypes.TimestampType)
            .add("value", DataTypes.StringType);
    assertRefused(
        frame(schema, "a", T0, "1.5"),
        "column 'value' is STRING in the DataFrame but DOUBLE in the table",
        "DOUBLE or FLOAT or INT",
        "cast the column");
  }

  @Test
  void aColumnTheTableDoesNotHaveIsRefused() {
    StructType schema = readings().add("unit", DataTypes.StringType);
    assertRefused(
        frame(schema, "a", T0, 1.0, "kPa"),
        "the DataFrame has column 'unit', which the table does not have",
        "(columns are matched by name; the table has device, time, value)");
  }

  @Test
  void theInsertionTimeIsNotTakenFromTheDataFrame() {
    StructType schema = readings().add("_ingest_ts", DataTypes.TimestampType);
    assertRefused(
        frame(schema, "a", T0, 1.0, T0), "column '_ingest_ts', the insertion time", "drop it");
  }

  @Test
  void aTimestampWithoutTimeZoneIsRefusedForATimestampWithTimeZone() {
    StructType schema =
        new StructType()
            .add("device", DataTypes.StringType)
            .add("time", DataTypes.TimestampNTZType)
            .add("value", DataTypes.DoubleType);
    assertRefused(
        frame(schema, "a", LocalDateTime.of(2026, 3, 1, 10, 0), 1.0),
        "column 'time' is TIMESTAMP_NTZ in the DataFrame but TIMESTAMPTZ in the table",
        "CAST(time AS TIMESTAMP), which reads it in the session time zone");
  }

  @Test
  void aNullInARequiredColumnIsRefusedAfterStagingAndTheStagedFilesAreDeleted() {
    assertThatThrownBy(
            () ->
                TimelakeSpark.append(
                    spark.createDataFrame(
                        List.of(RowFactory.create("a", T0, 1.0), RowFactory.create("b", null, 2.0)),
                        readings()),
                    address,
                    name))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Cannot append to " + name)
        .hasMessageContaining("column 'time' is null in row 2");
    assertThat(snapshots(table)).isZero();
  }

  @Test
  void aFailedSparkJobCommitsNothingAndLeavesNoStagedFile() {
    // A task that fails with an exception of its own: Spark aborts the job with a SparkException.
    var valueOf =
        udf(
            (UDF1<String, Double>)
                device -> {
                  if (device.equals("b")) {
                    throw new IllegalStateException("no value for b");
                  }
                  return 1.0;
                },
            DataTypes.DoubleType);
    Dataset<Row> failing =
        spark
            .createDataFrame(
                List.of(RowFactory.create("a", T0, 1.0), RowFactory.create("b", T0, 2.0)),
                readings())
            .withColumn("value", valueOf.apply(col("device")));
    assertThatThrownBy(() -> TimelakeSpark.append(failing, address, name))
        .hasMessageContaining("no value for b");
    assertThat(snapshots(table)).isZero();
  }

  @Test
  void aMissingTableAndABlankBatchIdAreRefusedBeforeSparkWrites() {
    Dataset<Row> rows = frame(readings(), "a", T0, 1.0);
    assertThatThrownBy(() -> TimelakeSpark.append(rows, address, "schema.missing"))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("schema.missing");
    assertThatThrownBy(() -> TimelakeSpark.append(rows, address, name, " "))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid batch id for " + name + ": it is blank");
  }

  @Test
  void valuesOfEveryTypeArriveExactlyWhateverTheSessionTimeZone() {
    lake.createTable(
        TableDefinition.builder("schema.types")
            .column("id", ColumnType.VARCHAR)
            .column("time", ColumnType.TIMESTAMPTZ)
            .column("flag", ColumnType.BOOLEAN)
            .column("small", ColumnType.INTEGER)
            .column("big", ColumnType.BIGINT)
            .column("ratio", ColumnType.FLOAT)
            .column("amount", ColumnType.decimal(10, 2))
            .column("day", ColumnType.DATE)
            .column("local", ColumnType.TIMESTAMP)
            .column("raw", ColumnType.BLOB)
            .column("samples", ColumnType.list(ColumnType.DOUBLE))
            .column(
                "point",
                ColumnType.struct(
                    List.of(
                        new ColumnType.Field("x", ColumnType.DOUBLE),
                        new ColumnType.Field("y", ColumnType.DOUBLE))))
            .timeColumn("time")
            .seriesKey("id")
            .option("auto-maintain", "false")
            .build());
    StructType point =
        new StructType().add("x", DataTypes.DoubleType).add("y", DataTypes.DoubleType);
    StructType schema =
        new StructType()
            .add("id", DataTypes.StringType)
            .add("time", DataTypes.TimestampType)
            .add("flag", DataTypes.BooleanType)
            .add("small", DataTypes.ShortType) // widens to INTEGER
            .add("big", DataTypes.LongType)
            .add("ratio", DataTypes.FloatType)
            .add("amount", DataTypes.createDecimalType(10, 2))
            .add("day", DataTypes.DateType)
            .add("local", DataTypes.TimestampNTZType)
            .add("raw", DataTypes.BinaryType)
            .add("samples", DataTypes.createArrayType(DataTypes.DoubleType))
            .add("point", point);
    Instant beforeEpoch = Instant.parse("1969-12-31T23:59:59.999999Z");
    Instant withMicros = T0.plusNanos(123_456_000);
    LocalDateTime beforeGregorian = LocalDateTime.of(1500, 6, 1, 12, 34, 56, 1_000);
    LocalDate day = LocalDate.of(1200, 1, 1);
    List<Row> rows =
        List.of(
            RowFactory.create(
                "a",
                beforeEpoch,
                true,
                (short) -7,
                Long.MIN_VALUE,
                1.5f,
                new BigDecimal("-12345678.90"),
                day,
                beforeGregorian,
                new byte[] {0, -1, 42},
                List.of(1.0, -0.0, Double.MAX_VALUE),
                RowFactory.create(1.0, null)),
            RowFactory.create(
                "b", withMicros, null, null, null, null, null, null, null, null, null, null));
    Dataset<Row> input = spark.createDataFrame(rows, schema);
    String zone = spark.conf().get("spark.sql.session.timeZone");
    try {
      // A zone half an hour off whole hours: any use of it would show in the values.
      spark.conf().set("spark.sql.session.timeZone", "Asia/Kolkata");
      TimelakeSpark.append(input, address, "schema.types");
    } finally {
      spark.conf().set("spark.sql.session.timeZone", zone);
    }

    assertThat(
            query(
                lake,
                "SELECT epoch_us(time), epoch_us(local), CAST(day AS VARCHAR) FROM schema.types"
                    + " ORDER BY id"))
        .containsExactly(
            java.util.Arrays.asList(
                micros(beforeEpoch),
                micros(beforeGregorian.toInstant(ZoneOffset.UTC)),
                day.toString()),
            java.util.Arrays.asList(micros(withMicros), null, null));
    assertThat(
            TimelakeSpark.read(spark, address, "schema.types")
                .drop("_ingest_ts")
                .orderBy("id")
                .collectAsList())
        .isEqualTo(input.orderBy("id").collectAsList());
  }
}
