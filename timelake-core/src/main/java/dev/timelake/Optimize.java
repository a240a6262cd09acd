package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.maintain.EntityLayoutOptimizer;
import java.util.function.Consumer;

/**
 * Builds an entity-layout optimization of one table: every data file holding rows of several series
 * is rewritten into one file per series, keeping rows, schema, the winner rule's order and
 * coverage. Not compaction (no target size); a second run does nothing.
 *
 * <pre>{@code
 * OptimizeReport report = lake.table("market.bars").newOptimize().run();
 * }</pre>
 */
public final class Optimize {
  private final LakeCatalog catalog;
  private final TableName table;
  private Consumer<String> progress = message -> {};

  Optimize(LakeCatalog catalog, TableName table) {
    this.catalog = catalog;
    this.table = table;
  }

  /** Receives short progress messages while the run goes. */
  public Optimize progress(Consumer<String> listener) {
    this.progress = requireNonNull(listener, "listener is null");
    return this;
  }

  /**
   * Rewrites the files that mix series and reports it.
   *
   * @throws ValidationException when the table has no entity columns
   */
  public OptimizeReport run() {
    LoadedTable current = catalog.require(table);
    try (EngineConnection connection = catalog.engine().connect()) {
      return new EntityLayoutOptimizer(current, connection, progress).run();
    }
  }
}
