package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.maintain.InlineMaintenance;
import dev.timelake.table.Settings;
import dev.timelake.write.AppendOperation;
import dev.timelake.write.AppendSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Builds one append: add sources, optionally a batch id, then {@link #commit()}. The whole append
 * is one atomic commit; invalid input commits nothing.
 *
 * <pre>{@code
 * AppendResult result = table.newAppend()
 *     .batchId("gateway-7/2026-01-01T10")
 *     .fromParquet(Path.of("readings.parquet"))
 *     .commit();
 * }</pre>
 */
public final class Append {
  private final LakeCatalog catalog;
  private final LoadedTable table;
  private final List<AppendSource> sources = new ArrayList<>();
  private List<String> pendingColumns = List.of();
  private List<List<Object>> pendingRows = new ArrayList<>();
  private Optional<String> batchId = Optional.empty();
  private Optional<String> writtenBy = Optional.empty();
  private Clock clock = Clock.systemUTC();
  private boolean ownClock;
  private Optional<HeldWrites> tier = Optional.empty();
  private Consumer<String> progress = message -> {};
  private final Map<String, String> callSettings = new LinkedHashMap<>();
  private Optional<String> csvDelimiter = Optional.empty();
  private Optional<ChronoUnit> epochUnit = Optional.empty();
  private SourcesRead sourcesRead = (sources, rows) -> {};

  private static final java.util.Set<ChronoUnit> EPOCH_UNITS =
      java.util.EnumSet.of(
          ChronoUnit.SECONDS, ChronoUnit.MILLIS, ChronoUnit.MICROS, ChronoUnit.NANOS);

  private final String operationName;

  /** False for an upsert asked as one ({@code newUpsert}), which a tier's flush would not make. */
  private final boolean plainAppend;

  Append(LakeCatalog catalog, LoadedTable table, String operationName) {
    this.catalog = catalog;
    this.table = table;
    this.plainAppend = operationName.equals("append");
    // A table whose writes are corrections records every append as an upsert.
    this.operationName =
        operationName.equals("append")
                && "upsert".equals(table.contract().setting(Settings.WRITE_POLICY).orElse("append"))
            ? "upsert"
            : operationName;
  }

  /** Makes the append idempotent: if a snapshot with this id is committed, nothing is written. */
  public Append batchId(String id) {
    requireNonNull(id, "id is null");
    if (id.isBlank()) {
      throw TimelakeException.validation("Invalid batch id for %s: it is blank", table.name());
    }
    this.batchId = Optional.of(id);
    return this;
  }

  /**
   * Names who writes (a server's client login, or several comma-separated): recorded in the
   * snapshot's summary as {@code timelake.user}, which table pages and {@code timelake info} show.
   */
  public Append writtenBy(String user) {
    requireNonNull(user, "user is null");
    this.writtenBy = user.isBlank() ? Optional.empty() : Optional.of(user);
    return this;
  }

  /** Adds Parquet files. */
  public Append fromParquet(Path... files) {
    flushRows();
    sources.add(new AppendSource.ParquetFiles(Arrays.asList(files)));
    return this;
  }

  /** Adds a CSV ({@code .csv}, {@code .csv.gz}) or TSV ({@code .tsv}) file with a header row. */
  public Append fromCsv(Path file) {
    return fromCsv(CsvInput.of(file));
  }

  /** Adds a CSV file, read as {@code input} says (delimiter, columns of a file without header). */
  public Append fromCsv(CsvInput input) {
    flushRows();
    sources.add(new AppendSource.CsvFile(input));
    return this;
  }

  /**
   * Reads the CSV files of this append that give no delimiter of their own with {@code delimiter}
   * (one character) instead of finding it from their header row.
   */
  public Append csvDelimiter(String delimiter) {
    requireNonNull(delimiter, "delimiter is null");
    CsvInput.checkDelimiter(delimiter);
    this.csvDelimiter = Optional.of(delimiter);
    return this;
  }

  /**
   * Reads an integer time column of this append's files as a count of {@code unit}s since
   * 1970-01-01T00:00:00Z ({@code SECONDS}, {@code MILLIS}, {@code MICROS} or {@code NANOS});
   * without it such a column is refused. Nanoseconds must be whole microseconds, as stored.
   */
  public Append timeFromEpoch(ChronoUnit unit) {
    requireNonNull(unit, "unit is null");
    if (!EPOCH_UNITS.contains(unit)) {
      throw TimelakeException.validation(
          "Invalid epoch unit for %s: %s (expected SECONDS, MILLIS, MICROS or NANOS)",
          table.name(), unit);
    }
    this.epochUnit = Optional.of(unit);
    return this;
  }

  /** A file source with this append's reading options; other sources as they are. */
  private AppendSource withReadingOptions(AppendSource source) {
    if (source instanceof AppendSource.ParquetFiles parquet) {
      return new AppendSource.ParquetFiles(parquet.files(), epochUnit);
    }
    if (source instanceof AppendSource.CsvFile csv) {
      CsvInput input = csv.input();
      if (input.delimiter().isEmpty() && csvDelimiter.isPresent()) {
        input = input.withDelimiter(csvDelimiter.get());
      }
      return new AppendSource.CsvFile(input, epochUnit);
    }
    return source;
  }

  /** Adds a file by its extension: Parquet, CSV, TSV or gzipped CSV. */
  public Append fromFile(Path file) {
    String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
    if (name.endsWith(".parquet")) {
      return fromParquet(file);
    }
    if (name.endsWith(".csv")
        || name.endsWith(".tsv")
        || name.endsWith(".csv.gz")
        || name.endsWith(".tsv.gz")) {
      return fromCsv(file);
    }
    throw TimelakeException.validation(
        "Cannot append %s to %s: unknown file type (expected .parquet, .csv, .csv.gz or .tsv)",
        file, table.name());
  }

  /** Adds an Arrow stream; the append consumes it. */
  public Append fromArrow(ArrowReader reader) {
    flushRows();
    sources.add(new AppendSource.ArrowStream(reader));
    return this;
  }

  /** Adds the batch in {@code root}. */
  public Append fromArrow(VectorSchemaRoot root) {
    return fromArrow(new SingleBatchReader(root));
  }

  /** Adds the rows of a DuckDB query (plain DuckDB SQL; use a Session to read Timelake tables). */
  public Append fromQuery(String sql) {
    flushRows();
    sources.add(new AppendSource.Query(sql));
    return this;
  }

  /** Adds one row: values for the table's columns in order, without the insertion-time column. */
  public Append row(Object... values) {
    List<String> columns =
        table.contract().columns().stream()
            .map(Column::name)
            .filter(name -> !table.contract().ingestTimeColumn().orElse("").equals(name))
            .toList();
    return addRow(columns, Arrays.asList(values));
  }

  /** Adds one row by column name; missing nullable columns are null. */
  public Append row(Map<String, ?> values) {
    return addRow(List.copyOf(values.keySet()), new ArrayList<>(values.values()));
  }

  private Append addRow(List<String> columns, List<Object> values) {
    if (!columns.equals(pendingColumns)) {
      flushRows();
      pendingColumns = columns;
    }
    pendingRows.add(values);
    return this;
  }

  private void flushRows() {
    if (!pendingRows.isEmpty()) {
      sources.add(new AppendSource.Rows(pendingColumns, pendingRows));
      pendingRows = new ArrayList<>();
    }
  }

  /** Uses {@code clock} for the insertion time (tests and imports that replay history). */
  public Append clock(Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
    this.ownClock = true;
    return this;
  }

  /**
   * Hands this append to {@code tier} (a hot tier's, e.g. {@code StandaloneHotTier.heldWrites})
   * when it takes it: checked here as any append is (the same verdicts and errors), then answered
   * once durable in the tier's log and committed by its flusher with other writes, so many small
   * appends make few commits and files. The result's outcome is then {@link
   * AppendResult.Outcome#HELD}. The tier takes at most 100,000 rows into a time-series table whose
   * {@code hot-tier} setting is on, without an ordered index or a logical clock, of BOOLEAN,
   * INTEGER, BIGINT, FLOAT, DOUBLE, VARCHAR, DATE, TIMESTAMP or TIMESTAMPTZ columns (signed),
   * without infinite instants or dates; an append with a batch id or its own {@link #clock}, and an
   * upsert, commit at once, as does one the tier does not take.
   */
  public Append holdIn(HeldWrites tier) {
    this.tier = Optional.of(requireNonNull(tier, "tier is null"));
    return this;
  }

  /** Skips inline maintenance for this append, whatever the table's {@code auto-maintain}. */
  public Append withoutMaintenance() {
    return option("auto-maintain", "false");
  }

  /** Sets a call-level setting for this append and its inline maintenance. */
  public Append option(String setting, String value) {
    Map.Entry<dev.timelake.table.Setting, String> checked =
        dev.timelake.table.Settings.check(setting, value, dev.timelake.table.Level.CALL);
    callSettings.put(checked.getKey().name(), checked.getValue());
    return this;
  }

  /**
   * Told after each source is read and staged: how many sources are read and how many rows they
   * hold, for a rate and an estimate of the time left (sources are read in the order added; each
   * file added with {@link #fromFile} or {@link #fromCsv} is one source).
   */
  @FunctionalInterface
  public interface SourcesRead {
    void read(int sources, long rows);
  }

  /** Calls {@code listener} after each source is read. */
  public Append onSourceRead(SourcesRead listener) {
    this.sourcesRead = requireNonNull(listener, "listener is null");
    return this;
  }

  /** Receives short progress messages while the append runs. */
  public Append progress(Consumer<String> listener) {
    this.progress = requireNonNull(listener, "listener is null");
    return this;
  }

  /** The tier to hand the append to, when it may take appends to this table. */
  private Optional<HeldWrites> heldBy() {
    return tier.filter(
        held ->
            plainAppend
                && !ownClock
                && table.contract().isTimeSeries()
                && table.contract().isEnabled(Settings.HOT_TIER));
  }

  /**
   * Writes and commits everything added as one Iceberg snapshot, then runs inline maintenance of
   * the table unless {@code auto-maintain} is off; or hands it to the tier given to {@link
   * #holdIn}. A maintenance failure is reported in the result and never undoes the append.
   */
  public AppendResult commit() {
    dev.timelake.rollup.TableDrops.refuseAppendTo(table, "append to");
    flushRows();
    List<AppendSource> all = sources.stream().map(this::withReadingOptions).toList();
    Optional<HeldWrites> held = heldBy();
    if (held.isPresent() && batchId.isEmpty()) {
      Optional<AppendResult> asTheyAre =
          AppendOperation.holdAsTheyAre(
              table, all, held.get(), writtenBy.orElse(""), sourcesRead::read);
      if (asTheyAre.isPresent()) {
        return asTheyAre.get();
      }
    }
    Instant now = clock.instant();
    try (EngineConnection connection = catalog.engine().connect()) {
      AppendOperation operation =
          new AppendOperation(table, connection, all, batchId, now, operationName, progress)
              .onSourceRead(sourcesRead::read);
      writtenBy.ifPresent(
          user ->
              operation.summary(java.util.Map.of(dev.timelake.table.SnapshotSummaries.USER, user)));
      held.ifPresent(tier -> operation.holdIn(tier, writtenBy.orElse("")));
      return InlineMaintenance.afterCommit(
          operation.run(),
          catalog,
          table.name(),
          connection,
          operation.touchedPartitions(),
          callSettings,
          now,
          progress);
    }
  }
}
