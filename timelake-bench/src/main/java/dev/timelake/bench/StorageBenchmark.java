package dev.timelake.bench;

import dev.timelake.Lake;
import dev.timelake.MaintenanceReport;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.iiot.GenerationResult;
import dev.timelake.iiot.IiotGenerator;
import dev.timelake.iiot.Scale;
import dev.timelake.testkit.LocalS3;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The IIoT plant on a local disk and on an S3 API server, side by side in one run: the bulk load,
 * {@code daily-stats} unrouted (first on a machine whose cache is empty, then warm) and routed to
 * the daily rollup, {@code maintain}, and {@code daily-stats} on the maintained table. The S3
 * server is S3Proxy on loopback, storing objects in a folder of the same disk, so the difference is
 * the object-storage path (the S3 protocol, uploads, local copies), not a network.
 *
 * <p>A benchmark is a program, not a test. Not thread-safe.
 */
public final class StorageBenchmark {
  private final Scale scale;
  private final int runs;
  private final Consumer<String> progress;

  /** A benchmark of the plant at {@code scale}, timing warm queries {@code runs} times. */
  public StorageBenchmark(Scale scale, int runs, Consumer<String> progress) {
    this.scale = scale;
    this.runs = runs;
    this.progress = progress;
  }

  /** The figures of one storage, by operation, in milliseconds. */
  public record Column(String storage, Map<String, Double> millis, String notes) {}

  /** Both storages' figures. */
  public record Figures(Scale scale, int runs, List<Column> columns) {
    /** A Markdown table: an operation per row, local disk, S3 and their ratio. */
    public String render() {
      StringBuilder out = new StringBuilder();
      out.append(
          String.format(
              Locale.ROOT,
              "Storage benchmark, %s plant, warm queries: median of %d runs%n%n",
              scale.label(),
              runs));
      out.append("| operation | ")
          .append(columns.get(0).storage())
          .append(" | ")
          .append(columns.get(1).storage())
          .append(" | ratio |\n|---|---:|---:|---:|\n");
      for (String operation : columns.get(0).millis().keySet()) {
        double local = columns.get(0).millis().get(operation);
        double remote = columns.get(1).millis().getOrDefault(operation, Double.NaN);
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %,.0f ms | %,.0f ms | %.2f× |%n",
                operation,
                local,
                remote,
                remote / local));
      }
      columns.forEach(c -> out.append("\n").append(c.storage()).append(": ").append(c.notes()));
      return out.append("\n").toString();
    }
  }

  /** Runs both storages in folders under {@code work}, which must be empty or missing. */
  public Figures run(Path work) throws Exception {
    Files.createDirectories(work);
    try (var entries = Files.list(work)) {
      if (entries.findAny().isPresent()) {
        throw TimelakeException.validation(
            "Cannot run the storage benchmark in %s: the folder is not empty", work);
      }
    }
    List<Column> columns = new ArrayList<>();
    progress.accept("local disk");
    try (Lake lake = Lake.open(work.resolve("local"))) {
      columns.add(measure("local disk", lake, () -> Lake.open(work.resolve("local"))));
    }
    progress.accept("S3 (S3Proxy on loopback)");
    try (LocalS3 s3 = LocalS3.start(work.resolve("s3-server"))) {
      String bucket = s3.createBucket("plant") + "/lake";
      Map<String, String> properties = new HashMap<>(s3.properties());
      properties.put("uri", "jdbc:sqlite:" + work.resolve("s3-catalog.db"));
      properties.put("timelake.cache-dir", work.resolve("s3-cache").toString());
      int[] machines = {0};
      FreshLake freshMachine =
          () -> {
            Map<String, String> empty = new HashMap<>(properties);
            empty.put("timelake.cache-dir", work.resolve("s3-cache-" + ++machines[0]).toString());
            return Lake.open(bucket, empty);
          };
      try (Lake lake = Lake.open(bucket, properties)) {
        columns.add(measure("S3 (S3Proxy)", lake, freshMachine));
      }
    }
    return new Figures(scale, runs, columns);
  }

  /** Opens the lake as another machine would see it (no local copies yet). */
  private interface FreshLake {
    Lake open() throws Exception;
  }

  private Column measure(String storage, Lake lake, FreshLake fresh) throws Exception {
    Map<String, Double> millis = new LinkedHashMap<>();
    IiotGenerator plant = IiotGenerator.builder().scale(scale).progress(progress).build();
    GenerationResult load = plant.generate(lake);
    millis.put("bulk load (generation, hourly appends)", (double) load.elapsed().toMillis());
    List<BenchmarkQuery> queries =
        BenchmarkQueries.of(scale, plant.start(), plant.end(), Set.of("daily-stats"));
    String dailyStats = queries.get(0).sql(SqlDialect.forTimelake());

    try (Lake other = fresh.open()) {
      once(other, "SELECT 1", false); // the engine's start is not the storage's
      millis.put("daily-stats unrouted, first query, empty cache", once(other, dailyStats, false));
    }
    millis.put("daily-stats unrouted, warm", median(lake, dailyStats, false));
    long started = System.nanoTime();
    new LakeOperations(lake).createRollups(java.util.Optional.empty());
    millis.put("create the 1-minute, hourly and daily rollups", elapsed(started));
    millis.put("daily-stats routed, warm", median(lake, dailyStats, true));
    MaintenanceReport report = lake.table(IiotGenerator.READINGS).newMaintenance().run();
    millis.put("maintain", (double) report.took().toMillis());
    millis.put("daily-stats unrouted after maintain, warm", median(lake, dailyStats, false));
    try (Lake other = fresh.open()) {
      once(other, "SELECT 1", false);
      millis.put(
          "daily-stats unrouted after maintain, first query, empty cache",
          once(other, dailyStats, false));
    }
    String notes =
        String.format(
            Locale.ROOT,
            "%,d readings, %,d files before maintenance, %,d after (%s)",
            load.readings(),
            report.filesBefore(),
            report.filesAfter(),
            lake.description());
    return new Column(storage, millis, notes);
  }

  private double median(Lake lake, String sql, boolean routed) {
    once(lake, sql, routed); // warm-up
    double[] times = new double[runs];
    for (int i = 0; i < runs; i++) {
      times[i] = once(lake, sql, routed);
    }
    Arrays.sort(times);
    return times[runs / 2];
  }

  private static double once(Lake lake, String sql, boolean routed) {
    long started = System.nanoTime();
    try (Session session = lake.newSession().set("rollup-routing", Boolean.toString(routed));
        QueryResult result = session.sql(sql)) {
      while (result.next()) {
        // read every row
      }
    }
    return elapsed(started);
  }

  private static double elapsed(long startedNanos) {
    return Duration.ofNanos(System.nanoTime() - startedNanos).toNanos() / 1e6;
  }
}
