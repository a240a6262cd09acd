package dev.timelake.iiot;

import static java.util.Objects.requireNonNull;

import dev.timelake.AppendResult;
import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Generates the IIoT benchmark's data (see the project's {@code BENCHMARK.md}): the plant's tags in
 * {@code iiot.tags} and its readings in {@code iiot.readings}, appended the way a gateway delivers
 * them, one append per simulated hour.
 *
 * <pre>{@code
 * IiotGenerator generator = IiotGenerator.builder()
 *     .scale(Scale.MINI)
 *     .seed(42)
 *     .progress(System.out::println)
 *     .build();
 * GenerationResult result = generator.generate(lake);
 * }</pre>
 *
 * <p><b>The plant.</b> Lines × machines × 5 tags ({@code L03-M07-T2}: line 3, machine 7, tag 2).
 * The five tags of a machine are a temperature, a pressure, a flow, a vibration and a power, each
 * with its own base level, amplitude, noise, alarm limits ({@code low}, {@code high}) and sampling
 * period (2–10 s, skewed so that a tag reports every 6 s on average). A reading's time is its
 * sample slot plus a jitter of up to ±30 % of the period, in whole milliseconds; the value is the
 * base level plus a daily cycle, a slow drift (a 5–20 day wave), triangular noise, and, in 0.2 % of
 * a tag's minutes, a spike above {@code high}, rounded to 3 decimals. Quality is 192 (good), 64
 * (uncertain, 0.8 %) or 0 (bad, 0.2 %). Each machine is down about 5 % of the time, in runs of
 * 5–120 minutes, during which none of its tags reports.
 *
 * <p><b>Arrival.</b> Readings timed in hour {@code h} arrive in the append of hour {@code h}, with
 * {@code _ingest_ts} the end of that hour ({@code h + 1h}, so no reading arrives before it was
 * taken). Two exceptions, each drawn per 10-minute block of one tag: 2 % of blocks are delayed by
 * 1–48 h (store and forward) and arrive in that later append; 0.5 % of blocks are sent again 1–48 h
 * later, as copies with the same tag and time, half of which carry a corrected value, so the newest
 * copy must win. Whatever would arrive after the last hour arrives in the last append. No append
 * holds two copies of one reading.
 *
 * <p><b>Determinism.</b> Every random choice is DuckDB's {@code hash()} of the seed and of what it
 * decides (a tag, a sample, a block, a machine's 4-hour window), mapped to [0, 1). The readings of
 * an hour are therefore a pure function of the seed, the scale, the number of hours and the hour,
 * computed by one vectorized SQL query over the tags and their sample numbers; the same seed gives
 * the same rows whatever the thread count or the order of the hours. DuckDB's {@code hash()} is not
 * promised stable across DuckDB versions: data is reproducible with the DuckDB version the project
 * pins.
 *
 * <p><b>Resuming.</b> Each hourly append carries the batch id {@code hour-<yyyy-MM-ddTHH>}; a run
 * on a lake that already holds some of the hours skips them, so an interrupted run can be restarted
 * with the same scale, seed and hours. A lake whose {@code iiot.tags} holds another number of tags
 * is refused.
 *
 * <p>Instances are immutable and thread-safe; {@link #generate} writes to the lake and must not run
 * twice at once on one lake.
 */
public final class IiotGenerator {
  /** The plain table of tags. */
  public static final TableName TAGS = TableName.parse("iiot.tags");

  /** The time-series table of readings. */
  public static final TableName READINGS = TableName.parse("iiot.readings");

  private static final DateTimeFormatter HOUR_LABEL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Scale scale;
  private final long seed;
  private final int hours;
  private final boolean autoMaintain;
  private final Consumer<String> progress;
  private final PlantSql sql;

  private IiotGenerator(Builder builder) {
    this.scale = builder.scale;
    this.seed = builder.seed;
    this.hours = builder.hours == 0 ? scale.hours() : builder.hours;
    this.autoMaintain = builder.autoMaintain;
    this.progress = builder.progress;
    this.sql = new PlantSql(scale, seed, hours);
  }

  /** Starts a generator: scale {@link Scale#TINY}, seed 42, all of the scale's hours. */
  public static Builder builder() {
    return new Builder();
  }

  public Scale scale() {
    return scale;
  }

  public long seed() {
    return seed;
  }

  /** Hours of readings generated, one append each. */
  public int hours() {
    return hours;
  }

  /** The first instant of the readings: 2026-01-01T00:00Z. */
  public Instant start() {
    return PlantSql.START;
  }

  /** The end (exclusive) of the readings' times. */
  public Instant end() {
    return start().plus(Duration.ofHours(hours));
  }

  /**
   * Creates {@code iiot.tags} and {@code iiot.readings} in {@code lake} if they are missing and
   * appends every hour not yet committed.
   *
   * @throws TimelakeException if an append fails; the hours committed before it stay committed
   */
  public GenerationResult generate(Lake lake) {
    requireNonNull(lake, "lake is null");
    long started = System.nanoTime();
    appendTags(lake);
    Table readings =
        lake.findTable(READINGS).orElseGet(() -> lake.createTable(readingsTable(autoMaintain)));
    long total = 0;
    long copiesDropped = 0;
    int appended = 0;
    int skipped = 0;
    for (int hour = 0; hour < hours; hour++) {
      AppendResult result =
          readings
              .newAppend()
              .batchId("hour-" + HOUR_LABEL.format(hourStart(hour)))
              .fromQuery(sql.readingsQuery(hour, hour + 1))
              .clock(Clock.fixed(hourStart(hour + 1), ZoneOffset.UTC))
              .commit();
      if (result.outcome() == AppendResult.Outcome.SKIPPED_DUPLICATE_BATCH) {
        skipped++;
      } else {
        appended++;
      }
      total += result.rows();
      copiesDropped += result.copiesDropped();
      progress.accept(
          String.format(
              Locale.ROOT,
              "hour %d/%d, %,d readings%s",
              hour + 1,
              hours,
              total,
              skipped > 0 ? " (" + skipped + " hours already there)" : ""));
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    return new GenerationResult(total, appended, skipped, copiesDropped, elapsed);
  }

  /**
   * Writes the same readings as plain Parquet files, one per day of arrival ({@code
   * readings-2026-01-01.parquet}: every copy that arrived that day, with its {@code _ingest_ts}),
   * plus {@code tags.parquet}, for comparisons with DuckDB reading Parquet directly. Needs no lake.
   *
   * @return the number of readings written
   */
  public long writePlainParquet(Path directory) {
    requireNonNull(directory, "directory is null");
    try (PlainParquetWriter writer = PlainParquetWriter.open(directory)) {
      writer.write("tags.parquet", sql.tagsQuery());
      long total = 0;
      for (int day = 0; day * 24 < hours; day++) {
        int from = day * 24;
        int to = Math.min(hours, from + 24);
        String name =
            "readings-" + HOUR_LABEL.format(hourStart(from)).substring(0, 10) + ".parquet";
        total += writer.write(name, sql.readingsWithIngestTimeQuery(from, to));
        progress.accept(
            String.format(Locale.ROOT, "hour %d/%d, %,d readings written", to, hours, total));
      }
      return total;
    }
  }

  private void appendTags(Lake lake) {
    Table tags = lake.findTable(TAGS).orElseGet(() -> lake.createTable(tagsTable()));
    tags.newAppend().batchId("tags").fromQuery(sql.tagsQuery()).commit();
    long rows = tags.refresh().info().rows();
    if (rows != scale.tags()) {
      throw TimelakeException.validation(
          "Cannot generate the %s plant in %s: %s holds %d tags, the plant has %d (drop %s and %s,"
              + " or use another warehouse)",
          scale.label(), lake.description(), TAGS, rows, scale.tags(), TAGS, READINGS);
    }
  }

  private Instant hourStart(int hour) {
    return start().plus(Duration.ofHours(hour));
  }

  static TableDefinition tagsTable() {
    return TableDefinition.builder(TAGS)
        .column(Column.required("tag", ColumnType.VARCHAR))
        .column("line", ColumnType.VARCHAR)
        .column("machine", ColumnType.VARCHAR)
        .column("unit", ColumnType.VARCHAR)
        .column("low", ColumnType.DOUBLE)
        .column("high", ColumnType.DOUBLE)
        .withoutIngestTime()
        .build();
  }

  static TableDefinition readingsTable(boolean autoMaintain) {
    return TableDefinition.builder(READINGS)
        .column("tag", ColumnType.VARCHAR)
        .column("time", ColumnType.TIMESTAMPTZ)
        .column("value", ColumnType.DOUBLE)
        .column("quality", ColumnType.INTEGER)
        .timeColumn("time")
        .seriesKey("tag")
        .chunk(Chunk.DAY)
        .option("auto-maintain", Boolean.toString(autoMaintain))
        .build();
  }

  /** Builds an {@link IiotGenerator}. */
  public static final class Builder {
    private Scale scale = Scale.TINY;
    private long seed = 42;
    private int hours;
    private boolean autoMaintain = true;
    private Consumer<String> progress = message -> {};

    private Builder() {}

    public Builder scale(Scale scale) {
      this.scale = requireNonNull(scale, "scale is null");
      return this;
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /**
     * Generates only the first {@code hours} hours (a short demo); at most the scale's hours. The
     * data of those hours equals the full run's, except that readings due later arrive in the last
     * hour.
     */
    public Builder hours(int hours) {
      if (hours < 1) {
        throw TimelakeException.validation("Invalid hours %d: expected at least 1", hours);
      }
      this.hours = hours;
      return this;
    }

    /**
     * Whether {@code iiot.readings} maintains itself after each append (its {@code auto-maintain}
     * setting; default true). Off leaves every small and late file in place: the state before any
     * compaction, which dedup on read must handle alone.
     */
    public Builder autoMaintain(boolean enabled) {
      this.autoMaintain = enabled;
      return this;
    }

    /** Receives progress messages such as {@code hour 12/48, 123,456 readings}. */
    public Builder progress(Consumer<String> listener) {
      this.progress = requireNonNull(listener, "listener is null");
      return this;
    }

    public IiotGenerator build() {
      if (hours > scale.hours()) {
        throw TimelakeException.validation(
            "Invalid hours %d for scale %s: expected at most %d",
            hours, scale.label(), scale.hours());
      }
      return new IiotGenerator(this);
    }
  }
}
