package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What one query did in every configuration.
 *
 * @param query the query's name
 * @param description what it asks
 * @param sql the query as Timelake runs it
 * @param configurations one entry per configuration, in {@link Configuration} order
 * @param routed whether {@code timelake-routed} answered it from a rollup
 * @param explanation what Timelake did to run it (with routing on where it routed, else off), the
 *     DuckDB SQL left out
 */
public record QueryFigures(
    String query,
    String description,
    String sql,
    List<ConfigurationFigures> configurations,
    boolean routed,
    List<String> explanation) {
  public QueryFigures {
    requireNonNull(query, "query is null");
    requireNonNull(description, "description is null");
    requireNonNull(sql, "sql is null");
    configurations = List.copyOf(configurations);
    explanation = List.copyOf(explanation);
  }

  /** The figures of {@code configuration}, if it was measured. */
  public Optional<ConfigurationFigures> of(Configuration configuration) {
    return configurations.stream().filter(c -> c.configuration() == configuration).findFirst();
  }

  /** The median of {@code configuration} divided by plain DuckDB's; empty if either is missing. */
  public Optional<Double> ratio(Configuration configuration) {
    return ratio(configuration, Configuration.DUCKDB);
  }

  /** The median of {@code configuration} divided by {@code base}'s; empty if either is missing. */
  public Optional<Double> ratio(Configuration configuration, Configuration base) {
    Optional<Duration> median = median(configuration);
    Optional<Duration> floor = median(base);
    if (median.isEmpty() || floor.isEmpty() || floor.get().isZero()) {
      return Optional.empty();
    }
    return Optional.of((double) median.get().toNanos() / floor.get().toNanos());
  }

  /** The median of {@code configuration}, if it ran without failing. */
  public Optional<Duration> median(Configuration configuration) {
    return of(configuration)
        .filter(figures -> figures.failure().isEmpty())
        .flatMap(ConfigurationFigures::median);
  }

  /**
   * What a Timelake user gets: the routed session where the query is routed, else the plain one.
   */
  public Configuration timelakeAnswer() {
    return routed && of(Configuration.TIMELAKE_ROUTED).isPresent()
        ? Configuration.TIMELAKE_ROUTED
        : Configuration.TIMELAKE;
  }

  /** True when every configuration that removes copies ran and agrees with Timelake. */
  public boolean answersAgree() {
    return configurations.stream()
        .filter(c -> c.configuration().removesCopies())
        .allMatch(ConfigurationFigures::agrees);
  }
}
