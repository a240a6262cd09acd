package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RollupVerification;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rollups with a WHERE: on a column they do not hold ({@code quality = 0}), answering only queries
 * with the same terms; on a grouping column ({@code tag LIKE 'L01-%'}), answering queries whose
 * WHERE implies it, their own key filters applied to its rows. Copies that change a row's quality
 * and late rows land after the refresh; each query equals its unrouted answer.
 */
class FilteredRollupTest {
  private static final Instant T0 = Instant.parse("2026-02-01T00:00:00Z");
  private static final List<String> TAGS = List.of("L01-1", "L01-2", "L02-1");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void createTableAndRollups() {
    lake = Lake.open(warehouse);
    Table raw =
        lake.createTable(
            TableDefinition.builder("f.r")
                .column("tag", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .column("quality", ColumnType.INTEGER)
                .timeColumn("time")
                .seriesKey("tag")
                .option("auto-maintain", "false")
                .build());
    Random random = new Random(7);
    var append = raw.newAppend();
    for (int i = 0; i < 3 * 24 * 30; i++) {
      Integer quality = i % 11 == 0 ? null : random.nextInt(3) == 0 ? 1 : 0;
      append.row(TAGS.get(i % 3), T0.plusSeconds(i * 120L + i % 3), (double) (i % 97), quality);
    }
    // The only reading of its hour and series: a newer copy moves it out of quality = 0.
    append.row("L09-9", T0.plusSeconds(5 * 3_600), 42.0, 0);
    append.commit();
    session = lake.newSession();
    sql(
        "CREATE MATERIALIZED ROLLUP f.r_q0 AS SELECT tag, time_bucket(INTERVAL '1 hour', time) AS"
            + " h, avg(value), max(value), count(*) FROM f.r WHERE quality = 0 GROUP BY ALL WITH"
            + " (refresh_interval = 'off')");
    sql(
        "CREATE MATERIALIZED ROLLUP f.r_l01 AS SELECT tag, time_bucket(INTERVAL '1 hour', time) AS"
            + " h, avg(value), max(value), count(*) FROM f.r WHERE tag LIKE 'L01-%' GROUP BY ALL"
            + " WITH (refresh_interval = 'off')");
    sql(
        "CREATE MATERIALIZED ROLLUP f.r_q0_day AS SELECT tag, time_bucket(INTERVAL '1 day', time)"
            + " AS d, avg(value), max(value), count(*) FROM f.r WHERE quality = 0 GROUP BY ALL"
            + " WITH (refresh_interval = 'off')");
    // After the refreshes: copies that change a reading's quality, and late rows.
    var late = raw.newAppend();
    late.row("L01-1", T0.plusSeconds(0), 500.0, 1); // was quality NULL (i = 0)
    late.row("L01-2", T0.plusSeconds(121), 600.0, 0);
    late.row("L02-1", T0.plusSeconds(3_600 * 30 + 7), 700.0, 0);
    late.row("L09-9", T0.plusSeconds(5 * 3_600), 43.0, 1);
    late.commit();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value), count(*) FROM f.r"
            + " WHERE quality = 0 GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 day', time) AS d, max(value) FROM f.r r WHERE"
            + " r.quality = 0 AND r.tag = 'L01-1' GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '2 hours', time) AS h, avg(value) FROM f.r WHERE tag ="
            + " 'L01-2' GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 day', time) AS d, count(*) FROM f.r WHERE tag IN"
            + " ('L01-1', 'L01-2') GROUP BY ALL ORDER BY ALL",
        "SELECT tag, max(value), count(*) FROM f.r WHERE quality = 0 AND time >= TIMESTAMPTZ"
            + " '2026-02-01 10:30:00+00' GROUP BY ALL ORDER BY ALL",
        // The same term written the other way round.
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value), count(*) FROM f.r"
            + " WHERE 0 = quality GROUP BY ALL ORDER BY ALL"
      })
  void answersQueriesWhoseWhereImpliesTheRollups(String query) {
    assertThat(compare(query)).as(query).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM f.r WHERE"
            + " quality = 1 GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM f.r WHERE"
            + " quality >= 0 GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM f.r WHERE tag"
            + " LIKE 'L0%' GROUP BY ALL ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM f.r GROUP BY ALL"
            + " ORDER BY ALL",
        "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM f.r WHERE value >"
            + " quality GROUP BY ALL ORDER BY ALL"
      })
  void leavesQueriesWhoseWhereDoesNotImplyItToRawData(String query) {
    assertThat(compare(query)).as(query).isFalse();
  }

  @Test
  void explainsTheFilterThatDidNotMatch() {
    session.set("rollup-routing", "true");
    try (QueryResult result =
        session.sql(
            "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM f.r WHERE"
                + " quality = 1 GROUP BY ALL")) {
      assertThat(String.join("\n", result.explanation()))
          .contains(
              "f.r_q0: holds only rows where quality = 0; the query asks for rows where quality ="
                  + " 1, which its rows cannot be filtered to")
          .contains("f.r_l01: holds every row; the query asks for rows where quality = 1");
    }
    try (QueryResult result =
        session.sql(
            "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS h, avg(value) FROM f.r WHERE tag"
                + " = 'L02-1' GROUP BY ALL")) {
      assertThat(String.join("\n", result.explanation()))
          .contains(
              "f.r_l01: holds only rows where tag LIKE 'L01-%', which the query's WHERE does not"
                  + " imply");
    }
  }

  @Test
  void filteredRollupsHoldWhatTheirDefinitionGivesAfterARefresh() {
    for (String name : List.of("f.r_q0", "f.r_l01", "f.r_q0_day")) {
      lake.refreshRollup(TableName.parse(name));
    }
    for (String name : List.of("f.r_q0", "f.r_l01", "f.r_q0_day")) {
      RollupVerification verification =
          lake.verifyRollup(TableName.parse(name), RollupVerification.Options.allBuckets());
      assertThat(verification.isExact()).as(name + ": " + verification).isTrue();
    }
    assertThat(lake.table("f.r_q0").settings()).containsEntry("rollup-filter", "(quality = 0)");
    try (QueryResult result = session.sql("SELECT count(*) FROM f.r_q0 WHERE tag = 'L09-9'")) {
      assertThat(result.rows()).containsExactly(List.of(0L));
    }
  }

  @Test
  void refusesAWhereThatIsNotOneColumnAgainstConstants() {
    for (String where :
        List.of(
            "time > TIMESTAMPTZ '2026-01-01 00:00:00+00'",
            "tag IN (SELECT tag FROM f.r_q0)",
            "value > random()",
            "value > quality")) {
      assertThatThrownBy(
              () ->
                  sql(
                      "CREATE MATERIALIZED ROLLUP f.bad AS SELECT tag, time_bucket(INTERVAL '1"
                          + " hour', time) AS h, max(value) FROM f.r WHERE "
                          + where
                          + " GROUP BY ALL"))
          .as(where)
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("a rollup's filter terms each compare one column other than time");
    }
    assertThat(lake.tables()).doesNotContain(TableName.parse("f.bad"));
  }

  /** Runs {@code query} routed and not; both must agree; returns whether it was routed. */
  private static boolean compare(String query) {
    return RoutedAndUnrouted.compare(session, query);
  }

  private static void sql(String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }
}
