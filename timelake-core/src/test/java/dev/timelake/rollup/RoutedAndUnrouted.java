package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.timelake.QueryResult;
import dev.timelake.SameAnswers;
import dev.timelake.Session;
import java.util.List;

/**
 * Runs a query with rollup routing on and then off in one session: both must give the same column
 * names, types and rows (in order when the query orders them), or both fail. The session is left
 * with routing off.
 */
final class RoutedAndUnrouted {
  private RoutedAndUnrouted() {}

  /** Compares the two answers of {@code query}; returns whether the first was routed. */
  static boolean compare(Session session, String query) {
    session.set("rollup-routing", "true");
    Outcome routed = Outcome.of(session, query);
    session.set("rollup-routing", "false");
    Outcome raw = Outcome.of(session, query);
    assertThat(routed.failure()).as(query).isEqualTo(raw.failure());
    assertThat(routed.columns()).as(query).isEqualTo(raw.columns());
    assertThat(routed.types()).as(query).isEqualTo(raw.types());
    String what = query + "\n" + String.join("\n", routed.explanation());
    if (query.contains("ORDER BY")) {
      SameAnswers.assertSameRows(routed.rows(), raw.rows(), what);
    } else {
      SameAnswers.assertSameRowsInAnyOrder(routed.rows(), raw.rows(), what);
    }
    return routed.routed();
  }

  private record Outcome(
      List<String> columns,
      List<String> types,
      List<List<Object>> rows,
      boolean routed,
      String failure,
      List<String> explanation) {
    static Outcome of(Session session, String sql) {
      Object[] result = new Object[1];
      Throwable failure =
          catchThrowable(
              () -> {
                try (QueryResult r = session.sql(sql)) {
                  result[0] =
                      new Outcome(
                          r.columnNames(),
                          r.columnTypes(),
                          r.rows(),
                          r.isRouted(),
                          null,
                          r.explanation());
                }
              });
      if (failure != null) {
        return new Outcome(List.of(), List.of(), List.of(), false, "failed", List.of());
      }
      return (Outcome) result[0];
    }
  }
}
