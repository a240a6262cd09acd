package dev.timelake.catalog;

import dev.timelake.TableName;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The tables one statement reads, each pinned the first time the statement looks it up, so every
 * reference to a table — in the routing decision, in each part of a routed query, in a subquery —
 * reads the same snapshot. Not thread-safe; one per statement.
 */
public final class PinnedTables {
  private final LakeCatalog catalog;
  private final Map<TableName, Optional<PinnedTable>> pinned = new HashMap<>();

  public PinnedTables(LakeCatalog catalog) {
    this.catalog = catalog;
  }

  /** The table pinned at its current snapshot on first use; empty when it does not exist. */
  public Optional<PinnedTable> find(TableName name) {
    return pinned.computeIfAbsent(name, n -> catalog.load(n).map(PinnedTable::current));
  }

  /** Like {@link #find}; throws naming the table when it does not exist. */
  public PinnedTable require(TableName name) {
    return find(name).orElseGet(() -> PinnedTable.current(catalog.require(name)));
  }

  /** The existing tables looked up so far, sorted. */
  public java.util.List<TableName> names() {
    return pinned.entrySet().stream()
        .filter(entry -> entry.getValue().isPresent())
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  /** Uses {@code table} for every later lookup of its name in this statement. */
  public PinnedTables pin(PinnedTable table) {
    pinned.put(table.name(), Optional.of(table));
    return this;
  }
}
