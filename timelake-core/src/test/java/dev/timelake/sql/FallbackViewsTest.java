package dev.timelake.sql;

import static dev.timelake.TestTables.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statements the parser cannot handle run against per-table views that still deduplicate. */
class FallbackViewsTest {
  private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
  private static final Instant T2 = Instant.parse("2026-01-02T10:00:00Z");
  private static final String FALLBACK = "statement not parsed; ran against per-table views";

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Table readings;

  /** iot.readings: a at T1 and T2, b at T1; then a late copy of a at T1. default.plain: one row. */
  @BeforeAll
  static void writeTables() {
    lake = Lake.open(warehouse);
    readings = lake.createTable(readings("iot.readings").build());
    readings
        .newAppend()
        .clock(Clock.fixed(Instant.parse("2026-02-01T00:00:00Z"), ZoneOffset.UTC))
        .row("a", T1, 1.0)
        .row("a", T2, 2.0)
        .row("b", T1, 3.0)
        .commit();
    readings
        .newAppend()
        .clock(Clock.fixed(Instant.parse("2026-02-02T00:00:00Z"), ZoneOffset.UTC))
        .row("a", T1, 10.0)
        .commit();
    lake.createTable(readings("plain").build()).newAppend().row("z", T1, 7.0).commit();
  }

  @AfterAll
  static void close() {
    lake.close();
  }

  @Test
  void runsFromFirstSelectOverDeduplicatedViews() {
    try (Session session = lake.newSession();
        QueryResult result = session.sql("FROM iot.readings SELECT count(*), sum(value)")) {
      assertThat(result.rows()).containsExactly(List.of(3L, 15.0));
      assertThat(result.explanation()).containsExactly(FALLBACK);
    }
  }

  @Test
  void showsEveryCopyWhenReadDedupIsOff() {
    try (Session session = lake.newSession()) {
      session.sql("SET timelake.read_dedup = false");
      try (QueryResult result = session.sql("FROM iot.readings SELECT count(*)")) {
        assertThat(result.rows()).containsExactly(List.of(4L));
      }
    }
  }

  @Test
  void runsIntegerDivisionOverViewsSinceTheParserTakesItForAComment() {
    String sql =
        "SELECT count(*) FROM iot.readings WHERE epoch_us(time) // 1000000 < "
            + T2.getEpochSecond();
    try (Session session = lake.newSession();
        QueryResult result = session.sql(sql)) {
      assertThat(result.rows()).containsExactly(List.of(2L));
      assertThat(result.explanation()).containsExactly(FALLBACK);
    }
    try (Session session = lake.newSession();
        QueryResult result =
            session.sql("SELECT count(*) FROM iot.readings WHERE device <> 'http://x' -- a // b")) {
      assertThat(result.rows()).containsExactly(List.of(3L));
      assertThat(result.explanation()).doesNotContain(FALLBACK);
    }
  }

  @Test
  void readsTablesOfTheDefaultNamespaceUnqualified() {
    try (Session session = lake.newSession();
        QueryResult result = session.sql("FROM plain SELECT device, value")) {
      assertThat(result.rows()).containsExactly(List.of("z", 7.0));
    }
  }

  @Test
  void runsDuckDbStatementsTheParserMisreads() {
    try (Session session = lake.newSession();
        QueryResult result = session.sql("SUMMARIZE iot.readings")) {
      List<List<Object>> rows = result.rows();
      int name = result.columnNames().indexOf("column_name");
      int count = result.columnNames().indexOf("count");
      assertThat(rows).extracting(row -> row.get(name)).contains("device", "value");
      assertThat(rows).extracting(row -> row.get(count)).containsOnly(3L);
    }
  }

  @Test
  void seesCommitsMadeAfterAnEarlierFallbackStatement() {
    Table late = lake.createTable(readings("iot.growing").build());
    late.newAppend().row("a", T1, 1.0).commit();
    try (Session session = lake.newSession()) {
      try (QueryResult first = session.sql("FROM iot.growing SELECT count(*)")) {
        assertThat(first.rows()).containsExactly(List.of(1L));
      }

      late.newAppend().row("a", T2, 2.0).commit();

      try (QueryResult second = session.sql("FROM iot.growing SELECT count(*)")) {
        assertThat(second.rows()).containsExactly(List.of(2L));
      }
      try (QueryResult parsed = session.sql("SELECT count(*) FROM iot.growing")) {
        assertThat(parsed.rows()).containsExactly(List.of(2L));
        assertThat(parsed.explanation()).doesNotContain(FALLBACK);
      }
    }
  }

  @Test
  void keepsPlainDuckDbObjectsUsableAfterAFallbackStatement() {
    try (Session session = lake.newSession()) {
      session.sql(
          "CREATE TEMP TABLE limits AS SELECT * FROM (VALUES ('a', 5.0), ('b', 5.0)) AS t(device,"
              + " high)");
      session.sql("FROM iot.readings SELECT count(*)").close();

      try (QueryResult result =
          session.sql(
              "SELECT r.device, count(*) FROM iot.readings r JOIN limits l ON r.device = l.device"
                  + " WHERE r.value < l.high GROUP BY r.device ORDER BY r.device")) {
        assertThat(result.rows()).containsExactly(List.of("a", 1L), List.of("b", 1L));
      }
    }
  }
}
