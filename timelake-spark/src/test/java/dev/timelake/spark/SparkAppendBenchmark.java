package dev.timelake.spark;

import dev.timelake.AppendResult;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.TableDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The throughput of a Spark append against the embedded {@code Append.fromParquet} of the same
 * Parquet files, each into a fresh table of the IIoT readings' shape (defaults: inline maintenance
 * on), alternating, in one JVM; also Spark's staging alone (the same files read and written as
 * Parquet by Spark). A program, not a test:
 *
 * <pre>
 * ./timelake --warehouse /tmp/sparkw/wh bench generate --scale mini --hours 48
 * ./timelake --warehouse /tmp/sparkw/wh sql -c "COPY (SELECT tag, time, value, quality
 *     FROM iiot.readings) TO '/tmp/sparkw/readings' (FORMAT parquet, PER_THREAD_OUTPUT true)"
 * java … dev.timelake.spark.SparkAppendBenchmark /tmp/sparkw/bench /tmp/sparkw/readings 3
 * </pre>
 *
 * <p>with the JVM options of {@code timelake-spark/benchmark} and the module's test class path
 * ({@code target/test-classes}, {@code target/classes} and its test-scope dependencies).
 */
public final class SparkAppendBenchmark {
  private SparkAppendBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path warehouse = Path.of(args[0]).toAbsolutePath();
    Path input = Path.of(args[1]).toAbsolutePath();
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    List<Path> files = parquetFiles(input);
    LakeAddress address = LakeAddress.of(warehouse.toString());
    Path sparkFolder = Files.createTempDirectory("timelake-spark");
    SparkSession spark = LocalSpark.start(warehouse, sparkFolder);
    spark.sparkContext().setLogLevel("WARN");
    Lake lake = address.lake();
    try {
      for (int run = 0; run < runs; run++) {
        String embedded = create(lake, "bench.embedded_" + run);
        String viaSpark = create(lake, "bench.spark_" + run);
        AppendResult[] results = new AppendResult[2];
        double embeddedMs =
            time(
                () ->
                    results[0] =
                        lake.table(embedded)
                            .newAppend()
                            .fromParquet(files.toArray(Path[]::new))
                            .commit());
        double sparkMs =
            time(
                () ->
                    results[1] =
                        TimelakeSpark.append(
                            spark.read().parquet(input.toUri().toString()), address, viaSpark));
        Path staged = sparkFolder.resolve("staged-" + run);
        double stagingMs =
            time(
                () -> {
                  spark
                      .read()
                      .parquet(input.toUri().toString())
                      .write()
                      .mode(SaveMode.ErrorIfExists)
                      .option("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
                      .parquet(staged.toUri().toString());
                  return null;
                });
        long rows = results[0].rows();
        System.out.printf(
            Locale.ROOT,
            "run %d: %,d rows (spark: %,d); embedded %,.0f ms = %,.0f rows/s; spark %,.0f ms = %,.0f"
                + " rows/s; spark staging alone %,.0f ms; maintenance: embedded %s, spark %s%n",
            run,
            rows,
            results[1].rows(),
            embeddedMs,
            rows / embeddedMs * 1000,
            sparkMs,
            rows / sparkMs * 1000,
            stagingMs,
            results[0].maintenance().map(m -> m.took().toMillis() + " ms").orElse("none"),
            results[1].maintenance().map(m -> m.took().toMillis() + " ms").orElse("none"));
      }
    } finally {
      spark.stop();
    }
    System.exit(0);
  }

  private static String create(Lake lake, String name) {
    lake.createTable(
        TableDefinition.builder(name)
            .column("tag", ColumnType.VARCHAR)
            .column("time", ColumnType.TIMESTAMPTZ)
            .column("value", ColumnType.DOUBLE)
            .column("quality", ColumnType.INTEGER)
            .timeColumn("time")
            .seriesKey("tag")
            .build());
    return name;
  }

  private static double time(Supplier<?> action) {
    long started = System.nanoTime();
    action.get();
    return (System.nanoTime() - started) / 1e6;
  }

  private static List<Path> parquetFiles(Path folder) throws IOException {
    try (Stream<Path> listed = Files.list(folder)) {
      return new ArrayList<>(
          listed.filter(file -> file.toString().endsWith(".parquet")).sorted().toList());
    }
  }
}
