package dev.timelake.rollup;

import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.util.List;

/** A query's rows with routing on or off, whether it was routed, and what Timelake did. */
record RoutedAnswer(List<List<Object>> rows, boolean routed, List<String> explanation) {
  /** Runs {@code query} in {@code session} with rollup routing set to {@code routing}. */
  static RoutedAnswer of(Session session, String query, boolean routing) {
    session.set("rollup-routing", String.valueOf(routing));
    try (QueryResult result = session.sql(query)) {
      return new RoutedAnswer(result.rows(), result.isRouted(), result.explanation());
    }
  }
}
