package dev.timelake.bench;

/** A way of running the benchmark's queries; each query runs in every one, side by side. */
public enum Configuration {
  /** A Timelake session: copies removed on read, rollup routing off. */
  TIMELAKE("timelake"),
  /** A Timelake session with rollups present and routing on. */
  TIMELAKE_ROUTED("timelake-routed"),
  /** Plain DuckDB over the same data files, copies included: the engine's floor. */
  DUCKDB("duckdb"),
  /** Plain DuckDB removing copies with {@code QUALIFY row_number() … = 1}. */
  DUCKDB_QUALIFY("duckdb-qualify"),
  /**
   * QuestDB (in a child JVM, on loopback) with the deduplicated readings in a table with {@code
   * DEDUP UPSERT KEYS(time, tag)}, queried in its own SQL over its PostgreSQL protocol.
   */
  QUESTDB("questdb"),
  /** QuestDB querying its materialized views by hand, where one answers the query. */
  QUESTDB_VIEWS("questdb-views");

  private final String label;

  Configuration(String label) {
    this.label = label;
  }

  /**
   * The configuration labelled {@code label}.
   *
   * @throws dev.timelake.TimelakeException naming the labels when none is
   */
  public static Configuration parse(String label) {
    for (Configuration configuration : values()) {
      if (configuration.label.equals(label)) {
        return configuration;
      }
    }
    throw dev.timelake.TimelakeException.validation(
        "Unknown configuration '%s' (configurations: %s)",
        label,
        String.join(", ", java.util.Arrays.stream(values()).map(Configuration::label).toList()));
  }

  /** The name used in reports. */
  public String label() {
    return label;
  }

  /** True when this configuration removes copies, so its answers must equal Timelake's. */
  public boolean removesCopies() {
    return this != DUCKDB;
  }
}
