package dev.timelake.spark;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * A small Spark in this JVM, for the tests and the benchmark: two cores, no UI, loopback only, UTC,
 * Timelake's catalog ({@code timelake}) on {@code warehouse} and its extension.
 */
final class LocalSpark {
  private LocalSpark() {}

  static SparkSession start(Path warehouse, Path sparkFolder) {
    return SparkSession.builder()
        .master("local[2]")
        .appName("timelake")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.local.dir", sparkFolder.toString())
        .config("spark.sql.warehouse.dir", sparkFolder.resolve("spark-warehouse").toString())
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.extensions", TimelakeSparkExtensions.class.getName())
        .config("spark.sql.catalog.timelake", TimelakeCatalog.class.getName())
        .config("spark.sql.catalog.timelake.warehouse", warehouse.toString())
        .getOrCreate();
  }
}
