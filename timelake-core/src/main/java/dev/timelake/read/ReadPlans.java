package dev.timelake.read;

import dev.timelake.ReadPlan;
import dev.timelake.ReadPlan.KeyInterval;
import dev.timelake.ReadPlan.ReadFile;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.index.IndexIntervals;
import dev.timelake.table.TableContract;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.expressions.Expressions;

/** A table's {@link ScanPlan} as the engine-neutral {@link ReadPlan} of the public API. */
public final class ReadPlans {
  private ReadPlans() {}

  /** The plan of every live row of the table's current snapshot. */
  public static ReadPlan of(LoadedTable table) {
    TableContract contract = table.contract();
    ScanPlan plan = ScanPlanner.plan(table, Expressions.alwaysTrue(), contract.deduplicates());
    List<ReadFile> asIs = new ArrayList<>(files(plan.independent()));
    List<List<ReadFile>> toDeduplicate = new ArrayList<>();
    for (List<PlannedFile> group : plan.overlapping()) {
      if (group.stream().allMatch(PlannedFile::fresh)) {
        asIs.addAll(files(group)); // fresh files never share a key
      } else {
        toDeduplicate.add(files(group));
      }
    }
    return new ReadPlan(
        contract.name(),
        plan.snapshotId(),
        SchemaParser.toJson(table.iceberg().schema()),
        asIs,
        toDeduplicate,
        contract.seriesKey(),
        contract.timeColumn(),
        contract.ingestTimeColumn(),
        interval(contract));
  }

  private static List<ReadFile> files(List<PlannedFile> files) {
    return files.stream()
        .map(
            f ->
                new ReadFile(
                    f.location(),
                    f.sequenceNumber(),
                    f.rows(),
                    f.sizeBytes(),
                    f.fresh(),
                    f.externalCommitMicros()))
        .toList();
  }

  private static Optional<KeyInterval> interval(TableContract contract) {
    if (!contract.replacesWithinInterval()) {
      return Optional.empty();
    }
    IndexIntervals intervals = IndexIntervals.of(contract).orElseThrow();
    boolean timestamp = intervals.domain() == IndexIntervals.Domain.TIMESTAMP;
    BigInteger width =
        timestamp ? intervals.width().multiply(BigInteger.valueOf(1_000_000L)) : intervals.width();
    if (width.bitLength() >= 64) {
      throw TimelakeException.validation(
          "Cannot plan a read of %s for another engine: its index interval (%s %s) is wider than"
              + " a BIGINT",
          contract.name(), intervals.width(), timestamp ? "seconds" : "units");
    }
    return Optional.of(new KeyInterval(width.longValueExact(), timestamp));
  }
}
