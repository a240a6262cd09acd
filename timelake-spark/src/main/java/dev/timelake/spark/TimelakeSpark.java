package dev.timelake.spark;

import static java.util.Objects.requireNonNull;

import dev.timelake.AppendResult;
import dev.timelake.CompactionResult;
import dev.timelake.CompactionTask;
import dev.timelake.DistributedMaintenance;
import dev.timelake.DistributedRefresh;
import dev.timelake.MaintenanceReport;
import dev.timelake.ReadPlan;
import dev.timelake.RefreshReport;
import dev.timelake.RefreshResult;
import dev.timelake.RefreshTask;
import dev.timelake.RollupInfo;
import dev.timelake.TableName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Timelake tables in Spark: reads with copies removed by Timelake's rule and scan plan (files that
 * overlap no other are read without any dedup work), appends with Timelake's rules, and maintenance
 * as Spark jobs.
 *
 * <pre>{@code
 * LakeAddress lake = LakeAddress.of("/data/lake");
 * Dataset<Row> readings = TimelakeSpark.read(spark, lake, "iot.readings");
 * readings.groupBy("tag").avg("value").show();
 * TimelakeSpark.append(backfill, lake, "iot.readings", "backfill/2026-01");
 * }</pre>
 */
public final class TimelakeSpark {
  private TimelakeSpark() {}

  /**
   * The table's current rows with copies removed: the newest write of each key wins (highest
   * insertion time, then the later commit), as in Timelake's own reader.
   */
  public static Dataset<Row> read(SparkSession spark, LakeAddress lake, String table) {
    requireNonNull(spark, "spark is null");
    requireNonNull(lake, "lake is null");
    ReadPlan plan = lake.lake().table(table).readPlan();
    return DedupReader.read(spark, plan);
  }

  /**
   * Appends a DataFrame's rows to the table as an embedded append of the same rows would: one
   * commit (copies of a key within the DataFrame keep the later row, in the DataFrame's order; the
   * insertion time is set; fresh and late rows go to separate files; an ordered index's conflicts
   * fail or replace as the table says), then inline maintenance and rollup refresh. The columns are
   * checked against the table before Spark writes anything; the executors then write the rows as
   * Parquet under {@code spark.timelake.staging} (a folder the driver and every executor mount; a
   * local Spark may leave it unset) and the driver appends those files, deleting them afterwards.
   *
   * <p>Rows without a defined order (after a shuffle) make the winner among copies of a key in the
   * DataFrame arbitrary; remove such copies, or sort, before appending.
   *
   * @throws dev.timelake.ValidationException naming the table and column when a column does not fit
   *     (unknown, missing though required, of another type, or the insertion time), or a required
   *     column holds a null; nothing is committed
   * @throws dev.timelake.IndexIntervalOverlapException when rows meet stored rows in an interval of
   *     an ordered index whose conflicts are errors ({@link
   *     dev.timelake.DuplicateIndexIntervalException} when two rows of the DataFrame share one);
   *     nothing is committed
   */
  public static AppendResult append(Dataset<Row> rows, LakeAddress lake, String table) {
    requireNonNull(rows, "rows is null");
    requireNonNull(lake, "lake is null");
    return SparkAppend.run(rows, lake, table, Optional.empty());
  }

  /**
   * {@link #append(Dataset, LakeAddress, String)} made idempotent: if a commit of the table already
   * carries {@code batchId}, nothing is written and the result says so ({@code
   * SKIPPED_DUPLICATE_BATCH}), so a Spark job that is run again appends its rows once.
   */
  public static AppendResult append(
      Dataset<Row> rows, LakeAddress lake, String table, String batchId) {
    requireNonNull(rows, "rows is null");
    requireNonNull(lake, "lake is null");
    requireNonNull(batchId, "batchId is null");
    return SparkAppend.run(rows, lake, table, Optional.of(batchId));
  }

  /**
   * Maintains the table as a Spark job: planned here, each compaction (one merged run of files of a
   * partition) runs as one Spark task, on an executor that opens the lake (it must reach the
   * warehouse and catalog) and merges with Timelake's own engine; the results are committed here in
   * one transaction with retention (the table contract, summary keys and data sequence numbers
   * exactly as an embedded run leaves them), then snapshots are expired, orphan files deleted and
   * rollups refreshed. Appends may go on meanwhile.
   */
  public static MaintenanceReport maintain(SparkSession spark, LakeAddress lake, String table) {
    requireNonNull(spark, "spark is null");
    requireNonNull(lake, "lake is null");
    DistributedMaintenance maintenance = lake.lake().table(table).newMaintenance().distribute();
    List<CompactionTask> tasks = maintenance.tasks();
    List<CompactionResult> results = List.of();
    if (!tasks.isEmpty()) {
      JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
      context.setJobDescription(
          "Timelake maintenance of " + table + ": " + tasks.size() + " compactions");
      results =
          context.parallelize(tasks, tasks.size()).map(task -> task.run(lake.lake())).collect();
    }
    return maintenance.commit(results);
  }

  /**
   * Refreshes a rollup as a Spark job: planned here, each window (the buckets of one commit) is
   * computed by one Spark task with Timelake's own engine on an executor, routed to the other
   * rollups as a local refresh would; the windows' rows are then appended here in order with the
   * same records and commits as {@code Lake.refreshRollup}.
   */
  public static RefreshReport refresh(SparkSession spark, LakeAddress lake, String rollup) {
    requireNonNull(spark, "spark is null");
    requireNonNull(lake, "lake is null");
    DistributedRefresh refresh = lake.lake().distributeRefresh(TableName.parse(rollup));
    List<RefreshTask> tasks = refresh.tasks();
    List<RefreshResult> results = List.of();
    if (!tasks.isEmpty()) {
      JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
      context.setJobDescription("Timelake refresh of " + rollup + ": " + tasks.size() + " windows");
      results =
          context.parallelize(tasks, tasks.size()).map(task -> task.run(lake.lake())).collect();
    }
    return refresh.commit(results);
  }

  /**
   * Refreshes every rollup of the raw table {@code table} as Spark jobs, narrowest bucket first, so
   * that wider rollups are computed from the narrower ones just refreshed.
   */
  public static List<RefreshReport> refreshAll(SparkSession spark, LakeAddress lake, String table) {
    List<RollupInfo> rollups = new ArrayList<>(lake.lake().rollups(TableName.parse(table)));
    rollups.sort(Comparator.comparing(RollupInfo::bucket).thenComparing(r -> r.name().toString()));
    List<RefreshReport> reports = new ArrayList<>();
    for (RollupInfo rollup : rollups) {
      reports.add(refresh(spark, lake, rollup.name().toString()));
    }
    return reports;
  }
}
