package dev.timelake.sql;

import static dev.timelake.TestTables.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL Grafana's PostgreSQL data source sends once it has expanded its macros ($__timeFilter,
 * $__timeGroupAlias, with and without its TimescaleDB option) runs, answers as the raw data does,
 * and both spellings are answered from an hourly rollup.
 */
class GrafanaQueriesTest {
  @TempDir static Path warehouse;
  private static Lake lake;

  /** Two devices, a reading every 10 minutes for a day, and a late copy that wins. */
  @BeforeAll
  static void writeTables() {
    lake = Lake.open(warehouse);
    Table table = lake.createTable(readings("iot.readings").build());
    var append = table.newAppend();
    Instant start = Instant.parse("2026-03-01T00:00:00Z");
    for (int i = 0; i < 144; i++) {
      append.row("a", start.plusSeconds(600L * i), (double) i);
      append.row("b", start.plusSeconds(600L * i), i * 2.0);
    }
    append.commit();
    table.newAppend().row("a", start.plusSeconds(600L * 7), 1000.0).commit();
    lake.newRollup("iot.readings_1h")
        .as(
            "SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, avg(value),"
                + " count(*) FROM iot.readings GROUP BY device, bucket")
        .create();
  }

  @AfterAll
  static void close() {
    lake.close();
  }

  private static final String FILTER =
      "\"time\" BETWEEN '2026-03-01T02:00:00Z' AND '2026-03-01T11:59:59.999Z'";

  @Test
  void timescaleSpellingIsAnsweredFromTheRollupAndEqualsTheRawAnswer() {
    String grafana =
        "SELECT time_bucket('3600.000s',\"time\") AS \"time\", device AS metric, avg(value)"
            + " FROM iot.readings WHERE "
            + FILTER
            + " GROUP BY 1,2 ORDER BY 1,2";
    try (Session session = lake.newSession()) {
      List<List<Object>> routed;
      try (QueryResult result = session.sql(grafana)) {
        assertThat(result.routes().get(0).rollups())
            .containsExactly(dev.timelake.TableName.parse("iot.readings_1h"));
        routed = result.rows();
      }
      session.sql("SET timelake.rollup_routing = false").close();
      try (QueryResult raw = session.sql(grafana)) {
        assertThat(raw.routes().get(0).rollups()).isEmpty();
        assertThat(routed).isEqualTo(raw.rows()).hasSize(20);
      }
    }
  }

  @Test
  void plainPostgresSpellingIsAnsweredFromTheRollupAsTheRawDataAnswersIt() {
    String grafana =
        "SELECT floor(extract(epoch from \"time\")/3600)*3600 AS \"time\", device AS metric,"
            + " avg(value) FROM iot.readings WHERE "
            + FILTER
            + " GROUP BY 1,2 ORDER BY 1,2";
    try (Session session = lake.newSession()) {
      List<List<Object>> routed;
      try (QueryResult result = session.sql(grafana)) {
        assertThat(result.routes().get(0).rollups())
            .containsExactly(dev.timelake.TableName.parse("iot.readings_1h"));
        assertThat(result.columnTypes()).containsExactly("DOUBLE", "VARCHAR", "DOUBLE");
        routed = result.rows();
      }
      assertThat(routed).hasSize(20);
      // 02:00 for a: readings 12..17, one of them (7) far earlier, so no copy in this hour.
      assertThat(routed.get(0)).containsExactly(1772330400.0, "a", 14.5);
      session.sql("SET timelake.rollup_routing = false").close();
      try (QueryResult raw = session.sql(grafana)) {
        assertThat(raw.routes().get(0).rollups()).isEmpty();
        assertThat(raw.columnTypes()).containsExactly("DOUBLE", "VARCHAR", "DOUBLE");
        assertThat(routed).isEqualTo(raw.rows());
      }
    }
  }

  @Test
  void epochBucketsThatAreNotOneWidthTwiceStayOnTheRawData() {
    String grafana =
        "SELECT floor(extract(epoch from \"time\")/3600)*60 AS t, avg(value) FROM iot.readings"
            + " GROUP BY 1 ORDER BY 1";
    try (Session session = lake.newSession();
        QueryResult result = session.sql(grafana)) {
      assertThat(result.isRouted()).isFalse();
      assertThat(result.rows()).hasSize(24);
    }
  }
}
