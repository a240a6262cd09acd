package dev.timelake.spark;

import static java.util.Objects.requireNonNull;

import dev.timelake.ReadPlan;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Timelake tables in Spark: reads with copies removed by Timelake's rule and scan plan (files that
 * overlap no other are read without any dedup work), and maintenance as Spark jobs.
 *
 * <pre>{@code
 * LakeAddress lake = LakeAddress.of("/data/lake");
 * Dataset<Row> readings = TimelakeSpark.read(spark, lake, "iot.readings");
 * readings.groupBy("tag").avg("value").show();
 * }</pre>
 */
public final class TimelakeSpark {
  private TimelakeSpark() {}

  /**
   * The table's current rows with copies removed: the newest write of each key wins (highest
   * insertion time, then the later commit), as in Timelake's own reader.
   */
  public static Dataset<Row> read(SparkSession spark, LakeAddress lake, String table) {
    requireNonNull(spark, "spark is null");
    requireNonNull(lake, "lake is null");
    ReadPlan plan = lake.lake().table(table).readPlan();
    return DedupReader.read(spark, plan);
  }
}
