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
 * they are; the rows of the groups that may share keys are ranked per key by the winner rule
 * (highest insertion time, NULL lowest, then highest data sequence number of the file), the first
 * kept. Groups share no keys, so one ranking over all of them equals one per group.
 */
final class DedupReader {
  private static final String SEQUENCE = "__tl_seq";
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
        .parquet(files.stream().map(ReadFile::location).toArray(String[]::new));
  }

  private static Dataset<Row> deduplicated(SparkSession spark, StructType schema, ReadPlan plan) {
    List<ReadFile> files = new ArrayList<>();
    plan.toDeduplicate().forEach(files::addAll);
    // Each row's data sequence number, by its file's name (unique in a table: names hold UUIDs).
    List<Row> sequences = new ArrayList<>();
    for (ReadFile file : files) {
      String location = file.location();
      sequences.add(
          RowFactory.create(
              location.substring(location.lastIndexOf('/') + 1), file.sequenceNumber()));
    }
    Dataset<Row> numbers =
        spark.createDataFrame(
            sequences,
            new StructType()
                .add(FILE, DataTypes.StringType, false)
                .add(SEQUENCE, DataTypes.LongType, false));
    Dataset<Row> rows =
        scan(spark, schema, files)
            .withColumn(FILE, col("_metadata.file_name"))
            .join(functions.broadcast(numbers), FILE);
    List<Column> key = new ArrayList<>();
    plan.seriesKey().forEach(column -> key.add(rows.col(column)));
    Dataset<Row> keyed = rows;
    if (plan.interval().isPresent()) {
      keyed = rows.withColumn(INTERVAL, intervalStart(rows, plan));
      key.add(keyed.col(INTERVAL));
    } else {
      plan.timeColumn().ifPresent(time -> key.add(rows.col(time)));
    }
    List<Column> order = new ArrayList<>();
    Dataset<Row> ranked = keyed;
    plan.ingestTimeColumn().ifPresent(ingest -> order.add(ranked.col(ingest).desc_nulls_last()));
    order.add(ranked.col(SEQUENCE).desc());
    List<String> columns = List.of(schema.fieldNames());
    return ranked
        .withColumn(
            RANK,
            row_number()
                .over(
                    Window.partitionBy(key.toArray(Column[]::new))
                        .orderBy(order.toArray(Column[]::new))))
        .where(col(RANK).equalTo(1))
        .select(columns.stream().map(ranked::col).toArray(Column[]::new));
  }

  /**
   * The start of the time's index interval (equal starts, equal intervals): the value less its
   * Euclidean remainder by the width, in microseconds for a timestamp.
   */
  private static Column intervalStart(Dataset<Row> rows, ReadPlan plan) {
    KeyInterval interval = plan.interval().orElseThrow();
    Column time = rows.col(plan.timeColumn().orElseThrow());
    Column value = interval.timestamp() ? unix_micros(time) : time;
    return value.minus(pmod(value, lit(interval.width())));
  }
}
