package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Session.describe} (what the PostgreSQL server answers a Describe with) names the columns a
 * statement's execution returns, whichever path executes it: plain, the last-value index, QuestDB's
 * LATEST ON, newest first, a rollup route.
 */
class DescribeTest {
  @TempDir static Path directory;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void open() {
    lake = Lake.open(directory.resolve("warehouse"));
    session = lake.newSession();
    run(
        "CREATE TABLE iot.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'tag')");
    run(
        "INSERT INTO iot.r SELECT 'tag' || (i % 3), TIMESTAMPTZ '2026-01-01 00:00:00+00'"
            + " + to_minutes(i), i FROM range(500) t(i)");
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time)"
            + " AS bucket, max(value) AS max_value, count(*) AS n FROM iot.r GROUP BY tag, bucket");
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, max(value) AS top FROM iot.r GROUP BY tag",
        "SELECT * FROM iot.r QUALIFY row_number() OVER (PARTITION BY tag ORDER BY time DESC) = 1",
        "SELECT tag, time, value FROM iot.r LATEST ON time PARTITION BY tag",
        "SELECT tag, time FROM iot.r WHERE tag = 'tag1' ORDER BY time DESC LIMIT 3",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS hour, max(value), count(*)"
            + " FROM iot.r GROUP BY ALL",
        "SELECT 1 AS one"
      })
  void describeNamesTheColumnsExecutionReturns(String sql) {
    List<String> executed = new ArrayList<>();
    try (QueryResult result = session.sql(sql)) {
      for (int i = 0; i < result.columnNames().size(); i++) {
        executed.add(result.columnNames().get(i) + " " + result.columnTypes().get(i));
      }
    }
    assertThat(session.describe(sql))
        .as(sql)
        .hasValueSatisfying(
            columns ->
                assertThat(columns.stream().map(c -> c.name() + " " + c.type()).toList())
                    .isEqualTo(executed));
  }

  private static void run(String sql) {
    session.sql(sql).close();
  }
}
