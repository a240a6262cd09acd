package dev.timelake.refresh;

import dev.timelake.Column;
import dev.timelake.ConflictException;
import dev.timelake.RollupVerification;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.QueryRewriter;
import dev.timelake.read.ScanPlanner;
import dev.timelake.rollup.Rollup;
import dev.timelake.rollup.RollupChanges;
import dev.timelake.rollup.RollupStore;
import dev.timelake.table.SessionSettings;
import dev.timelake.time.IntervalSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Checks that a rollup holds what its raw table gives: recomputes its cells from raw data alone
 * (never from a rollup), copies removed, at the raw snapshot the rollup records, and compares them
 * with the rollup's rows as readers see them (copies removed, its current snapshot); see {@link
 * RollupVerification}. Only buckets both tables hold whole are checked: those at or after the start
 * of both tables' oldest live partition, where refreshes keep the rollup exact. Changes nothing.
 * Not thread-safe; one per connection.
 */
public final class RollupVerifier {
  private static final String STORED = "__tl_verify_stored";
  private static final String RAW = "__tl_verify_raw";
  private static final String ALIAS = "__tl_t";

  private final LakeCatalog catalog;
  private final EngineConnection connection;

  public RollupVerifier(LakeCatalog catalog, EngineConnection connection) {
    this.catalog = catalog;
    this.connection = connection;
  }

  /**
   * Verifies the rollup {@code name}.
   *
   * @throws dev.timelake.NotFoundException when there is no rollup {@code name}, or the raw
   *     snapshot it records has expired
   * @throws dev.timelake.ValidationException when {@code name} is a table, not a rollup, or the
   *     rollup reflects no raw snapshot yet
   * @throws ConflictException when a refresh of the rollup has not finished
   */
  public RollupVerification verify(TableName name, RollupVerification.Options options) {
    long started = System.nanoTime();
    Rollup rollup = RollupStore.require(catalog, name);
    PinnedTable raw = recordedRaw(rollup);
    List<PlannedFile> rawFiles = ScanPlanner.liveFiles(raw);
    List<PlannedFile> rollupFiles = ScanPlanner.liveFiles(rollup.table());
    long from = firstWholeBucket(rollup, raw, rawFiles, rollupFiles);
    // Buckets the refresh lag left to raw data are not in the rollup, and not checked.
    IntervalSet range = IntervalSet.of(from, Math.max(from, rollup.lagFrom()));
    OptionalLong sampledFrom = OptionalLong.empty();
    IntervalSet checked = range;
    if (options.samples()) {
      BucketSample sample =
          BucketSample.choose(
              buckets(rollup, raw, range), options.sampleBuckets().getAsInt(), options.seed());
      sampledFrom = OptionalLong.of(sample.available());
      checked = sample.intervals(rollup.grid());
    }
    try {
      connection.execute(
          "CREATE OR REPLACE TEMPORARY TABLE " + STORED + " AS " + storedRows(rollup, checked));
      connection.execute(
          "CREATE OR REPLACE TEMPORARY TABLE "
              + RAW
              + " AS "
              + RawOnlyRows.sql(catalog, connection, rollup, raw, checked)
                  .orElse("SELECT * FROM temp." + STORED + " LIMIT 0"));
      CellComparison comparison = CellComparison.of(rollup);
      List<Object> counts =
          connection.rows(comparison.countsSql("temp." + STORED, "temp." + RAW)).get(0);
      long cells = ((Number) counts.get(0)).longValue();
      long buckets = ((Number) counts.get(1)).longValue();
      long mismatches = ((Number) counts.get(2)).longValue();
      List<String> examples = new ArrayList<>();
      if (mismatches > 0) {
        String sql =
            comparison.examplesSql(
                "temp." + STORED, "temp." + RAW, RollupVerification.MAX_EXAMPLES);
        connection.rows(sql).forEach(row -> examples.add(comparison.describe(row)));
      }
      return new RollupVerification(
          rollup.name(),
          raw.snapshotId(),
          rollup.table().snapshotId(),
          options,
          buckets,
          sampledFrom.orElse(buckets),
          cells,
          mismatches,
          examples,
          comparison.notCompared(),
          uncheckedBefore(from, rawFiles, rollupFiles),
          Duration.ofNanos(System.nanoTime() - started));
    } finally {
      connection.execute("DROP TABLE IF EXISTS temp." + STORED);
      connection.execute("DROP TABLE IF EXISTS temp." + RAW);
    }
  }

  /** The raw table at the snapshot the rollup's rows reflect. */
  private PinnedTable recordedRaw(Rollup rollup) {
    LoadedTable raw = catalog.require(rollup.source());
    long recorded = rollup.sourceSnapshot();
    if (rollup.pendingSnapshot() >= 0) {
      throw new ConflictException(
          String.format(
              "Cannot verify rollup %s: a refresh to snapshot %d of %s has not finished (it is"
                  + " running, or failed), so some of its rows reflect a newer snapshot than the"
                  + " one recorded; refresh it (timelake rollup refresh %s) and verify again",
              rollup.name(), rollup.pendingSnapshot(), rollup.source(), rollup.name()));
    }
    if (recorded < 0) {
      throw TimelakeException.validation(
          "Cannot verify rollup %s: it reflects no snapshot of %s yet (it was never refreshed, or"
              + " a TRUNCATE or rollback of %s emptied it); refresh it first: REFRESH"
              + " MATERIALIZED ROLLUP %s (timelake rollup refresh %s)",
          rollup.name(), rollup.source(), rollup.source(), rollup.name(), rollup.name());
    }
    if (raw.iceberg().snapshot(recorded) == null) {
      throw TimelakeException.notFound(
          "Cannot verify rollup %s: it reflects snapshot %d of %s, which has expired; refresh it"
              + " (timelake rollup refresh %s) so that it reflects a kept snapshot, and verify"
              + " again; kept snapshots: %s",
          rollup.name(), recorded, rollup.source(), rollup.name(), raw.keptSnapshots());
    }
    return PinnedTable.at(raw, recorded);
  }

  /**
   * The first bucket at or after both what the raw table's retention kept and the rollup's oldest
   * live partition: an earlier bucket may have lost raw rows to retention, and refreshes leave it
   * as it is.
   */
  private static long firstWholeBucket(
      Rollup rollup, PinnedTable raw, List<PlannedFile> rawFiles, List<PlannedFile> rollupFiles) {
    long start =
        LongStream.concat(
                LongStream.of(RollupChanges.retainedFrom(raw.contract(), rawFiles)),
                RollupChanges.dataStart(rollupFiles, rollup.contract().partitioning()).stream())
            .max()
            .orElse(Long.MIN_VALUE);
    return rollup.grid().ceil(start);
  }

  /** The first bucket checked, when either table holds rows before it. */
  private static Optional<Instant> uncheckedBefore(
      long from, List<PlannedFile> rawFiles, List<PlannedFile> rollupFiles) {
    boolean earlier =
        Stream.concat(rawFiles.stream(), rollupFiles.stream())
            .anyMatch(file -> file.minMicros() < from);
    return earlier ? Optional.of(Instant.EPOCH.plus(from, ChronoUnit.MICROS)) : Optional.empty();
  }

  /** The distinct bucket starts (µs) either table holds in {@code range}. */
  private TreeSet<Long> buckets(Rollup rollup, PinnedTable raw, IntervalSet range) {
    PinnedTables tables = new PinnedTables(catalog).pin(raw).pin(rollup.table());
    // Copies share their series and time, so they fall in the same bucket: no need to remove them.
    SessionSettings withCopies = new SessionSettings();
    withCopies.set("read-dedup", "false");
    TreeSet<Long> buckets = new TreeSet<>();
    String rawTime = raw.contract().timeColumn().orElseThrow();
    Expression rawBucket =
        SyntaxTrees.bucketStartMicros(
            SyntaxTrees.call("epoch_us", SyntaxTrees.column(ALIAS, rawTime)), rollup.grid());
    Expression storedBucket =
        SyntaxTrees.call("epoch_us", SyntaxTrees.column(ALIAS, rollup.bucketColumn()));
    for (PlainSelect select :
        List.of(
            distinct(raw.name(), rawBucket, rawTime, range),
            distinct(rollup.name(), storedBucket, rollup.bucketColumn(), range))) {
      String sql = new QueryRewriter(catalog, tables, connection, withCopies).rewrite(select);
      connection.rows(sql).forEach(row -> buckets.add(((Number) row.get(0)).longValue()));
    }
    return buckets;
  }

  private static PlainSelect distinct(
      TableName table, Expression bucket, String time, IntervalSet range) {
    PlainSelect select = new PlainSelect();
    select.setDistinct(new Distinct());
    select.addSelectItems(SyntaxTrees.item(bucket, "bucket"));
    select.setFromItem(SyntaxTrees.table(table.namespace(), table.name(), ALIAS));
    select.setWhere(SyntaxTrees.within(SyntaxTrees.column(ALIAS, time), range));
    return select;
  }

  /** The rollup's rows in {@code buckets}, copies removed, cast to its column types. */
  private String storedRows(Rollup rollup, IntervalSet buckets) {
    TableName name = rollup.name();
    PlainSelect select = new PlainSelect();
    for (Column column : rollup.contract().columns()) {
      select.addSelectItems(
          SyntaxTrees.item(SyntaxTrees.column(ALIAS, column.name()), column.name()));
    }
    select.setFromItem(SyntaxTrees.table(name.namespace(), name.name(), ALIAS));
    select.setWhere(SyntaxTrees.within(SyntaxTrees.column(ALIAS, rollup.bucketColumn()), buckets));
    PinnedTables tables = new PinnedTables(catalog).pin(rollup.table());
    QueryRewriter rewriter =
        new QueryRewriter(catalog, tables, connection, RawOnlyRows.alwaysDeduplicated());
    return RawOnlyRows.typed(rollup.contract(), rewriter.rewrite(select));
  }
}
