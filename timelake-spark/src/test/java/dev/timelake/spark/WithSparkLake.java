package dev.timelake.spark;

import dev.timelake.Lake;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** A test class's lake in a temporary folder and a local Spark whose catalog names it. */
abstract class WithSparkLake {
  @TempDir static Path warehouse;
  @TempDir static Path sparkFolder;
  static Lake lake;
  static SparkSession spark;
  static LakeAddress address;

  @BeforeAll
  static void start() {
    lake = Lake.open(warehouse);
    address = LakeAddress.of(warehouse.toString());
    spark = LocalSpark.start(warehouse, sparkFolder);
  }

  @AfterAll
  static void stop() {
    spark.stop();
    lake.close();
  }
}
