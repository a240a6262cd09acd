package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Timelake table as loaded at one moment. Reads describe that moment; {@link #refresh()} loads
 * the newest state. Operations that commit are builders: {@link #newAppend()}, {@link
 * #newDelete()}.
 */
public final class Table {
  private final LakeCatalog catalog;
  private final LoadedTable loaded;

  Table(LakeCatalog catalog, LoadedTable loaded) {
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.loaded = requireNonNull(loaded, "loaded is null");
  }

  /** The table's name. */
  public TableName name() {
    return loaded.name();
  }

  /** The columns in schema order, including the insertion-time column if the table has one. */
  public List<Column> columns() {
    return loaded.contract().columns();
  }

  /** The raw table this table is a rollup of; empty for a table that is not a rollup. */
  public Optional<TableName> rollupOf() {
    return dev.timelake.rollup.Rollup.of(loaded).map(dev.timelake.rollup.Rollup::source);
  }

  /** The time column of a time-series table; empty for a plain table. */
  public Optional<String> timeColumn() {
    return loaded.contract().timeColumn();
  }

  /** The ordered series key; empty when the table has none. */
  public List<String> seriesKey() {
    return loaded.contract().seriesKey();
  }

  /** The time partition size. */
  public Chunk chunk() {
    return loaded.contract().chunk();
  }

  /** The insertion-time column ({@code _ingest_ts}), if the table has one. */
  public Optional<String> ingestTimeColumn() {
    return loaded.contract().ingestTimeColumn();
  }

  /** The table's Timelake settings as stored (names without the {@code timelake.} prefix). */
  public Map<String, String> settings() {
    return loaded.contract().settings();
  }

  /**
   * The coverage of the table's ordered index at this moment: which (series, interval) pairs hold a
   * row, answered without reading data files.
   *
   * @throws ValidationException when the table has no index granularity
   */
  public IndexCoverage indexCoverage() {
    try (dev.timelake.engine.EngineConnection connection = catalog.engine().connect()) {
      return new IndexCoverage(
          dev.timelake.index.CoverageView.current(loaded.iceberg(), loaded.contract(), connection));
    }
  }

  /** Starts an append; nothing happens until {@link Append#commit()}. */
  public Append newAppend() {
    return new Append(catalog, loaded, "append");
  }

  /**
   * Starts an upsert: the way to correct readings. Rows replace the rows with the same (series
   * key…, time), because the latest write wins; the same rule as an append, named for intent.
   */
  public Append newUpsert() {
    return new Append(catalog, loaded, "upsert");
  }

  /** The snapshot the table was loaded at: what it reads; empty before its first commit. */
  public java.util.OptionalLong snapshotId() {
    org.apache.iceberg.Snapshot current = loaded.iceberg().currentSnapshot();
    return current == null
        ? java.util.OptionalLong.empty()
        : java.util.OptionalLong.of(current.snapshotId());
  }

  /** Starts a delete of rows; nothing happens until {@link Delete#commit()}. */
  public Delete newDelete() {
    return new Delete(catalog, loaded.name());
  }

  /**
   * Makes snapshot {@code snapshotId} current again: the table reads as it did then (its rollups
   * are rebuilt by their next refresh). Returns the table as rolled back.
   *
   * @throws NotFoundException when the table keeps no such snapshot
   */
  public Table rollbackTo(long snapshotId) {
    return new Table(
        catalog, dev.timelake.rollup.TableAlterations.rollback(catalog, name(), snapshotId));
  }

  /**
   * Rolls back to the newest snapshot committed at or before {@code time}; see {@link #rollbackTo}.
   */
  public Table rollbackToTime(java.time.Instant time) {
    return rollbackTo(dev.timelake.rollup.TableAlterations.snapshotBefore(catalog, name(), time));
  }

  /** Starts an entity-layout optimization; nothing happens until {@link Optimize#run()}. */
  public Optimize newOptimize() {
    return new Optimize(catalog, loaded.name());
  }

  /** Starts an on-demand maintenance run; nothing happens until {@link Maintenance#run()}. */
  public Maintenance newMaintenance() {
    return new Maintenance(catalog, loaded);
  }

  /**
   * A DuckDB statement that creates a view named like this table over its current data files,
   * removing copies exactly as the Timelake reader does, for pasting into plain DuckDB. The view
   * reflects the current snapshot only: create it again after appends or maintenance.
   */
  public String duckdbView() {
    LoadedTable current = catalog.require(name());
    dev.timelake.read.ScanPlan plan =
        dev.timelake.read.ScanPlanner.plan(
            current,
            org.apache.iceberg.expressions.Expressions.alwaysTrue(),
            current.contract().deduplicates());
    return "CREATE OR REPLACE VIEW "
        + dev.timelake.engine.SqlText.identifier(name().name())
        + " AS "
        + dev.timelake.read.ScanSql.relation(
            plan, dev.timelake.read.DedupStrategy.MERGE, current.files())
        + ";";
  }

  /**
   * How another engine reads this table's current rows with copies removed by Timelake's rule: the
   * files to read as they are and the groups of files to deduplicate (see {@link ReadPlan}). The
   * Spark integration reads tables this way.
   */
  public ReadPlan readPlan() {
    return dev.timelake.read.ReadPlans.of(catalog.require(name()));
  }

  /** The table's snapshot history, oldest first: read from its metadata, no file is opened. */
  public List<TableInfo.SnapshotInfo> snapshots() {
    return TableInfo.snapshots(loaded);
  }

  /** Files, rows, partitions and snapshots of the current state. */
  public TableInfo info() {
    return TableInfo.of(loaded);
  }

  /** Sets table-level settings in one commit; an empty value resets a setting to its default. */
  public Table alter(Map<String, String> settings) {
    return new Table(catalog, catalog.setProperties(name(), settings));
  }

  /**
   * Adds the nullable column {@code column} of type {@code type} at the end of the schema; rows
   * written before read it as NULL. Returns the table as altered.
   *
   * @throws ValidationException when the table has a column of that name or the type is not
   *     supported
   */
  public Table addColumn(String column, ColumnType type) {
    return new Table(catalog, catalog.addColumns(name(), List.of(Column.nullable(column, type))));
  }

  /** The newest committed state of this table. */
  public Table refresh() {
    return new Table(catalog, catalog.require(name()));
  }

  TableContract contract() {
    return loaded.contract();
  }

  @Override
  public String toString() {
    return name().toString();
  }
}
