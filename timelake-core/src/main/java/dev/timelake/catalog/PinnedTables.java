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
  private final java.util.function.Consumer<TableName> beforePinning;
  private final java.util.function.Consumer<PinnedTable> afterPinning;
  private final Map<TableName, Optional<PinnedTable>> pinned = new HashMap<>();

  public PinnedTables(LakeCatalog catalog) {
    this(catalog, name -> {});
  }

  /**
   * Tables that run {@code beforePinning} with a table's name before it is first looked up (a
   * session's hot tier commits what it holds of the table, so the snapshot pinned has it).
   */
  public PinnedTables(LakeCatalog catalog, java.util.function.Consumer<TableName> beforePinning) {
    this(catalog, beforePinning, table -> {});
  }

  /**
   * Like the other constructor, also running {@code afterPinning} with each table once pinned (a
   * session reads what its tier held of it, as taken before pinning, beside the pinned snapshot).
   */
  public PinnedTables(
      LakeCatalog catalog,
      java.util.function.Consumer<TableName> beforePinning,
      java.util.function.Consumer<PinnedTable> afterPinning) {
    this.catalog = catalog;
    this.beforePinning = beforePinning;
    this.afterPinning = afterPinning;
  }

  /** The table pinned at its current snapshot on first use; empty when it does not exist. */
  public Optional<PinnedTable> find(TableName name) {
    Optional<PinnedTable> found = pinned.get(name);
    if (found == null) {
      beforePinning.accept(name);
      found = catalog.load(name).map(PinnedTable::current);
      pinned.put(name, found);
      found.ifPresent(afterPinning);
    }
    return found;
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
