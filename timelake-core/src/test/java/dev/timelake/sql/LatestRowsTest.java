package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The newest row per series from the last-value index equals the same query over the data, after
 * every append (late rows, copies whose insertion time makes them win or lose, explicit insertion
 * times), compaction, retention and an added column; queries the index cannot answer keep their
 * plan.
 */
class LatestRowsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long HOUR = 3_600_000_000L;

  private static final List<String> ANSWERED =
      List.of(
          "SELECT * FROM iot.r QUALIFY row_number() OVER (PARTITION BY tag ORDER BY time DESC) = 1"
              + " ORDER BY tag",
          "SELECT tag, time, value FROM iot.r WHERE tag IN ('tag1', 'tag3') QUALIFY 1 ="
              + " row_number() OVER (PARTITION BY tag ORDER BY time DESC) ORDER BY tag",
          "SELECT DISTINCT ON (tag) tag, time, value FROM iot.r ORDER BY tag, time DESC",
          "SELECT r.tag, r.value FROM iot.r AS r WHERE r.time >= TIMESTAMPTZ '2026-01-01"
              + " 14:00:00+00' AND r.tag <> 'tag0' QUALIFY row_number() OVER (PARTITION BY r.tag"
              + " ORDER BY r.time DESC) = 1 ORDER BY 1",
          "SELECT tag, time, value FROM iot.r LATEST ON time PARTITION BY tag ORDER BY tag",
          "SELECT count(*) FROM (SELECT * FROM iot.r QUALIFY row_number() OVER (PARTITION BY tag"
              + " ORDER BY time DESC) = 1)",
          "SELECT tag, max(time) AS time, arg_max_null(value, time) AS value FROM iot.r WHERE tag"
              + " <> 'tag2' GROUP BY tag ORDER BY tag");

  /** Answered from the index unless a series' newest value is NULL (arg_max skips NULLs). */
  private static final String ARG_MAX =
      "SELECT tag, max(time) AS time, arg_max(value, time) AS value FROM iot.r GROUP BY tag"
          + " ORDER BY tag";

  private static final List<String> NOT_ANSWERED =
      List.of(
          "SELECT tag, time, value FROM iot.r WHERE value > 50 QUALIFY row_number() OVER"
              + " (PARTITION BY tag ORDER BY time DESC) = 1 ORDER BY tag",
          "SELECT tag, time, value FROM iot.r WHERE time < TIMESTAMPTZ '2026-01-01 14:00:00+00'"
              + " QUALIFY row_number() OVER (PARTITION BY tag ORDER BY time DESC) = 1 ORDER BY tag",
          "SELECT tag, time FROM iot.r QUALIFY row_number() OVER (PARTITION BY tag ORDER BY time)"
              + " = 1 ORDER BY tag",
          "SELECT DISTINCT ON (tag) tag, time FROM iot.r ORDER BY tag, time");

  @TempDir Path warehouse;

  @Test
  void theIndexAnswersAsTheDataDoesAfterEveryChange() {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse)) {
      Table table =
          lake.createTable(
              TableDefinition.builder("iot.r")
                  .column("tag", ColumnType.VARCHAR)
                  .column("time", ColumnType.TIMESTAMPTZ)
                  .column("value", ColumnType.DOUBLE)
                  .timeColumn("time")
                  .seriesKey("tag")
                  .chunk(dev.timelake.Chunk.HOUR)
                  .option("auto-maintain", "false")
                  .build());
      long now = 10 * HOUR;
      for (int a = 0; a < 7; a++) {
        now += HOUR / 2;
        appendRandom(table.refresh(), random, now);
        if (a % 2 == 0) {
          // The index of the appends between is built incrementally from these ones.
          compareAll(lake, random + " after append " + a);
        }
        if (a == 3) {
          table.refresh().newMaintenance().run();
          compareAll(lake, random + " after compaction");
        }
        if (a == 5) {
          table.refresh().addColumn("quality", ColumnType.INTEGER);
          compareAll(lake, random + " after an added column");
        }
      }
      table
          .refresh()
          .alter(Map.of("retention", "2h"))
          .newMaintenance()
          .clock(Clock.fixed(T0.plusNanos(now * 1000), ZoneOffset.UTC))
          .run();
      compareAll(lake, random + " after retention");
      assertThat(latestIndexFiles(table)).isNotEmpty();
    }
  }

  /** Mostly recent rows, some late, some copies of recent keys, sometimes explicit ingest times. */
  private static void appendRandom(Table table, TestRandom random, long now) {
    long ingest = now + (random.nextInt(4) == 0 ? -random.nextInt(3) * HOUR : 0);
    boolean explicitIngest = random.nextInt(4) == 0;
    var append = table.newAppend().clock(Clock.fixed(T0.plusNanos(ingest * 1000), ZoneOffset.UTC));
    int rows = 1 + random.nextInt(25);
    for (int r = 0; r < rows; r++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("tag", "tag" + random.nextInt(5));
      long time =
          random.nextInt(4) == 0
              ? random.nextInt((int) (now / HOUR)) * HOUR
              : now - random.nextInt(4) * (HOUR / 4);
      row.put("time", T0.plusNanos(time * 1000));
      row.put("value", random.nextInt(10) == 0 ? null : (double) random.nextInt(100));
      if (explicitIngest) {
        row.put("_ingest_ts", T0.plusNanos((ingest - random.nextInt(3) * HOUR) * 1000));
      }
      append.row(row);
    }
    append.commit();
  }

  private static void compareAll(Lake lake, String context) {
    try (Session indexed = lake.newSession();
        Session plain = lake.newSession()) {
      plain.set("latest-index", "false");
      for (String query : ANSWERED) {
        assertThat(explain(indexed, query)).as(context + ": " + query).contains("last-value index");
        assertThat(rows(indexed, query)).as(context + ": " + query).isEqualTo(rows(plain, query));
      }
      assertThat(rows(indexed, ARG_MAX))
          .as(context + ": " + ARG_MAX)
          .isEqualTo(rows(plain, ARG_MAX));
      boolean newestNull =
          rows(
                  plain,
                  "SELECT count(*) FROM (SELECT * FROM iot.r QUALIFY row_number() OVER"
                      + " (PARTITION BY tag ORDER BY time DESC) = 1) WHERE value IS NULL")
              .stream()
              .anyMatch(row -> ((Number) row.get(0)).longValue() > 0);
      assertThat(explain(indexed, ARG_MAX).contains("last-value index"))
          .as(context + ": " + ARG_MAX)
          .isEqualTo(!newestNull);
      for (String query : NOT_ANSWERED) {
        assertThat(explain(indexed, query))
            .as(context + ": " + query)
            .doesNotContain("last-value index");
        assertThat(rows(indexed, query)).as(context + ": " + query).isEqualTo(rows(plain, query));
      }
    }
  }

  private static List<List<Object>> rows(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private static String explain(Session session, String sql) {
    return rows(session, "EXPLAIN " + sql).toString();
  }

  @Test
  void withoutDedupOnReadTheQueryKeepsItsPlan() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table =
          lake.createTable(
              TableDefinition.builder("iot.d")
                  .column("tag", ColumnType.VARCHAR)
                  .column("time", ColumnType.TIMESTAMPTZ)
                  .timeColumn("time")
                  .seriesKey("tag")
                  .build());
      table.newAppend().row("a", T0.atOffset(ZoneOffset.UTC)).commit();
      try (Session session = lake.newSession()) {
        session.set("read-dedup", "false");
        assertThat(
                explain(
                    session,
                    "SELECT * FROM iot.d QUALIFY row_number() OVER (PARTITION BY tag ORDER BY"
                        + " time DESC) = 1"))
            .doesNotContain("last-value index");
      }
    }
  }

  @Test
  void onceReadTheIndexFollowsEachAppend() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table =
          lake.createTable(
              TableDefinition.builder("iot.f")
                  .column("tag", ColumnType.VARCHAR)
                  .column("time", ColumnType.TIMESTAMPTZ)
                  .timeColumn("time")
                  .seriesKey("tag")
                  .option("auto-maintain", "false")
                  .build());
      table.newAppend().row("a", T0.atOffset(ZoneOffset.UTC)).commit();
      assertThat(latestIndexFiles(table)).isEmpty();
      String newest =
          "SELECT tag, time FROM iot.f QUALIFY row_number() OVER (PARTITION BY tag ORDER BY time"
              + " DESC) = 1 ORDER BY tag";
      try (Session session = lake.newSession()) {
        rows(session, newest);
      }
      assertThat(latestIndexFiles(table)).hasSize(1);

      table.refresh().newAppend().row("b", T0.plusSeconds(1).atOffset(ZoneOffset.UTC)).commit();

      var snapshots = table.refresh().info().snapshots();
      long current = snapshots.get(snapshots.size() - 1).id();
      assertThat(latestIndexFiles(table))
          .anyMatch(
              path -> path.getFileName().toString().startsWith("timelake-latest-" + current + "-"));
      try (Session session = lake.newSession()) {
        assertThat(rows(session, newest))
            .containsExactly(
                List.of("a", T0.atOffset(ZoneOffset.UTC)),
                List.of("b", T0.plusSeconds(1).atOffset(ZoneOffset.UTC)));
      }
    }
  }

  @Test
  void latestOnInsideAStringIsLeftAlone() {
    assertThat(LatestRows.latestOn("SELECT 'x LATEST ON t PARTITION BY k'"))
        .isEqualTo("SELECT 'x LATEST ON t PARTITION BY k'");
    assertThat(LatestRows.latestOn("SELECT * FROM t LATEST ON ts PARTITION BY a, b LIMIT 3"))
        .isEqualTo(
            "SELECT * FROM t QUALIFY row_number() OVER (PARTITION BY a, b ORDER BY ts DESC) = 1"
                + " LIMIT 3");
  }

  private static List<Path> latestIndexFiles(Table table) {
    Path metadata =
        Path.of(dev.timelake.engine.SqlText.localPath(table.refresh().info().location()))
            .resolve("metadata");
    try (Stream<Path> files = Files.list(metadata)) {
      List<Path> found = new ArrayList<>();
      files
          .filter(p -> p.getFileName().toString().startsWith("timelake-latest-"))
          .forEach(found::add);
      return found;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
