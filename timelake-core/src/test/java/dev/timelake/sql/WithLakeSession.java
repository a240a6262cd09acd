package dev.timelake.sql;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each test's lake in a temporary folder and one SQL session on it, with its statements' results.
 */
abstract class WithLakeSession {
  @TempDir Path warehouse;
  Lake lake;
  Session session;

  @BeforeEach
  void openSession() {
    lake = Lake.open(warehouse);
    session = lake.newSession();
  }

  @AfterEach
  void closeSession() {
    session.close();
    lake.close();
  }

  /** Runs {@code sql} in the session. */
  void run(String sql) {
    session.sql(sql).close();
  }

  /** What the session says of {@code sql}, a statement without rows. */
  String message(String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.message();
    }
  }

  /** The rows of {@code sql}. */
  List<List<Object>> rows(String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  /** {@code sql}, routed to rollups, answers as it does from raw data alone (in any order). */
  void assertRoutedEqualsRaw(String sql) {
    List<List<Object>> routed = rows(sql);
    run("SET timelake.rollup_routing = false");
    List<List<Object>> raw = rows(sql);
    run("SET timelake.rollup_routing = true");
    dev.timelake.SameAnswers.assertSameRowsInAnyOrder(routed, raw, sql);
  }
}
