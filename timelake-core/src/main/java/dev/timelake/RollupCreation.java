package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.refresh.RefreshScheduler;
import dev.timelake.rollup.RollupDefinitions;
import dev.timelake.rollup.RollupStatement;
import dev.timelake.table.TableOptions;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Builds a materialized rollup, like {@code CREATE MATERIALIZED ROLLUP name AS select WITH
 * (options)}: {@link #create()} checks the definition, creates the rollup table and fills it with a
 * first refresh (from the raw table's other rollups where they are up to date).
 *
 * <pre>{@code
 * RefreshReport filled = lake.newRollup("iot.readings_1h")
 *     .as("SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, avg(value), count(*)"
 *         + " FROM iot.readings GROUP BY device, bucket")
 *     .option("refresh_interval", "5m")
 *     .create()
 *     .orElseThrow();
 * }</pre>
 */
public final class RollupCreation {
  private final LakeCatalog catalog;
  private final TableName name;
  private String select;
  private final Map<String, String> options = new LinkedHashMap<>();
  private boolean ifNotExists;
  private Clock clock = Clock.systemUTC();
  private Consumer<String> progress = message -> {};

  RollupCreation(LakeCatalog catalog, TableName name) {
    this.catalog = catalog;
    this.name = requireNonNull(name, "name is null");
  }

  /** The rollup's query: {@code SELECT keys…, bucket, aggregates… FROM raw GROUP BY …}. */
  public RollupCreation as(String select) {
    this.select = requireNonNull(select, "select is null");
    return this;
  }

  /** A setting of the rollup table, as in {@code WITH (…)}: retention, refresh_interval, … */
  public RollupCreation option(String key, String value) {
    options.put(requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
    return this;
  }

  /** Does nothing when a table of that name exists (then {@link #create()} returns empty). */
  public RollupCreation ifNotExists() {
    this.ifNotExists = true;
    return this;
  }

  /** Uses {@code clock} for the first refresh's commit times. */
  public RollupCreation clock(Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
    return this;
  }

  /** Receives short progress messages while the first refresh runs. */
  public RollupCreation progress(Consumer<String> listener) {
    this.progress = requireNonNull(listener, "listener is null");
    return this;
  }

  /**
   * Creates and fills the rollup; empty when {@link #ifNotExists()} and it exists.
   *
   * @throws ValidationException naming the part of the definition that is not allowed
   * @throws AlreadyExistsException when a table of that name exists
   */
  public Optional<RefreshReport> create() {
    if (select == null) {
      throw TimelakeException.validation(
          "Cannot create rollup %s: give its query with as(\"SELECT …\")", name);
    }
    if (ifNotExists && catalog.exists(name)) {
      return Optional.empty();
    }
    RollupStatement statement =
        new RollupStatement(
            RollupStatement.Kind.CREATE, name, ifNotExists, select, TableOptions.format(options));
    try (EngineConnection connection = catalog.engine().connect()) {
      RefreshReport report =
          new RefreshScheduler(catalog, connection, progress)
              .create(
                  RollupDefinitions.define(
                      statement,
                      table -> catalog.require(table).contract(),
                      new ConstantEvaluator(connection)),
                  clock.instant());
      dev.timelake.maintain.InlineMaintenance.afterRefresh(
          catalog, name, connection, clock.instant(), progress);
      return Optional.of(report);
    }
  }
}
