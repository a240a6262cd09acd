package dev.timelake.spark;

import dev.timelake.Lake;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/** A test class's lake in a temporary folder and a local Spark whose catalog names it. */
final class SparkLake implements AutoCloseable {
  final Lake lake;
  final LakeAddress address;
  final SparkSession spark;

  SparkLake(Path warehouse, Path sparkFolder) {
    this.lake = Lake.open(warehouse);
    this.address = LakeAddress.of(warehouse.toString());
    this.spark = LocalSpark.start(warehouse, sparkFolder);
  }

  @Override
  public void close() {
    spark.stop();
    lake.close();
  }
}
