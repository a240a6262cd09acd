package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import com.sun.management.OperatingSystemMXBean;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableInfo;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import dev.timelake.iiot.GenerationRecord;
import dev.timelake.iiot.GenerationResult;
import dev.timelake.iiot.IiotGenerator;
import dev.timelake.iiot.PlantSql;
import dev.timelake.iiot.Scale;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Runs the IIoT benchmark ({@code BENCHMARK.md}) on the plant in a warehouse, generating it first
 * when {@code iiot.readings} is missing. Every query runs in every {@link Configuration}, side by
 * side in one run: Timelake with routing off, Timelake with rollups and routing on, plain DuckDB
 * over the same data files, DuckDB removing copies with {@code QUALIFY}, and QuestDB (in a child
 * JVM, the same readings without copies) on its raw table and on its materialized views.
 *
 * <pre>{@code
 * BenchmarkReport report = BenchmarkRunner.builder()
 *     .plant(IiotGenerator.builder().scale(Scale.MINI))
 *     .runs(3)
 *     .progress(System.err::println)
 *     .build()
 *     .run(Path.of("warehouse"));
 * report.write(Path.of("bench-results/mini"));
 * }</pre>
 *
 * <p>The run, in order: generate if needed (the bulk load rate); create the rollups (timed); every
 * query, a warm-up pass then the timed passes, answers compared; one more hourly append; refresh of
 * the rollups; {@code maintain}; {@code daily-stats} and {@code gaps} again on the maintained
 * table, to show what removing copies costs once files no longer overlap.
 *
 * <p>A benchmark is a program: tests run it at the tiny scale for its answers, never its times. Not
 * thread-safe; one run at a time per warehouse.
 */
public final class BenchmarkRunner {
  /** The queries measured again after maintenance. */
  static final List<String> AFTER_MAINTENANCE = List.of("daily-stats", "gaps");

  private static final Pattern MEMORY_SIZE =
      Pattern.compile(
          "[0-9]+(\\.[0-9]+)?\\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)", Pattern.CASE_INSENSITIVE);

  private final IiotGenerator plant;
  private final Scale scale;
  private final int runs;
  private final boolean warmUp;
  private final boolean queriesOnly;
  private final boolean questdb;
  private final Set<Configuration> configurations;
  private final String memoryLimit;
  private final Set<String> queries;
  private final Consumer<String> progress;

  private BenchmarkRunner(Builder builder) {
    this.plant = builder.plant.progress(builder.progress).build();
    this.scale = plant.scale();
    this.runs = builder.runs;
    this.warmUp = builder.warmUp;
    this.queriesOnly = builder.queriesOnly;
    this.configurations = java.util.EnumSet.copyOf(builder.configurations);
    this.configurations.add(Configuration.TIMELAKE);
    this.questdb =
        builder.questdb
            && (configurations.contains(Configuration.QUESTDB)
                || configurations.contains(Configuration.QUESTDB_VIEWS));
    this.memoryLimit = builder.memoryLimit != null ? builder.memoryLimit : defaultMemoryLimit();
    this.queries = Set.copyOf(builder.queries);
    this.progress = builder.progress;
  }

  /** Starts a runner: the tiny plant with seed 42, 3 runs after a warm-up, every query. */
  public static Builder builder() {
    return new Builder();
  }

  /** Every query name, in report order. */
  public static List<String> queryNames() {
    return BenchmarkQueries.names();
  }

  /**
   * Runs the benchmark on the lake in {@code warehouse}.
   *
   * @throws TimelakeException if the lake holds another plant, a query name is unknown, or
   *     generating or reading the data fails
   */
  public BenchmarkReport run(Path warehouse) {
    requireNonNull(warehouse, "warehouse is null");
    Instant started = Instant.now();
    try (Lake lake = Lake.open(warehouse)) {
      try (Session session = lake.newSession();
          QueryResult ignored = session.sql("SET memory_limit = " + SqlText.literal(memoryLimit))) {
        // One limit for every engine of the run; the statement goes through to DuckDB.
      }
      OperationFigure load = ensureData(lake, warehouse);
      checkPlant(lake);
      Instant[] span = span(lake);
      List<BenchmarkQuery> selected = BenchmarkQueries.of(scale, span[0], span[1], queries);
      List<OperationFigure> operations = new ArrayList<>();
      operations.add(load);
      LakeOperations lakeOperations = new LakeOperations(lake);
      if (!queriesOnly) {
        progress.accept("creating rollups");
        operations.addAll(
            lakeOperations.createRollups(
                BenchmarkQueries.of(scale, span[0], span[1], Set.of("daily-stats")).stream()
                    .findFirst()));
      }
      String data = describe(lake);
      List<QueryFigures> asLoaded = measure(lake, warehouse, selected, questdb, operations);
      if (queriesOnly) {
        return new BenchmarkReport(
            scale, machine(), started, runs, warmUp, data, asLoaded, List.of(), operations);
      }
      progress.accept("appending one more hour");
      int nextHour = (int) Duration.between(PlantSql.START, span[1]).toHours();
      operations.add(lakeOperations.appendHour(scale, recordedSeed(warehouse), nextHour));
      progress.accept("refreshing rollups");
      operations.addAll(lakeOperations.refreshRollups());
      progress.accept("maintaining");
      operations.add(lakeOperations.maintain());
      List<BenchmarkQuery> again =
          selected.stream().filter(q -> AFTER_MAINTENANCE.contains(q.name())).toList();
      // QuestDB holds the plant as loaded, without the appended hour: it sits this phase out.
      List<QueryFigures> afterMaintenance = measure(lake, warehouse, again, false, operations);
      return new BenchmarkReport(
          scale, machine(), started, runs, warmUp, data, asLoaded, afterMaintenance, operations);
    }
  }

  private String machine() {
    return Machine.describe()
        + ", DuckDB memory_limit "
        + memoryLimit
        + " for each of 3 engines"
        + (questdb ? ", QuestDB " + QuestdbServer.version() + " in a child JVM" : "");
  }

  /**
   * A third of the memory the JVM's heap leaves: Timelake's engine and the two plain DuckDB
   * databases each hold their own buffers, and three defaults of 80 % of RAM together exceed it.
   */
  static String defaultMemoryLimit() {
    long physical =
        ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    long share = (physical - Runtime.getRuntime().maxMemory()) / 3;
    return Math.max(1, share >> 30) + "GB";
  }

  private OperationFigure ensureData(Lake lake, Path warehouse) {
    String name = "bulk load (generation)";
    if (lake.findTable(IiotGenerator.READINGS).isEmpty()) {
      GenerationResult result = plant.generate(lake);
      new GenerationRecord(scale, plant.seed(), plant.hours(), result).write(warehouse);
      return loadFigure(name + ", this run", result);
    }
    return GenerationRecord.read(warehouse)
        .filter(record -> record.scale() == scale)
        .map(record -> loadFigure(name + ", earlier run", record.result()))
        .orElse(
            OperationFigure.notMeasured(
                name, "not measured: the lake was generated without a generation record"));
  }

  private static OperationFigure loadFigure(String name, GenerationResult result) {
    return OperationFigure.measured(
        name,
        result.elapsed(),
        String.format(
            Locale.ROOT,
            "%,d readings in %d hourly appends, %,.0f readings/s",
            result.readings(),
            result.hoursAppended(),
            result.readingsPerSecond()));
  }

  private long recordedSeed(Path warehouse) {
    return GenerationRecord.read(warehouse).map(GenerationRecord::seed).orElse(plant.seed());
  }

  private void checkPlant(Lake lake) {
    long tags = lake.table(IiotGenerator.TAGS).info().rows();
    if (tags != scale.tags()) {
      throw TimelakeException.validation(
          "Cannot benchmark the %s plant in %s: %s holds %d tags, the plant has %d",
          scale.label(), lake.description(), IiotGenerator.TAGS, tags, scale.tags());
    }
  }

  /** The first and the end (exclusive) hour of the readings: {@code $T0} and {@code $T1}. */
  private static Instant[] span(Lake lake) {
    try (Session session = lake.newSession().set("read-dedup", "false");
        QueryResult result = session.sql("SELECT min(time), max(time) FROM iiot.readings")) {
      if (!result.next() || result.value(0) == null) {
        throw TimelakeException.validation("Cannot benchmark: iiot.readings holds no readings");
      }
      Instant first = ((OffsetDateTime) result.value(0)).toInstant();
      Instant last = ((OffsetDateTime) result.value(1)).toInstant();
      return new Instant[] {
        first.truncatedTo(ChronoUnit.HOURS), last.truncatedTo(ChronoUnit.HOURS).plusSeconds(3600)
      };
    }
  }

  private static String describe(Lake lake) {
    TableInfo info = lake.table(IiotGenerator.READINGS).info();
    return String.format(
        Locale.ROOT,
        "iiot.readings: %,d rows (copies included) in %,d files, %,d partitions",
        info.rows(),
        info.files(),
        info.partitions().size());
  }

  /**
   * Runs {@code selected} in every configuration; with {@code withQuestdb}, first starts QuestDB
   * and loads it (its figures go to {@code operations}), and stops it afterwards.
   */
  private List<QueryFigures> measure(
      Lake lake,
      Path warehouse,
      List<BenchmarkQuery> selected,
      boolean withQuestdb,
      List<OperationFigure> operations) {
    if (selected.isEmpty()) {
      return List.of();
    }
    Table readings = lake.table(IiotGenerator.READINGS);
    DataFiles readingFiles = DataFiles.of(warehouse, readings);
    DataFiles tagFiles = DataFiles.of(warehouse, lake.table(IiotGenerator.TAGS));
    List<QueryTarget> targets = new ArrayList<>();
    QuestdbServer server = null;
    try {
      targets.add(TimelakeTarget.unrouted(lake));
      if (configurations.contains(Configuration.TIMELAKE_ROUTED)) {
        targets.add(TimelakeTarget.routed(lake));
      }
      if (configurations.contains(Configuration.DUCKDB)) {
        targets.add(DuckdbTarget.plain(readingFiles, tagFiles, memoryLimit));
      }
      if (configurations.contains(Configuration.DUCKDB_QUALIFY)) {
        targets.add(DuckdbTarget.qualified(readingFiles, tagFiles, memoryLimit));
      }
      if (withQuestdb) {
        progress.accept("starting QuestDB");
        server = QuestdbServer.start(Path.of(System.getProperty("java.io.tmpdir")));
        operations.addAll(server.load(readingFiles, tagFiles, memoryLimit, progress));
        targets.addAll(server.targets(configurations));
      }
      return new QueryPhase(targets, warmUp, runs, progress).run(selected);
    } finally {
      targets.forEach(QueryTarget::close);
      if (server != null) {
        server.close();
      }
    }
  }

  /** Builds a {@link BenchmarkRunner}. */
  public static final class Builder {
    private IiotGenerator.Builder plant = IiotGenerator.builder();
    private int runs = 3;
    private boolean warmUp = true;
    private boolean queriesOnly;
    private boolean questdb = true;
    private final Set<Configuration> configurations = java.util.EnumSet.allOf(Configuration.class);
    private String memoryLimit;
    private final Set<String> queries = new LinkedHashSet<>();
    private Consumer<String> progress = message -> {};

    private Builder() {}

    /**
     * The plant: its scale is the one benchmarked, and it is generated (with the runner's progress)
     * when the warehouse holds none. Default: the tiny plant, seed 42.
     */
    public Builder plant(IiotGenerator.Builder plant) {
      this.plant = requireNonNull(plant, "plant is null");
      return this;
    }

    /** Timed runs of each query in each configuration (default 3). */
    public Builder runs(int runs) {
      if (runs < 1) {
        throw TimelakeException.validation("Invalid runs %d: expected at least 1", runs);
      }
      this.runs = runs;
      return this;
    }

    /** Skips the warm-up pass: the first run is timed too (smoke tests, large scales). */
    public Builder withoutWarmUp() {
      this.warmUp = false;
      return this;
    }

    /**
     * Measures the queries on the plant as it is and changes nothing: no rollups created (existing
     * ones are used), no append, refresh or maintenance. For comparing two builds on one plant.
     */
    public Builder queriesOnly() {
      this.queriesOnly = true;
      return this;
    }

    /**
     * Leaves QuestDB out: by default the runner starts QuestDB in a child JVM on loopback, loads
     * the readings without copies and queries it side by side (configurations {@code questdb} and
     * {@code questdb-views}) in the queries on the table as loaded.
     */
    public Builder withoutQuestdb() {
      this.questdb = false;
      return this;
    }

    /**
     * Runs only these configurations (default: all); {@code timelake}, whose answers the others are
     * compared with, always runs. For measuring some columns again without the hours the others
     * take.
     */
    public Builder configurations(List<Configuration> chosen) {
      configurations.clear();
      configurations.addAll(chosen);
      configurations.add(Configuration.TIMELAKE);
      return this;
    }

    /**
     * DuckDB's {@code memory_limit} for each engine of the run, e.g. {@code 6GB} (default: a third
     * of the memory the JVM's heap leaves).
     */
    public Builder memoryLimit(String size) {
      requireNonNull(size, "size is null");
      if (!MEMORY_SIZE.matcher(size).matches()) {
        throw TimelakeException.validation(
            "Invalid memory limit '%s': expected a size such as 6GB or 512MB", size);
      }
      this.memoryLimit = size;
      return this;
    }

    /** Runs only these queries (default: all); names as in {@link #queryNames()}. */
    public Builder queries(List<String> names) {
      for (String name : names) {
        if (!BenchmarkQueries.names().contains(name)) {
          throw TimelakeException.validation(
              "Unknown query '%s' (queries: %s)", name, String.join(", ", queryNames()));
        }
      }
      queries.clear();
      queries.addAll(names);
      return this;
    }

    /** Receives progress messages such as {@code run 2/3: daily-stats}. */
    public Builder progress(Consumer<String> listener) {
      this.progress = requireNonNull(listener, "listener is null");
      return this;
    }

    public BenchmarkRunner build() {
      return new BenchmarkRunner(this);
    }
  }
}
