package dev.timelake.sql;

import static java.util.Objects.requireNonNull;

import dev.timelake.AppendResult;
import dev.timelake.QueryPlan;
import dev.timelake.RollupRoute;
import dev.timelake.StatementKind;
import java.sql.ResultSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one statement produced, typed: its kind; an open result set (queries) or a message (DDL,
 * SET); the rows it wrote (INSERT, a rollup's creation or refresh) and for INSERT the append's
 * result; how routing answered its SELECTs; what Timelake did to run it, for {@code --explain}; and
 * warnings for the client (a PostgreSQL NoticeResponse, a line on a shell's error stream). Callers
 * read decisions from the typed fields, never from the explanation.
 */
public record StatementOutcome(
    StatementKind kind,
    Optional<ResultSet> resultSet,
    String message,
    OptionalLong rowCount,
    Optional<AppendResult> append,
    List<RollupRoute> routes,
    List<String> explanation,
    List<String> warnings,
    QueryPlan plan) {

  public StatementOutcome {
    requireNonNull(kind, "kind is null");
    requireNonNull(resultSet, "resultSet is null");
    requireNonNull(message, "message is null");
    requireNonNull(rowCount, "rowCount is null");
    requireNonNull(append, "append is null");
    routes = List.copyOf(routes);
    explanation = List.copyOf(explanation);
    warnings = List.copyOf(warnings);
    requireNonNull(plan, "plan is null");
  }

  /** An outcome without a query plan (a statement that is not a query of the lake). */
  public StatementOutcome(
      StatementKind kind,
      Optional<ResultSet> resultSet,
      String message,
      OptionalLong rowCount,
      Optional<AppendResult> append,
      List<RollupRoute> routes,
      List<String> explanation,
      List<String> warnings) {
    this(kind, resultSet, message, rowCount, append, routes, explanation, warnings, QueryPlan.NONE);
  }

  /** This outcome with {@code warning} added. */
  StatementOutcome withWarning(String warning) {
    List<String> all = new java.util.ArrayList<>(warnings);
    all.add(warning);
    return new StatementOutcome(
        kind, resultSet, message, rowCount, append, routes, explanation, all, plan);
  }

  static StatementOutcome rows(
      StatementKind kind, ResultSet resultSet, List<RollupRoute> routes, List<String> explanation) {
    return new StatementOutcome(
        kind,
        Optional.of(resultSet),
        "",
        OptionalLong.empty(),
        Optional.empty(),
        routes,
        explanation,
        List.of());
  }

  /** A query's rows, with how it was planned: its routes, and its explanation ending in its SQL. */
  static StatementOutcome query(ResultSet resultSet, QueryPlan plan) {
    List<String> explanation = new java.util.ArrayList<>(plan.explanation());
    explanation.add("DuckDB SQL: " + plan.sql());
    return new StatementOutcome(
        StatementKind.QUERY,
        Optional.of(resultSet),
        "",
        OptionalLong.empty(),
        Optional.empty(),
        plan.routes(),
        explanation,
        List.of(),
        plan);
  }

  static StatementOutcome message(StatementKind kind, String message) {
    return new StatementOutcome(
        kind,
        Optional.empty(),
        message,
        OptionalLong.empty(),
        Optional.empty(),
        List.of(),
        List.of(),
        List.of());
  }

  static StatementOutcome wrote(
      StatementKind kind, String message, long rows, List<String> explanation) {
    return new StatementOutcome(
        kind,
        Optional.empty(),
        message,
        OptionalLong.of(rows),
        Optional.empty(),
        List.of(),
        explanation,
        List.of());
  }

  static StatementOutcome appended(
      StatementKind kind, String message, AppendResult result, List<String> explanation) {
    return new StatementOutcome(
        kind,
        Optional.empty(),
        message,
        OptionalLong.of(result.rows()),
        Optional.of(result),
        List.of(),
        explanation,
        List.of());
  }
}
