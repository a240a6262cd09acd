package dev.timelake.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.pmod;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.unix_micros;

import dev.timelake.ReadPlan;
import dev.timelake.ReadPlan.KeyInterval;
import dev.timelake.ReadPlan.ReadFile;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A {@link ReadPlan} as a Spark DataFrame: the files that share no key with another are read as
 * they are; of the groups that may share keys, the contested rows are ranked per key by the winner
 * rule (highest insertion time, NULL lowest, then highest data sequence number of the file), the
 * first kept. Groups share no keys, so one ranking over all of them equals one per group.
 */
final class DedupReader {
  private static final String SEQUENCE = "__tl_seq";
  private static final String WRITTEN = "__tl_written";
  private static final String FILE = "__tl_file";
  private static final String INTERVAL = "__tl_interval";
  private static final String RANK = "__tl_rank";

  private DedupReader() {}

  static Dataset<Row> read(SparkSession spark, ReadPlan plan) {
    StructType schema = SparkSchemas.of(plan.table(), plan.schemaJson());
    // Match Parquet columns by the schema's field ids (renamed and added columns read right);
    // only reads whose schema carries ids, such as this one, are affected.
    spark.conf().set("spark.sql.parquet.fieldId.read.enabled", "true");
    spark.conf().set("spark.sql.parquet.fieldId.read.ignoreMissing", "true");
    List<Dataset<Row>> parts = new ArrayList<>();
    if (!plan.asIs().isEmpty()) {
      parts.add(scan(spark, schema, plan.asIs()));
    }
    if (!plan.toDeduplicate().isEmpty()) {
      parts.add(deduplicated(spark, schema, plan));
    }
    if (parts.isEmpty()) {
      return spark.createDataFrame(List.<Row>of(), schema);
    }
    Dataset<Row> rows = parts.get(0);
    for (int i = 1; i < parts.size(); i++) {
      rows = rows.union(parts.get(i));
    }
    return rows;
  }

  private static Dataset<Row> scan(SparkSession spark, StructType schema, List<ReadFile> files) {
    return spark
        .read()
        .schema(schema)
        .parquet(files.stream().map(file -> hadoopPath(file.location())).toArray(String[]::new));
  }

  /**
   * A location as Hadoop's file systems name it: a local path as a {@code file:} URI (a plain path
   * would resolve against the cluster's default file system, HDFS on many), {@code s3://} as {@code
   * s3a://}, the same objects through Hadoop's S3A connector.
   */
  static String hadoopPath(String location) {
    if (location.startsWith("s3://")) {
      return "s3a://" + location.substring("s3://".length());
    }
    if (!location.contains("://") && !location.startsWith("file:")) {
      return java.nio.file.Path.of(location).toUri().toString();
    }
    return location;
  }

  /**
   * The groups' rows with copies removed, as Timelake's {@code merge} strategy does it: a key two
   * files hold is always held by a non-fresh one (fresh files never share keys), so the rows of
   * fresh files whose key no non-fresh file holds are winners as they are (an anti join on the
   * non-fresh files' keys, a small side); only the contested rows — every non-fresh row and the
   * fresh rows with those keys — are ranked.
   */
  private static Dataset<Row> deduplicated(SparkSession spark, StructType schema, ReadPlan plan) {
    List<ReadFile> fresh = new ArrayList<>();
    List<ReadFile> notFresh = new ArrayList<>();
    for (List<ReadFile> group : plan.toDeduplicate()) {
      group.forEach(file -> (file.fresh() ? fresh : notFresh).add(file));
    }
    List<String> columns = List.of(schema.fieldNames());
    Dataset<Row> contested = keyed(withSequences(spark, schema, notFresh, plan), plan);
    if (!fresh.isEmpty()) {
      Dataset<Row> freshRows = keyed(withSequences(spark, schema, fresh, plan), plan);
      Dataset<Row> held =
          keyed(scan(spark, schema, notFresh), plan).select(keyColumns(plan)).distinct();
      Dataset<Row> uncontested =
          freshRows
              .join(held, sameKey(freshRows, held, plan), "left_anti")
              .select(columns.stream().map(freshRows::col).toArray(Column[]::new));
      contested =
          contested.unionByName(freshRows.join(held, sameKey(freshRows, held, plan), "left_semi"));
      return uncontested.union(winners(contested, plan, columns));
    }
    return winners(contested, plan, columns);
  }

  /**
   * The rows of {@code files} with their file's data sequence number; the rows of a file another
   * engine's append added take its commit's time as their insertion time (see {@link
   * ReadFile#insertionMicros}).
   */
  private static Dataset<Row> withSequences(
      SparkSession spark, StructType schema, List<ReadFile> files, ReadPlan plan) {
    // Each row's number by its file's name (unique in a table: names hold UUIDs).
    List<Row> sequences = new ArrayList<>();
    for (ReadFile file : files) {
      String location = file.location();
      sequences.add(
          RowFactory.create(
              location.substring(location.lastIndexOf('/') + 1),
              file.sequenceNumber(),
              file.hasInsertionTime() ? timestamp(file.insertionMicros()) : null));
    }
    Dataset<Row> numbers =
        spark.createDataFrame(
            sequences,
            new StructType()
                .add(FILE, DataTypes.StringType, false)
                .add(SEQUENCE, DataTypes.LongType, false)
                .add(WRITTEN, DataTypes.TimestampType, true));
    Dataset<Row> rows =
        scan(spark, schema, files)
            .withColumn(FILE, col("_metadata.file_name"))
            .join(functions.broadcast(numbers), FILE)
            .drop(FILE);
    if (plan.ingestTimeColumn().isPresent()
        && files.stream().anyMatch(ReadFile::hasInsertionTime)) {
      String ingest = plan.ingestTimeColumn().get();
      rows = rows.withColumn(ingest, functions.coalesce(col(WRITTEN), col(ingest)));
    }
    return rows.drop(WRITTEN);
  }

  private static java.sql.Timestamp timestamp(long micros) {
    return java.sql.Timestamp.from(
        java.time.Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L));
  }

  /** The rows with the interval start as a column, when the interval is part of the key. */
  private static Dataset<Row> keyed(Dataset<Row> rows, ReadPlan plan) {
    return plan.interval().isPresent()
        ? rows.withColumn(INTERVAL, intervalStart(rows, plan))
        : rows;
  }

  /** The names of the key's columns in a {@link #keyed} relation. */
  private static Column[] keyColumns(ReadPlan plan) {
    List<Column> key = new ArrayList<>();
    plan.seriesKey().forEach(column -> key.add(col(column)));
    if (plan.interval().isPresent()) {
      key.add(col(INTERVAL));
    } else {
      plan.timeColumn().ifPresent(time -> key.add(col(time)));
    }
    return key.toArray(Column[]::new);
  }

  /** Equal keys of two keyed relations, a missing series key equal to a missing one. */
  private static Column sameKey(Dataset<Row> left, Dataset<Row> right, ReadPlan plan) {
    List<String> names = new ArrayList<>(plan.seriesKey());
    names.add(plan.interval().isPresent() ? INTERVAL : plan.timeColumn().orElseThrow());
    Column same = null;
    for (String name : names) {
      Column term = left.col(name).eqNullSafe(right.col(name));
      same = same == null ? term : same.and(term);
    }
    return same;
  }

  /** The first row of each key by the winner rule. */
  private static Dataset<Row> winners(Dataset<Row> rows, ReadPlan plan, List<String> columns) {
    List<Column> order = new ArrayList<>();
    plan.ingestTimeColumn().ifPresent(ingest -> order.add(rows.col(ingest).desc_nulls_last()));
    order.add(rows.col(SEQUENCE).desc());
    return rows.withColumn(
            RANK,
            row_number()
                .over(Window.partitionBy(keyColumns(plan)).orderBy(order.toArray(Column[]::new))))
        .where(col(RANK).equalTo(1))
        .select(columns.stream().map(rows::col).toArray(Column[]::new));
  }

  /**
   * The start of the time's index interval (equal starts, equal intervals): the value less its
   * Euclidean remainder by the width, in microseconds for a timestamp.
   */
  private static Column intervalStart(Dataset<Row> rows, ReadPlan plan) {
    KeyInterval interval = plan.interval().orElseThrow();
    String column = plan.timeColumn().orElseThrow();
    Column time = rows.col(column);
    Column value = time;
    if (interval.timestamp()) {
      // A TIMESTAMP without time zone counts microseconds of its wall clock, as DuckDB's epoch_us
      // does; unix_micros would first read it in the session's time zone.
      value =
          rows.schema().apply(column).dataType()
                  instanceof org.apache.spark.sql.types.TimestampNTZType
              ? functions.timestamp_diff(
                  "MICROSECOND", lit(java.time.LocalDateTime.of(1970, 1, 1, 0, 0)), time)
              : unix_micros(time);
    }
    return value.minus(pmod(value, lit(interval.width())));
  }
}
