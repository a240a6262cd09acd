package dev.timelake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlDialectTest {
  @Test
  void fillsTablesAndFunctionNamesPerDialect() {
    String template =
        "SELECT {first}(value ORDER BY time), {last}(value ORDER BY time) FROM {readings}"
            + " JOIN {tags} USING (tag)";

    assertThat(SqlDialect.forTimelake().fill(template))
        .isEqualTo(
            "SELECT first_value(value ORDER BY time), last_value(value ORDER BY time)"
                + " FROM iiot.readings JOIN iiot.tags USING (tag)");
    assertThat(SqlDialect.forDuckdb("r", "t").fill(template))
        .isEqualTo(
            "SELECT first(value ORDER BY time), last(value ORDER BY time) FROM r JOIN t USING (tag)");
  }

  @Test
  void timelakeKeepsTimeBucketForRouting() {
    assertThat(SqlDialect.forTimelake().fill("SELECT {bucket:6 hours} AS b"))
        .isEqualTo("SELECT time_bucket(INTERVAL '6 hours', time) AS b");
  }

  @Test
  void plainBucketArithmeticEqualsDuckdbTimeBucket() throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      statement.execute(
          "CREATE TABLE t AS SELECT make_timestamptz(CAST(1767225600000000 + i * 7777777777 AS"
              + " BIGINT)) AS time FROM range(-500, 500) r(i)");
      for (String width : List.of("1 minute", "1 hour", "6 hours", "1 day")) {
        String arithmetic = SqlDialect.forDuckdb("t", "t").fill("{bucket:" + width + "}");
        try (ResultSet result =
            statement.executeQuery(
                "SELECT count(*) FILTER (WHERE "
                    + arithmetic
                    + " <> time_bucket(INTERVAL '"
                    + width
                    + "', time)) FROM t")) {
          result.next();
          assertThat(result.getLong(1)).as(width).isZero();
        }
      }
    }
  }

  @Test
  void rejectsWidthsWithoutAFixedLength() {
    assertThatThrownBy(() -> SqlDialect.widthMicros("1 month"))
        .hasMessage("Invalid bucket width '1 month' (expected N minute(s), hour(s) or day(s))");
  }
}
