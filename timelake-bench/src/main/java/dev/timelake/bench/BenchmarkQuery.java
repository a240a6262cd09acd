package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One query of the benchmark: its name in reports, what it asks, and its SQL template with the time
 * range and tags filled in and the tables left as placeholders (see {@link SqlDialect}), with plain
 * DuckDB's own where it lacks a function Timelake has (gap filling); and the same question in
 * QuestDB's SQL, on its raw table and on a materialized view, where QuestDB can ask it (see {@link
 * QuestdbQueries}).
 */
record BenchmarkQuery(
    String name,
    String description,
    String template,
    Optional<String> duckdbTemplate,
    Optional<String> questdb,
    Optional<String> questdbView) {
  BenchmarkQuery {
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    requireNonNull(template, "template is null");
    requireNonNull(duckdbTemplate, "duckdbTemplate is null");
    requireNonNull(questdb, "questdb is null");
    requireNonNull(questdbView, "questdbView is null");
  }

  /** The query as {@code dialect} runs it. */
  String sql(SqlDialect dialect) {
    return dialect.fill(dialect.timelake() ? template : duckdbTemplate.orElse(template));
  }
}
