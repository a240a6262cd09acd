package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coverage functions are Java code called from DuckDB's native code, where reading a NULL
 * argument aborts the whole process: every argument is checked first. Each odd call fails with a
 * message naming the function and the argument, and the process goes on answering.
 */
class CoverageFunctionArgumentsTest {
  @TempDir static Path warehouse;
  private static Lake lake;

  @BeforeAll
  static void createIndexedTable() {
    lake = Lake.open(warehouse);
    try (Session session = lake.newSession()) {
      session
          .sql(
              "CREATE TABLE market.bars (symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE) WITH"
                  + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m')")
          .close();
      session.sql("INSERT INTO market.bars VALUES ('NVDA', '2026-01-02 14:30:00+00', 1)").close();
      session
          .sql(
              "CREATE TABLE iot.plain (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                  + " WITH (time_column = 'time', series_key = 'device')")
          .close();
    }
  }

  @AfterAll
  static void close() {
    lake.close();
  }

  @Test
  void nullInEveryPositionIsRefused() {
    String t = "'market.bars'";
    String from = "'2026-01-02'";
    String to = "'2026-01-03'";
    refused("timelake_coverage(NULL, " + from + ", " + to + ")", "needs a table name, not NULL");
    refused("timelake_coverage(" + t + ", NULL, " + to + ")", "needs a range start, not NULL");
    refused("timelake_coverage(" + t + ", " + from + ", NULL)", "needs a range end, not NULL");
    refused("timelake_gaps(NULL, " + from + ", " + to + ")", "needs a table name, not NULL");
    refused("timelake_gaps(" + t + ", NULL, " + to + ")", "needs a range start, not NULL");
    refused("timelake_gaps(" + t + ", " + from + ", NULL)", "needs a range end, not NULL");
    refused(
        "timelake_gaps(" + t + ", " + from + ", " + to + ", min_intervals := NULL)",
        "needs min_intervals, not NULL");
    refused("timelake_coverage(NULL, NULL, NULL)", "needs a table name, not NULL");
    refused("__timelake_coverage(NULL, NULL, NULL)", "needs a table name, not NULL");
    refused("__timelake_gaps('market.bars', NULL, NULL, NULL)", "needs a range start, not NULL");
  }

  @Test
  void emptyUnknownAndOutOfRangeArgumentsAreRefused() {
    refused("timelake_coverage('', '2026-01-02', '2026-01-03')", "not an empty string");
    refused("timelake_coverage('market.nope', '2026-01-02', '2026-01-03')", "does not exist");
    refused("timelake_coverage('a.b.c', '2026-01-02', '2026-01-03')", "Invalid table name");
    refused("timelake_coverage('iot.plain', '2026-01-02', '2026-01-03')", "no index granularity");
    refused("timelake_coverage('market.bars', '', '2026-01-03')", "'' is not one");
    refused("timelake_coverage('market.bars', 'soon', '2026-01-03')", "'soon' is not one");
    refused("timelake_coverage('market.bars', '2026-01-03', '2026-01-02')", "ends before");
    refused(
        "timelake_gaps('market.bars', '2026-01-02', '2026-01-03', min_intervals := 0)",
        "min_intervals must be at least 1, not 0");
    refused(
        "timelake_gaps('market.bars', '2026-01-02', '2026-01-03', min_intervals := -5)", "not -5");
    refused("timelake_coverage('market.bars', '99999999-01-01', '2026-01-03')", "is not one");
  }

  @Test
  void extremeButValidArgumentsAreAnswered() {
    assertThat(
            rows(
                "SELECT symbol, covered FROM timelake_coverage('market.bars', '0001-01-01',"
                    + " '9999-12-31')"))
        .containsExactly(List.of("NVDA", 1L));
    assertThat(
            rows(
                "SELECT count(*) FROM timelake_gaps('market.bars', '0001-01-01', '9999-12-31',"
                    + " min_intervals := 9223372036854775807)"))
        .containsExactly(List.of(0L));
  }

  private static void refused(String call, String message) {
    try (Session session = lake.newSession()) {
      assertThatThrownBy(() -> session.sql("SELECT * FROM " + call).close())
          .as(call)
          .isInstanceOf(TimelakeException.class)
          .hasMessageContaining(message)
          .hasMessageNotContaining("\tat ");
    }
    // The process is alive and answers.
    assertThat(rows("SELECT 42")).containsExactly(List.of(42));
  }

  private static List<List<Object>> rows(String sql) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }
}
