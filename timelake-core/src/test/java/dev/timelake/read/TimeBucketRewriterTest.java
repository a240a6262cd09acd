package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.Chunk;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * time_bucket and date_bin on a time column become integer arithmetic; the answers must equal
 * DuckDB's own time_bucket on a TIMESTAMPTZ with TimeZone UTC, run on the same rows (the oracle).
 */
class TimeBucketRewriterTest {
  private static final List<String> ORIGINS =
      List.of(
          "TIMESTAMPTZ '2001-02-03 04:05:06.789+00'",
          "TIMESTAMPTZ '1900-01-01 00:00:00.000001+00'",
          "TIMESTAMPTZ '2100-06-30 23:59:59.999999+00'");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;
  private static Connection oracle;
  private static TestRandom random;

  @BeforeAll
  static void writeTable() throws SQLException {
    random = TestRandom.create();
    lake = Lake.open(warehouse);
    session = lake.newSession();
    oracle = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = oracle.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      statement.execute("CREATE SCHEMA iot");
      statement.execute("CREATE TABLE iot.tb (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)");
    }
    Table table =
        lake.createTable(
            TableDefinition.builder("iot.tb")
                .column("tag", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .timeColumn("time")
                .seriesKey("tag")
                .chunk(Chunk.MONTH)
                .build());
    Set<Instant> times = new LinkedHashSet<>();
    for (String center :
        List.of(
            "1900-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999999Z",
            "2000-01-03T00:00:00Z",
            "2026-06-15T12:00:00Z",
            "2262-04-11T23:47:16.854775Z",
            "9999-06-01T00:00:00Z")) {
      Instant instant = Instant.parse(center);
      times.add(instant);
      times.add(instant.minus(1, ChronoUnit.MICROS));
      times.add(instant.plus(1, ChronoUnit.MICROS));
      for (int i = 0; i < 60; i++) {
        times.add(
            instant.plus(
                random.between(-40 * 86_400_000_000L, 40 * 86_400_000_000L), ChronoUnit.MICROS));
      }
    }
    Append append = table.newAppend();
    try (PreparedStatement insert =
        oracle.prepareStatement("INSERT INTO iot.tb VALUES (?, ?, ?)")) {
      int i = 0;
      for (Instant time : times) {
        String tag = "t" + (i++ % 3);
        append.row(tag, time, (double) i);
        insert.setString(1, tag);
        insert.setObject(2, OffsetDateTime.ofInstant(time, ZoneOffset.UTC));
        insert.setDouble(3, i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    append.commit();
  }

  @AfterAll
  static void close() throws SQLException {
    oracle.close();
    session.close();
    lake.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1 second",
        "7 minutes",
        "1 hour",
        "90 minutes",
        "1 day",
        "3 days",
        "1 week",
        "250 milliseconds"
      })
  void timeBucketEqualsDuckDbForFixedWidths(String width) {
    String bucket = "time_bucket(INTERVAL '" + width + "', time)";
    String sql = "SELECT tag, time, " + bucket + " AS b FROM iot.tb";
    check(sql, sql, true);
    for (String origin : ORIGINS) {
      String withOrigin =
          "SELECT tag, time, time_bucket(INTERVAL '"
              + width
              + "', time, "
              + origin
              + ") AS b FROM"
              + " iot.tb";
      check(withOrigin, withOrigin, true);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 second", "7 minutes", "90 minutes", "1 day", "3 days", "1 week"})
  void dateBinEqualsTimeBucketFromTheEpoch(String width) {
    check(
        "SELECT tag, time, date_bin(INTERVAL '" + width + "', time) AS b FROM iot.tb",
        "SELECT tag, time, time_bucket(INTERVAL '"
            + width
            + "', time, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS b FROM iot.tb",
        true);
    String origin = ORIGINS.get(0);
    check(
        "SELECT tag, time, date_bin(INTERVAL '"
            + width
            + "', time, "
            + origin
            + ") AS b FROM iot.tb",
        "SELECT tag, time, time_bucket(INTERVAL '"
            + width
            + "', time, "
            + origin
            + ") AS b FROM iot.tb",
        true);
  }

  @Test
  void rewritesBucketsInGroupByWhereAndOrderBy() {
    String sql =
        "SELECT time_bucket(INTERVAL '6 hours', time) AS b, tag, count(*), sum(value) FROM iot.tb"
            + " WHERE time_bucket(INTERVAL '1 day', time) >= TIMESTAMPTZ '1969-12-31 00:00:00+00'"
            + " GROUP BY time_bucket(INTERVAL '6 hours', time), tag"
            + " ORDER BY time_bucket(INTERVAL '6 hours', time), tag";
    check(sql, sql, true);
  }

  @Test
  void rewritesBucketsWhoseWidthIsAConstantExpression() {
    String sql = "SELECT tag, time, time_bucket(INTERVAL '1 hour' * 3, time) AS b FROM iot.tb";
    check(sql, sql, true);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 month", "3 months", "1 year", "4 years", "12 months"})
  void leavesCalendarWidthsToDuckDb(String width) {
    String sql = "SELECT tag, time, time_bucket(INTERVAL '" + width + "', time) AS b FROM iot.tb";
    check(sql, sql, false);
  }

  @Test
  void leavesTimeZoneArgumentsToDuckDb() {
    String sql =
        "SELECT tag, time, time_bucket(INTERVAL '1 day', time, 'Asia/Kolkata') AS b FROM iot.tb";
    check(sql, sql, false);
  }

  @Test
  void leavesBucketsOfOtherExpressionsToDuckDb() {
    String sql =
        "SELECT tag, time, time_bucket(INTERVAL '1 hour', time + INTERVAL '30 minutes') AS b FROM"
            + " iot.tb";
    check(sql, sql, false);
  }

  /**
   * Runs {@code sql} through Timelake and {@code oracleSql} on the oracle; answers must match, and
   * the SQL Timelake ran has no time_bucket call left exactly when {@code rewritten}.
   */
  private static void check(String sql, String oracleSql, boolean rewritten) {
    try (QueryResult result = session.sql(sql)) {
      List<String> rows = sorted(result.rows());
      String duckdbSql =
          result.explanation().stream()
              .filter(line -> line.startsWith("DuckDB SQL: "))
              .findFirst()
              .orElseThrow();
      if (rewritten) {
        assertThat(duckdbSql)
            .as(sql)
            .doesNotContainIgnoringCase("time_bucket")
            .doesNotContainIgnoringCase("date_bin");
      } else {
        assertThat(duckdbSql).as(sql).containsIgnoringCase("time_bucket");
      }
      assertThat(rows).as("%s (%s)", sql, random).isEqualTo(sorted(oracle(oracleSql)));
    }
  }

  private static List<List<Object>> oracle(String sql) {
    try (Statement statement = oracle.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      List<List<Object>> rows = new ArrayList<>();
      while (result.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    } catch (SQLException e) {
      throw new AssertionError("Oracle failed on " + sql, e);
    }
  }

  private static List<String> sorted(List<List<Object>> rows) {
    return rows.stream().map(Object::toString).sorted().toList();
  }
}
