package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.Lake;
import dev.timelake.QueryPlan;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Newest-first (and oldest-first) reads give the rows the query as written gives, over many files
 * in several days, with copies resent later and late rows landing in old days, including the cases
 * where a late copy is the newest reading of a tag or where a tag has fewer rows than the LIMIT.
 */
class NewestFirstTest {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

  @TempDir static Path warehouse;
  private static TestRandom random;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void load() {
    random = TestRandom.create();
    lake = Lake.open(warehouse);
    Table table = lake.createTable(TestTables.tagReadings("n.r").build());
    List<Object[]> sent = new ArrayList<>();
    for (int hour = 0; hour < 5 * 24; hour += 6) {
      Append append = table.refresh().newAppend();
      for (String tag : List.of("a", "b", "c")) {
        for (int minute = 0; minute < 360; minute += 1 + random.nextInt(20)) {
          if (tag.equals("c") && hour > 24) {
            continue; // c stops after the first day: fewer rows than some limits
          }
          Object[] row = {
            tag, T0.plus(Duration.ofMinutes(hour * 60L + minute)), random.nextDouble()
          };
          append.row(row[0], row[1], row[2]);
          sent.add(row);
        }
      }
      // Copies of earlier readings with new values, and late readings in old days.
      for (int i = 0; i < 5 && !sent.isEmpty(); i++) {
        Object[] old = sent.get(random.nextInt(sent.size()));
        append.row(old[0], old[1], -random.nextDouble());
      }
      append.row("b", T0.plus(Duration.ofMinutes(random.between(0, hour * 60L + 1))), 99.0);
      append.commit();
    }
    // The newest reading of a, resent late with another value: the copy must win.
    Object[] newestOfA =
        sent.stream().filter(r -> r[0].equals("a")).reduce((x, y) -> y).orElseThrow();
    table.refresh().newAppend().row("a", newestOfA[1], 1234.5).commit();
    session = lake.newSession();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  static Stream<String> queries() {
    List<String> queries = new ArrayList<>();
    for (String filter :
        List.of(
            "",
            " WHERE tag = 'a'",
            " WHERE tag = 'c'",
            " WHERE tag IN ('b', 'c') AND value > 0.5")) {
      for (String order : List.of("time DESC, tag", "time, tag")) {
        for (String limit :
            List.of(
                "LIMIT 1",
                "LIMIT 7",
                "LIMIT 100",
                "LIMIT 500",
                "LIMIT 5 OFFSET 40",
                "LIMIT 10000")) {
          queries.add(
              "SELECT tag, time, value FROM n.r" + filter + " ORDER BY " + order + " " + limit);
        }
      }
    }
    queries.add(
        "SELECT r.value, r.time FROM n.r AS r WHERE r.tag = 'b' ORDER BY r.time DESC, r.value LIMIT 30");
    return queries.stream();
  }

  @ParameterizedTest
  @MethodSource("queries")
  void givesTheRowsOfTheQueryAsWritten(String query) {
    String asWritten =
        "SELECT * FROM ("
            + query.substring(0, query.indexOf(" ORDER BY"))
            + ") AS q"
            + query.substring(query.indexOf(" ORDER BY")).replace("r.", "q.");
    assertThat(rows(query)).as(query + " " + random).isEqualTo(rows(asWritten));
  }

  @Test
  void readsOnlyTheNewestFilesWhenTheyHoldTheRows() {
    try (QueryResult result =
        session.sql(
            "SELECT tag, time, value FROM n.r WHERE tag = 'a' ORDER BY time DESC LIMIT 3")) {
      List<List<Object>> rows = result.rows();
      assertThat(rows).hasSize(3);
      QueryPlan.NewestFirstBound bound = result.plan().newestFirst().orElseThrow();
      assertThat(bound.table()).hasToString("n.r");
      assertThat(bound.descending()).isTrue();
      assertThat(bound.limit()).isEqualTo(3);
      assertThat(rows)
          .allSatisfy(
              row ->
                  assertThat(((java.time.OffsetDateTime) row.get(1)).toInstant())
                      .isAfterOrEqualTo(bound.bound()));
      assertThat(result.explanation()).contains(bound.explanationLine());
      assertThat(rows.get(0).get(2)).isEqualTo(1234.5);
    }
  }

  @Test
  void runsTheQueryAsWrittenWhenNoBoundHoldsEveryRow() {
    try (QueryResult result =
        session.sql("SELECT tag, time FROM n.r WHERE tag = 'c' ORDER BY time DESC LIMIT 10000")) {
      assertThat(result.plan().newestFirst()).isEmpty();
      assertThat(result.plan().reads())
          .singleElement()
          .extracting(QueryPlan.TableRead::table)
          .hasToString("n.r");
      assertThat(result.rows()).isNotEmpty().hasSizeLessThan(10000);
    }
  }

  @Test
  void explainSaysHowItWouldRead() {
    try (QueryResult result = session.sql("EXPLAIN SELECT * FROM n.r ORDER BY time LIMIT 10")) {
      List<String> lines = result.rows().stream().map(row -> String.valueOf(row.get(1))).toList();
      assertThat(lines)
          .as(
              String.join(
                  "\n",
                  lines.stream()
                      .filter(l -> !l.contains("read_parquet") && !l.contains("─"))
                      .toList()))
          .anyMatch(line -> line.startsWith("oldest first: runs bounded by time"));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, count(*) FROM n.r GROUP BY tag ORDER BY tag LIMIT 2",
        "SELECT tag, time, row_number() OVER (ORDER BY time) AS n FROM n.r ORDER BY time DESC LIMIT 5",
        "SELECT DISTINCT tag, time FROM n.r ORDER BY time DESC LIMIT 5",
        "SELECT tag, time FROM n.r ORDER BY value DESC LIMIT 5",
        "SELECT tag, time FROM n.r ORDER BY time DESC LIMIT 20000"
      })
  void leavesOtherQueriesAsWritten(String query) {
    try (QueryResult result = session.sql(query)) {
      assertThat(result.plan().newestFirst()).isEmpty();
    }
  }

  private static List<List<Object>> rows(String query) {
    try (QueryResult result = session.sql(query)) {
      return result.rows();
    }
  }
}
