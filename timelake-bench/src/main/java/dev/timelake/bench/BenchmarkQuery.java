package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

/**
 * One query of the benchmark: its name in reports, what it asks, and its SQL template with the time
 * range and tags filled in and the tables left as placeholders (see {@link SqlDialect}).
 */
record BenchmarkQuery(String name, String description, String template) {
  BenchmarkQuery {
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    requireNonNull(template, "template is null");
  }

  /** The query as {@code dialect} runs it. */
  String sql(SqlDialect dialect) {
    return dialect.fill(template);
  }
}
