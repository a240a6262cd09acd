package dev.timelake.spark;

import dev.timelake.Lake;
import dev.timelake.MaintenanceReport;
import dev.timelake.QueryResult;
import dev.timelake.ReadPlan;
import dev.timelake.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's deduplicated reads against Timelake's own reader on the same warehouse, side by side in
 * one run: the plan, a count of the rows, daily statistics per tag, and a plain Spark scan of every
 * file (copies included) for what removing copies costs. Then, with {@code --maintain}, the table
 * maintained by Spark and the same queries again. A program, not a test:
 *
 * <pre>
 * ./timelake --warehouse /tmp/bench-mini bench generate --scale mini
 * timelake-spark/benchmark /tmp/bench-mini 3 --maintain
 * </pre>
 */
public final class SparkBenchmark {
  private static final String TABLE = "iiot.readings";
  private static final String DAILY =
      "SELECT tag, date_trunc('day', time) AS day, avg(value), min(value), max(value), count(*)"
          + " FROM %s GROUP BY tag, date_trunc('day', time)";

  private SparkBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: SparkBenchmark WAREHOUSE [RUNS] [--maintain]");
      System.exit(2);
    }
    Path warehouse = Path.of(args[0]).toAbsolutePath();
    int runs = args.length > 1 && !args[1].startsWith("--") ? Integer.parseInt(args[1]) : 3;
    boolean maintain = Arrays.asList(args).contains("--maintain");
    LakeAddress address = LakeAddress.of(warehouse.toString());
    SparkSession spark =
        LocalSpark.start(warehouse, java.nio.file.Files.createTempDirectory("timelake-spark"));
    spark.sparkContext().setLogLevel("WARN");
    try {
      Lake lake = address.lake();
      StringBuilder report = new StringBuilder();
      report.append(measure("as loaded", lake, spark, address, runs));
      if (maintain) {
        long started = System.nanoTime();
        MaintenanceReport maintained = TimelakeSpark.maintain(spark, address, TABLE);
        report.append(
            String.format(
                Locale.ROOT,
                "%nSpark maintain: %,.0f ms (%d partitions rewritten, %d → %d files)%n%n",
                (System.nanoTime() - started) / 1e6,
                maintained.partitionsRewritten(),
                maintained.filesBefore(),
                maintained.filesAfter()));
        report.append(measure("after Spark's maintain", lake, spark, address, runs));
      }
      System.out.print(report);
    } finally {
      spark.stop();
    }
  }

  private static String measure(
      String phase, Lake lake, SparkSession spark, LakeAddress address, int runs) {
    ReadPlan plan = lake.table(TABLE).readPlan();
    long grouped = plan.toDeduplicate().stream().mapToLong(List::size).sum();
    List<ReadPlan.ReadFile> groupFiles =
        plan.toDeduplicate().stream().flatMap(List::stream).toList();
    long freshFiles = groupFiles.stream().filter(ReadPlan.ReadFile::fresh).count();
    long contestedRows =
        groupFiles.stream().filter(f -> !f.fresh()).mapToLong(ReadPlan.ReadFile::rows).sum();
    long groupRows = groupFiles.stream().mapToLong(ReadPlan.ReadFile::rows).sum();
    Map<String, double[]> rows = new LinkedHashMap<>();
    rows.put(
        "plan (Table.readPlan)",
        new double[] {time(runs, () -> lake.table(TABLE).readPlan().files().size()), Double.NaN});
    long[] counts = new long[2];
    rows.put(
        "count(*), copies removed",
        new double[] {
          time(runs, () -> counts[0] = embeddedCount(lake)),
          time(runs, () -> counts[1] = TimelakeSpark.read(spark, address, TABLE).count())
        });
    rows.put(
        "daily statistics per tag",
        new double[] {
          time(runs, () -> embeddedRows(lake, String.format(DAILY, TABLE))),
          time(
              runs,
              () -> spark.sql(String.format(DAILY, "timelake." + TABLE)).collectAsList().size())
        });
    if (!plan.toDeduplicate().isEmpty()) {
      // Where Spark's time goes: the groups alone, copies removed.
      ReadPlan groupsOnly =
          new ReadPlan(
              plan.table(),
              plan.snapshotId(),
              plan.schemaJson(),
              List.of(),
              plan.toDeduplicate(),
              plan.seriesKey(),
              plan.timeColumn(),
              plan.ingestTimeColumn(),
              plan.interval());
      rows.put(
          "count(*) of the groups alone, copies removed",
          new double[] {Double.NaN, time(runs, () -> DedupReader.read(spark, groupsOnly).count())});
    }
    String[] paths = plan.files().stream().map(ReadPlan.ReadFile::location).toArray(String[]::new);
    rows.put(
        "count(*) of every file, copies kept (plain Spark scan)",
        new double[] {Double.NaN, time(runs, () -> spark.read().parquet(paths).count())});
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s: %,d files (%,d read as they are, %,d in %,d groups: %,d of them fresh, %,d of"
                + " their %,d rows in the others), %,d rows after dedup (Timelake %,d, Spark %,d)%n%n",
            phase,
            plan.files().size(),
            plan.asIs().size(),
            grouped,
            plan.toDeduplicate().size(),
            freshFiles,
            contestedRows,
            groupRows,
            counts[0],
            counts[0],
            counts[1]));
    out.append("| query | Timelake (DuckDB) | Spark local[2] | Spark ÷ Timelake |\n");
    out.append("|---|---:|---:|---:|\n");
    rows.forEach(
        (name, times) ->
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s |%n",
                    name,
                    millis(times[0]),
                    millis(times[1]),
                    Double.isNaN(times[0]) || Double.isNaN(times[1])
                        ? ""
                        : String.format(Locale.ROOT, "%.2f×", times[1] / times[0]))));
    return out.toString();
  }

  private static String millis(double value) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%,.0f ms", value);
  }

  private static long embeddedCount(Lake lake) {
    return ((Number) embeddedRows(lake, "SELECT count(*) FROM " + TABLE).get(0).get(0)).longValue();
  }

  private static List<List<Object>> embeddedRows(Lake lake, String sql) {
    try (Session session = lake.newSession().set("rollup-routing", "false");
        QueryResult result = session.sql(sql)) {
      return new ArrayList<>(result.rows());
    }
  }

  /** The median of {@code runs} timed runs after one warm-up, in milliseconds. */
  private static double time(int runs, Supplier<Object> work) {
    work.get();
    double[] times = new double[runs];
    for (int i = 0; i < runs; i++) {
      long started = System.nanoTime();
      work.get();
      times[i] = (System.nanoTime() - started) / 1e6;
    }
    Arrays.sort(times);
    return times[runs / 2];
  }
}
