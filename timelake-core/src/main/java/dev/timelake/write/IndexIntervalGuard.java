package dev.timelake.write;

import dev.timelake.DuplicateIndexIntervalException;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.TableName;
import dev.timelake.engine.EngineConnection;
import dev.timelake.index.Coverage;
import dev.timelake.index.CoverageStore;
import dev.timelake.index.EntityIdentity;
import dev.timelake.index.IndexIntervals;
import dev.timelake.index.IntervalSql;
import dev.timelake.table.TableContract;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Holds a table with an index granularity to one row per (series, interval): refuses an append with
 * two rows in one pair, or with a row in a pair that committed data already holds, reading the
 * committed pairs from coverage, not from data. Before the commit it checks against the snapshot
 * the append started from; when a concurrent writer committed rows in the append's intervals
 * meanwhile, the commit's validation fails and {@link #recheck} checks against the new snapshot
 * before the next attempt. For a table whose rows replace the others of their interval it only
 * computes the coverage the append's snapshot carries.
 */
final class IndexIntervalGuard {
  private final Table table;
  private final TableContract contract;
  private final CoverageStore store;
  private final IntervalSql sql;
  private Coverage appended;
  private Snapshot checkedAgainst;
  private Coverage committed;
  private Coverage stagedCoverage;

  IndexIntervalGuard(Table table, TableContract contract, EngineConnection connection) {
    this.table = table;
    this.contract = contract;
    this.store = new CoverageStore(table, contract, connection);
    this.sql = store.intervalSql();
  }

  /** Checks the staged rows of {@code stageTable} against the table's current snapshot. */
  void check(EngineConnection connection, String stageTable) {
    IntervalSql.Pairs pairs = sql.pairs(connection, stageTable);
    Optional<IntervalSql.Duplicate> duplicate =
        pairs.duplicated() && !replaces()
            ? sql.firstDuplicate(connection, stageTable)
            : Optional.empty();
    if (duplicate.isPresent()) {
      EntityIdentity identity = duplicate.get().identity();
      String interval = intervals().render(duplicate.get().id());
      throw new DuplicateIndexIntervalException(
          name(),
          identity.toMap(contract.seriesKey()),
          interval,
          String.format(
              "Cannot append to %s: two rows of %s fall in the index interval %s, and the table"
                  + " holds at most one row per series and %s; nothing was written",
              name(), identity.render(contract.seriesKey()), interval, granularity()));
    }
    appended = pairs.coverage();
    table.refresh();
    recheck(table.currentSnapshot());
  }

  /**
   * Checks the append against {@code snapshot}, which a concurrent writer may have committed since
   * the last check; throws {@link IndexIntervalOverlapException} when they share a pair.
   */
  void recheck(Snapshot snapshot) {
    checkedAgainst = snapshot;
    committed = store.at(snapshot);
    if (replaces()) {
      // The newest write per pair wins on read; coverage is all this append needs.
      return;
    }
    Optional<Coverage.Overlap> overlap = appended.overlap(committed);
    if (overlap.isPresent()) {
      Coverage.Overlap first = overlap.get();
      String interval = intervals().render(first.exampleId());
      throw new IndexIntervalOverlapException(
          name(),
          first.pairs(),
          first.exampleIdentity().toMap(contract.seriesKey()),
          interval,
          String.format(
              "Cannot append to %s: %d %s fall in index intervals that already hold a row, e.g."
                  + " %s in %s; the table holds at most one row per series and %s, nothing was"
                  + " written",
              name(),
              first.pairs(),
              first.pairs() == 1 ? "row" : "rows",
              first.exampleIdentity().render(contract.seriesKey()),
              interval,
              granularity()));
    }
  }

  /** The snapshot the last check ran against; null for an empty table. */
  Snapshot checkedAgainst() {
    return checkedAgainst;
  }

  /**
   * The rows a concurrent commit may not have added: every row in the intervals the append touches,
   * from the start of its first interval to the end of its last.
   */
  Expression conflictFilter(long minValue, long maxValue) {
    String column = contract.timeColumn().orElseThrow();
    IndexIntervals intervals = intervals();
    Expression from =
        Expressions.greaterThanOrEqual(column, intervals.start(intervals.id(minValue)));
    long end = intervals.end(intervals.id(maxValue));
    return end == Long.MAX_VALUE ? from : Expressions.and(from, Expressions.lessThan(column, end));
  }

  /**
   * Writes the coverage of {@code staged}, the append's snapshot still to commit: its parent's
   * coverage plus the append's pairs. Attached in the same commit.
   */
  StatisticsFile writeCoverage(Snapshot staged) {
    stagedCoverage = coverageOf(staged);
    return store.write(staged, stagedCoverage);
  }

  /**
   * After the commit: remembers the committed snapshot's coverage, or, when a retry inside the
   * commit moved it onto another parent than the one its coverage was written for, writes it again.
   */
  void committed(Snapshot snapshot, Snapshot staged) {
    if (java.util.Objects.equals(snapshot.parentId(), staged.parentId())) {
      store.remember(snapshot.snapshotId(), stagedCoverage);
    } else {
      store.save(snapshot, coverageOf(snapshot));
    }
  }

  /** Deletes a coverage file whose commit failed. */
  void discard(StatisticsFile file) {
    store.delete(file);
  }

  private Coverage coverageOf(Snapshot snapshot) {
    Coverage coverage = new Coverage();
    Long parent = snapshot.parentId();
    if (checkedAgainst != null && parent != null && parent == checkedAgainst.snapshotId()) {
      coverage.addAll(committed);
    } else if (parent != null) {
      coverage.addAll(store.at(table.snapshot(parent)));
    }
    coverage.addAll(appended);
    return coverage;
  }

  private boolean replaces() {
    return contract.replacesWithinInterval();
  }

  private IndexIntervals intervals() {
    return sql.intervals();
  }

  private String granularity() {
    return contract.setting(dev.timelake.table.Settings.INDEX_GRANULARITY).orElseThrow();
  }

  private TableName name() {
    return contract.name();
  }
}
