package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One run of one query in one configuration.
 *
 * @param rows rows returned
 * @param nanos wall-clock time from sending the query to reading its last row
 * @param answer the rows, when they were kept for comparison
 * @param explanation what Timelake did (empty for plain DuckDB)
 */
record Execution(long rows, long nanos, Optional<Answer> answer, List<String> explanation) {
  Execution {
    requireNonNull(answer, "answer is null");
    explanation = List.copyOf(explanation);
  }

  /** True when Timelake answered from a rollup. */
  boolean routed() {
    return explanation.stream().anyMatch(line -> line.contains("routed to rollup"));
  }
}
