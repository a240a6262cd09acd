package dev.timelake.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs queries in every target, side by side: an optional warm-up pass, then {@code runs} timed
 * passes, each pass running every query in every target in turn so that drift on a shared machine
 * spreads over all of them. The answers of the first pass are compared with Timelake's (routing
 * off) and then dropped, so memory holds one query's answers at a time. A target whose plan for a
 * query only repeats another's (routing on, query not routed) is left out of that query.
 */
final class QueryPhase {
  private final List<QueryTarget> targets;
  private final boolean warmUp;
  private final int runs;
  private final Consumer<String> progress;

  QueryPhase(List<QueryTarget> targets, boolean warmUp, int runs, Consumer<String> progress) {
    this.targets = List.copyOf(targets);
    this.warmUp = warmUp;
    this.runs = runs;
    this.progress = progress;
  }

  /** Per query and configuration: times, rows, agreement. */
  private static final class Cell {
    final List<Duration> times = new ArrayList<>();
    long rows;
    double checksum;
    Optional<String> difference = Optional.empty();
    Optional<String> failure = Optional.empty();
    List<String> explanation = List.of();
    boolean routed;
  }

  List<QueryFigures> run(List<BenchmarkQuery> queries) {
    List<Map<Configuration, Cell>> cells = new ArrayList<>();
    for (int i = 0; i < queries.size(); i++) {
      cells.add(new EnumMap<>(Configuration.class));
      for (QueryTarget target : targets) {
        BenchmarkQuery query = queries.get(i);
        if (target.asks(query) && !target.repeatsAnother(target.sql(query))) {
          cells.get(i).put(target.configuration(), new Cell());
        }
      }
    }
    int passes = (warmUp ? 1 : 0) + runs;
    for (int pass = 0; pass < passes; pass++) {
      boolean timed = pass >= (warmUp ? 1 : 0);
      for (int i = 0; i < queries.size(); i++) {
        BenchmarkQuery query = queries.get(i);
        progress.accept(
            String.format(
                Locale.ROOT,
                "%s %d/%d: %s",
                timed ? "run" : "warm-up",
                timed ? pass - (warmUp ? 1 : 0) + 1 : 1,
                timed ? runs : 1,
                query.name()));
        Map<Configuration, Answer> answers = new EnumMap<>(Configuration.class);
        for (QueryTarget target : targets) {
          Cell cell = cells.get(i).get(target.configuration());
          if (cell == null || cell.failure.isPresent()) {
            continue;
          }
          try {
            Execution execution = target.run(target.sql(query), pass == 0);
            if (timed) {
              cell.times.add(Duration.ofNanos(execution.nanos()));
            }
            if (pass == 0) {
              cell.rows = execution.rows();
              cell.explanation = execution.explanation();
              cell.routed = execution.routed();
              execution.answer().ifPresent(answer -> answers.put(target.configuration(), answer));
            }
          } catch (RuntimeException e) {
            cell.failure =
                Optional.of(String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
          }
        }
        if (pass == 0) {
          compare(answers, cells.get(i));
        }
      }
    }
    List<QueryFigures> figures = new ArrayList<>();
    for (int i = 0; i < queries.size(); i++) {
      figures.add(figures(queries.get(i), cells.get(i)));
    }
    return figures;
  }

  private static void compare(Map<Configuration, Answer> answers, Map<Configuration, Cell> cells) {
    Answer expected = answers.get(Configuration.TIMELAKE);
    for (Map.Entry<Configuration, Answer> entry : answers.entrySet()) {
      Cell cell = cells.get(entry.getKey());
      cell.checksum = entry.getValue().checksum();
      if (expected != null) {
        cell.difference = entry.getValue().difference(expected);
      }
    }
  }

  private static QueryFigures figures(BenchmarkQuery query, Map<Configuration, Cell> cells) {
    List<ConfigurationFigures> configurations = new ArrayList<>();
    cells.forEach(
        (configuration, cell) ->
            configurations.add(
                new ConfigurationFigures(
                    configuration,
                    cell.times,
                    cell.rows,
                    cell.checksum,
                    cell.difference,
                    cell.failure)));
    Cell timelake = cells.get(Configuration.TIMELAKE);
    Cell routed = cells.get(Configuration.TIMELAKE_ROUTED);
    // Where the routed session answered from rollups, its decisions are what the reader wants.
    Cell explained = routed != null && routed.routed ? routed : timelake;
    List<String> explanation =
        explained == null
            ? List.of()
            : explained.explanation.stream().filter(l -> !l.startsWith("DuckDB SQL:")).toList();
    return new QueryFigures(
        query.name(),
        query.description(),
        query.sql(SqlDialect.forTimelake()),
        configurations,
        routed != null && routed.routed,
        explanation);
  }
}
