package dev.timelake.spark;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/** One small local Spark for a test class: two cores, no UI, UTC, Timelake's catalog and rule. */
final class SparkSessions {
  private SparkSessions() {}

  static SparkSession local(Path warehouse, Path sparkFolder) {
    return SparkSession.builder()
        .master("local[2]")
        .appName("timelake-test")
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
