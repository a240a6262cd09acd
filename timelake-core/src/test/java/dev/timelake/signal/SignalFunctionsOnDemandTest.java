package dev.timelake.signal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signal aggregates are defined when a statement first names one, not at start-up. */
class SignalFunctionsOnDemandTest {
  private static final String DEFINED =
      "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'time_weighted_' || 'mean'";

  @TempDir Path warehouse;

  @Test
  void definesTheFunctionsWhenAStatementFirstNamesOne() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      assertThat(count(session, DEFINED)).isZero();
      try (QueryResult result =
          session.sql(
              "SELECT time_weighted_mean(t, v) FROM (VALUES (TIMESTAMPTZ '2026-01-01 00:00:00+00',"
                  + " 1.0), (TIMESTAMPTZ '2026-01-01 00:00:10+00', 3.0)) AS r(t, v)")) {
        assertThat(result.rows()).containsExactly(java.util.List.of(2.0));
      }
      assertThat(count(session, DEFINED)).isPositive();
      try (Session other = lake.newSession()) {
        assertThat(count(other, DEFINED)).isPositive(); // once for the whole engine
      }
    }
  }

  private static long count(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return ((Number) result.rows().get(0).get(0)).longValue();
    }
  }
}
