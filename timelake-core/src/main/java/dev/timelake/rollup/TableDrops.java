package dev.timelake.rollup;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import java.util.List;
import java.util.Optional;

/**
 * Dropping a table the way its rollups need: a rollup is dropped as a rollup (its raw table stops
 * listing it); a raw table with rollups is refused unless the drop cascades, which drops its
 * rollups first, so no rollup is left computed from a table that is gone.
 */
public final class TableDrops {
  private TableDrops() {}

  /** Whether a drop takes the raw table's rollups with it. */
  public enum Rollups {
    REFUSE,
    CASCADE
  }

  /**
   * Drops {@code name}; false when it did not exist.
   *
   * @throws dev.timelake.ValidationException naming the rollups when {@code rollups} is {@link
   *     Rollups#REFUSE} and the table has some
   */
  public static boolean drop(LakeCatalog catalog, TableName name, Rollups rollups) {
    Optional<LoadedTable> table = catalog.load(name);
    if (table.isEmpty()) {
      return false;
    }
    if (Rollup.of(table.get()).isPresent()) {
      return RollupStore.drop(catalog, name);
    }
    List<TableName> dependent =
        RollupStore.rollupsOf(catalog, table.get()).stream().map(Rollup::name).toList();
    if (!dependent.isEmpty() && rollups == Rollups.REFUSE) {
      throw TimelakeException.validation(
          "Cannot drop %s: the rollups %s are computed from it; drop them first (DROP MATERIALIZED"
              + " ROLLUP …) or drop them with it: DROP TABLE %s CASCADE (timelake drop %s"
              + " --cascade)",
          name,
          String.join(", ", dependent.stream().map(TableName::toString).toList()),
          name,
          name);
    }
    for (TableName rollup : dependent) {
      RollupStore.drop(catalog, rollup);
    }
    return catalog.drop(name);
  }

  /**
   * Refuses an append to a rollup: Timelake computes its rows, and a row written by hand would be
   * wrong and stop routing from trusting it.
   */
  public static void refuseAppendTo(LoadedTable table, String what) {
    Optional<Rollup> rollup = Rollup.of(table);
    if (rollup.isPresent()) {
      throw TimelakeException.validation(
          "Cannot %s %s: it is a rollup of %s, whose rows Timelake computes; refresh it with"
              + " REFRESH MATERIALIZED ROLLUP %s (timelake rollup refresh %s)",
          what, table.name(), rollup.get().source(), table.name(), table.name());
    }
  }
}
