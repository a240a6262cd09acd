package dev.timelake.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.DuplicateIndexIntervalException;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TIMESTAMP (without time zone) time column works as a TIMESTAMPTZ one does: partitions and
 * pruning, dedup with the late copy winning, time_bucket in its own type, the latest-row and
 * newest-first paths, the ordered index with a granularity, maintenance; rollups are refused with
 * the reason.
 */
class TimestampTimeColumnTest {
  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void writeTable() {
    lake = Lake.open(warehouse);
    session = lake.newSession();
    run(
        "CREATE TABLE plant.local (device VARCHAR, time TIMESTAMP, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    run(
        "INSERT INTO plant.local VALUES ('a', TIMESTAMP '2026-01-01 10:00:00', 1.0),"
            + " ('a', TIMESTAMP '2026-01-01 10:30:00', 2.0),"
            + " ('b', TIMESTAMP '2026-01-02 09:00:00', 3.0)");
    // A late copy of a's first reading, with another value: the later insert wins on read.
    run("INSERT INTO plant.local VALUES ('a', TIMESTAMP '2026-01-01 10:00:00', 10.0)");
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  private static List<List<Object>> run(String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.hasRows() ? result.rows() : List.of();
    }
  }

  /** A TIMESTAMP value as the session returns it. */
  private static java.sql.Timestamp at(String text) {
    return java.sql.Timestamp.valueOf(LocalDateTime.parse(text));
  }

  @Test
  void readsEachKeyOnceWithTheLateCopyWinning() {
    assertThat(run("SELECT device, time, value FROM plant.local ORDER BY device, time"))
        .containsExactly(
            List.of("a", at("2026-01-01T10:00"), 10.0),
            List.of("a", at("2026-01-01T10:30"), 2.0),
            List.of("b", at("2026-01-02T09:00"), 3.0));
  }

  @Test
  void prunesDailyPartitionsByTimestampConstants() {
    try (QueryResult result =
        session.sql("SELECT count(*) FROM plant.local WHERE time >= TIMESTAMP '2026-01-02'")) {
      assertThat(result.rows()).containsExactly(List.of(1L));
      assertThat(String.join("\n", result.explanation()))
          .contains("pruning filter: ref(name=\"time\") >= 1767312000000000")
          .contains("time_day=2026-01-02")
          .doesNotContain("time_day=2026-01-01")
          .containsPattern("1 of [23] files after pruning");
    }
  }

  @Test
  void bucketsInTheColumnsOwnType() {
    try (QueryResult result =
        session.sql(
            "SELECT time_bucket(INTERVAL '1 hour', time) AS hour, sum(value) FROM plant.local"
                + " WHERE device = 'a' GROUP BY hour")) {
      assertThat(result.columnTypes().get(0)).isEqualTo("TIMESTAMP");
      assertThat(result.rows()).containsExactly(List.of(at("2026-01-01T10:00"), 12.0));
    }
  }

  @Test
  void answersTheLatestRowAndNewestFirstQueries() {
    assertThat(
            run(
                "SELECT DISTINCT ON (device) device, time, value FROM plant.local"
                    + " ORDER BY device, time DESC"))
        .containsExactly(
            List.of("a", at("2026-01-01T10:30"), 2.0), List.of("b", at("2026-01-02T09:00"), 3.0));
    assertThat(run("SELECT value FROM plant.local WHERE device = 'a' ORDER BY time LIMIT 1"))
        .containsExactly(List.of(10.0));
  }

  @Test
  void keepsOneRowPerSeriesAndMinuteWithAGranularity() {
    run(
        "CREATE TABLE plant.bars (sym VARCHAR, time TIMESTAMP, px DOUBLE) WITH (index_column ="
            + " 'time', entity_columns = 'sym', index_granularity = '1 minute')");
    run("INSERT INTO plant.bars VALUES ('x', TIMESTAMP '2026-01-01 10:00:05', 1.0)");
    assertThatThrownBy(
            () -> run("INSERT INTO plant.bars VALUES ('x', TIMESTAMP '2026-01-01 10:00:59', 2.0)"))
        .isInstanceOf(dev.timelake.IndexIntervalOverlapException.class);
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO plant.bars VALUES ('y', TIMESTAMP '2026-01-01 10:01:00', 1.0),"
                        + " ('y', TIMESTAMP '2026-01-01 10:01:30', 2.0)"))
        .isInstanceOf(DuplicateIndexIntervalException.class);
    assertThat(run("SELECT count(*) FROM plant.bars")).containsExactly(List.of(1L));
  }

  @Test
  void maintainsWithoutChangingAnswers() {
    List<List<Object>> before = run("SELECT * EXCLUDE (_ingest_ts) FROM plant.local ORDER BY ALL");
    lake.table(TableName.parse("plant.local")).newMaintenance().run();
    assertThat(run("SELECT * EXCLUDE (_ingest_ts) FROM plant.local ORDER BY ALL"))
        .isEqualTo(before);
  }

  @Test
  void refusesRollupsNamingTheTimeColumnsType() {
    assertThatThrownBy(
            () ->
                run(
                    "CREATE MATERIALIZED ROLLUP plant.local_1h AS SELECT device,"
                        + " time_bucket(INTERVAL '1 hour', time) AS bucket, avg(value)"
                        + " FROM plant.local GROUP BY device, bucket"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("plant.local.time is TIMESTAMP")
        .hasMessageContaining("rollups need a TIMESTAMPTZ time column");
  }
}
