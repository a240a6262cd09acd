package dev.timelake.rollup;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.IcebergCommits;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.SqlLexer;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.util.List;
import java.util.Optional;

/**
 * Renames, column drops and truncation the way a table's contract and rollups need: the columns the
 * contract names (time, series key, insertion time) keep their names and stay; a column a rollup's
 * definition reads keeps its name and stays while the rollup exists; a rollup's schema is
 * Timelake's; a truncated raw table's rollups are emptied first, so no query is answered from
 * buckets of rows that are gone, and their next refresh rebuilds them.
 */
public final class TableAlterations {
  private TableAlterations() {}

  /** {@code ALTER TABLE name RENAME COLUMN column TO newName}. */
  public static LoadedTable renameColumn(
      LakeCatalog catalog, TableName name, String column, String newName) {
    LoadedTable table = catalog.require(name);
    refuseRollup(table, "rename column " + column + " of");
    refuseUsedColumn(catalog, table, column, "rename");
    return catalog.renameColumn(name, column, newName);
  }

  /** {@code ALTER TABLE name DROP COLUMN column}. */
  public static LoadedTable dropColumn(LakeCatalog catalog, TableName name, String column) {
    LoadedTable table = catalog.require(name);
    refuseRollup(table, "drop column " + column + " of");
    refuseUsedColumn(catalog, table, column, "drop");
    return catalog.dropColumn(name, column);
  }

  /** {@code ALTER TABLE name RENAME TO newName}, within the namespace. */
  public static LoadedTable renameTable(LakeCatalog catalog, TableName name, TableName newName) {
    LoadedTable table = catalog.require(name);
    refuseRollup(table, "rename");
    List<String> rollups = rollupNames(catalog, table);
    if (!rollups.isEmpty()) {
      throw TimelakeException.validation(
          "Cannot rename %s: the rollups %s are computed from it by name; drop them first (DROP"
              + " MATERIALIZED ROLLUP …), rename, and create them again",
          name, String.join(", ", rollups));
    }
    return catalog.renameTable(name, newName);
  }

  /**
   * {@code TRUNCATE name}: every row removed in one commit; the table's rollups that follow deletes
   * are emptied before it (they reflect nothing until their next refresh, and routing answers from
   * raw data meanwhile), the others keep their rows. Returns the rows the table's files held.
   */
  public static long truncate(LakeCatalog catalog, TableName name) {
    LoadedTable table = catalog.require(name);
    Optional<Rollup> rollup = Rollup.of(table);
    if (rollup.isPresent()) {
      throw TimelakeException.validation(
          "Cannot truncate %s: it is a rollup of %s, whose rows Timelake computes; truncate %s (its"
              + " rollups are emptied with it) or drop the rollup (DROP MATERIALIZED ROLLUP %s)",
          name, rollup.get().source(), rollup.get().source(), name);
    }
    emptyRollupsOf(catalog, table, "truncate", Rollup::followsDeletes);
    return catalog.truncate(name);
  }

  /**
   * Makes snapshot {@code snapshotId} the table's current one again (a rollback, or a roll forward
   * to a snapshot a rollback left): one metadata commit, no file written. The table's rollups are
   * emptied first and rebuilt by their next refresh. Refused for a rollup and for a snapshot the
   * table does not keep (expired, or never its own).
   */
  public static LoadedTable rollback(LakeCatalog catalog, TableName name, long snapshotId) {
    LoadedTable table = catalog.require(name);
    refuseRollup(table, "roll back");
    if (table.iceberg().snapshot(snapshotId) == null) {
      throw TimelakeException.notFound(
          "Cannot roll back %s to snapshot %d: the table keeps no such snapshot (expired, or not"
              + " one of its own); kept snapshots: %s",
          name, snapshotId, table.keptSnapshots());
    }
    emptyRollupsOf(catalog, table, "rollback", rollup -> true);
    IcebergCommits.commit(
        IcebergCommits.Operation.onTable("rollback of " + name, "retry the rollback"),
        () -> table.iceberg().manageSnapshots().setCurrentSnapshot(snapshotId).commit());
    return catalog.require(name);
  }

  /**
   * The newest snapshot in the current history of the table committed at or before {@code time}.
   */
  public static long snapshotBefore(LakeCatalog catalog, TableName name, java.time.Instant time) {
    LoadedTable table = catalog.require(name);
    try {
      return org.apache.iceberg.util.SnapshotUtil.snapshotIdAsOfTime(
          table.iceberg(), time.toEpochMilli());
    } catch (IllegalArgumentException e) {
      throw TimelakeException.notFound(
          "Cannot roll back %s to before %s: it keeps no snapshot that old; kept snapshots: %s",
          name, time, table.keptSnapshots());
    }
  }

  /**
   * The columns a DELETE from {@code table} records of the rows it removes, so the next refresh of
   * each of its rollups that follow deletes recomputes only the cells they were in: those rollups'
   * grouping columns and the time column; none when no rollup follows deletes.
   */
  public static List<String> deletedRowColumns(LakeCatalog catalog, LoadedTable table) {
    java.util.Set<String> columns = new java.util.LinkedHashSet<>();
    for (Rollup dependent : RollupStore.rollupsOf(catalog, table)) {
      if (dependent.followsDeletes()) {
        columns.addAll(dependent.keys());
      }
    }
    if (columns.isEmpty()) {
      return List.of();
    }
    table.contract().timeColumn().ifPresent(columns::add);
    return List.copyOf(columns);
  }

  /**
   * Empties the table's rollups that {@code affected} selects before rows of it go: each records
   * that it reflects nothing, so routing stops using it at once and its next refresh rebuilds it
   * from what is left.
   */
  private static void emptyRollupsOf(
      LakeCatalog catalog,
      LoadedTable table,
      String operation,
      java.util.function.Predicate<Rollup> affected) {
    for (Rollup dependent : RollupStore.rollupsOf(catalog, table)) {
      LoadedTable stored = catalog.require(dependent.name());
      if (affected.test(dependent) && stored.iceberg().currentSnapshot() != null) {
        RollupStore.emptying(stored, operation).commit();
      }
    }
  }

  private static void refuseRollup(LoadedTable table, String what) {
    Optional<Rollup> rollup = Rollup.of(table);
    if (rollup.isPresent()) {
      throw TimelakeException.validation(
          "Cannot %s %s: it is a rollup of %s, whose schema follows its definition; drop it (DROP"
              + " MATERIALIZED ROLLUP %s) and create it again",
          what, table.name(), rollup.get().source(), table.name());
    }
  }

  private static void refuseUsedColumn(
      LakeCatalog catalog, LoadedTable table, String column, String what) {
    TableContract contract = table.contract();
    Optional<String> role = contractRole(contract, column);
    if (role.isPresent()) {
      throw TimelakeException.validation(
          "Cannot %s column '%s' of %s: it is the table's %s, which identifies its rows and orders"
              + " its files; create a new table and INSERT INTO it SELECT … FROM %s",
          what, column, table.name(), role.get(), table.name());
    }
    for (Rollup rollup : RollupStore.rollupsOf(catalog, table)) {
      String definition =
          rollup.contract().settings().getOrDefault(Settings.ROLLUP_DEFINITION.name(), "");
      if (mentions(definition, column)) {
        throw TimelakeException.validation(
            "Cannot %s column '%s' of %s: the rollup %s reads it; drop the rollup first (DROP"
                + " MATERIALIZED ROLLUP %s)",
            what, column, table.name(), rollup.name(), rollup.name());
      }
    }
  }

  private static Optional<String> contractRole(TableContract contract, String column) {
    if (contract.timeColumn().filter(column::equalsIgnoreCase).isPresent()) {
      return Optional.of("time column");
    }
    if (contract.seriesKey().stream().anyMatch(column::equalsIgnoreCase)) {
      return Optional.of("series key column");
    }
    if (contract.ingestTimeColumn().filter(column::equalsIgnoreCase).isPresent()) {
      return Optional.of("insertion-time column");
    }
    return Optional.empty();
  }

  /** True when a token of the SQL text names {@code column} (as a word or quoted identifier). */
  private static boolean mentions(String sql, String column) {
    return SqlLexer.tokens(sql).tokens().stream()
        .filter(
            token ->
                token.kind() == SqlLexer.Kind.WORD
                    || token.kind() == SqlLexer.Kind.QUOTED_IDENTIFIER)
        .anyMatch(token -> token.value().equalsIgnoreCase(column));
  }

  private static List<String> rollupNames(LakeCatalog catalog, LoadedTable table) {
    return RollupStore.rollupsOf(catalog, table).stream().map(r -> r.name().toString()).toList();
  }
}
