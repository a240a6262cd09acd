package dev.timelake.sql;

import dev.timelake.AppendResult;
import java.sql.ResultSet;
import java.util.List;
import java.util.Optional;

/**
 * What one statement produced: an open result set (queries), or a message (DDL, SET), and for
 * INSERT the append's result; plus what Timelake did to run it, for {@code --explain}.
 */
public record StatementOutcome(
    Optional<ResultSet> resultSet,
    String message,
    Optional<AppendResult> append,
    List<String> explanation) {

  public StatementOutcome {
    explanation = List.copyOf(explanation);
  }

  static StatementOutcome rows(ResultSet resultSet, List<String> explanation) {
    return new StatementOutcome(Optional.of(resultSet), "", Optional.empty(), explanation);
  }

  static StatementOutcome message(String message) {
    return new StatementOutcome(Optional.empty(), message, Optional.empty(), List.of());
  }

  static StatementOutcome appended(String message, AppendResult result, List<String> explanation) {
    return new StatementOutcome(Optional.empty(), message, Optional.of(result), explanation);
  }
}
