package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ClientAccess;
import dev.timelake.QueryResult;
import dev.timelake.Role;
import dev.timelake.Session;
import dev.timelake.StatementKind;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DELETE removes every copy of the keys of the rows the reader sees where its condition holds, in
 * one commit: an older copy never resurfaces, files wholly deleted are dropped and the others
 * written again, the table's rollups follow, and the last-value index does too.
 */
class DeleteStatementTest extends WithLakeSession {
  @BeforeEach
  void createTable() {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    // Two days of three devices, hourly; then a late correction of a's first hour (a copy).
    run(
        "INSERT INTO iot.r SELECT d, TIMESTAMPTZ '2026-01-01 00:00:00+00' + h * INTERVAL '1 hour',"
            + " h FROM (VALUES ('a'), ('b'), ('c')) v(d), range(0, 48) t(h)");
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 100)");
  }

  @Test
  void deletingAKeyRemovesEveryCopySoNoOlderOneResurfaces() {
    try (QueryResult deleted =
        session.sql("DELETE FROM iot.r WHERE device = 'a' AND value = 100")) {
      assertThat(deleted.message()).isEqualTo("Deleted 1 row from iot.r");
      assertThat(deleted.kind()).isEqualTo(StatementKind.DELETE);
      assertThat(deleted.rowCount()).hasValue(1);
    }
    assertThat(rows("SELECT count(*) FROM iot.r WHERE device = 'a'")).containsExactly(List.of(47L));
    assertThat(rows("SELECT count(*) FROM iot.r WHERE device = 'a' AND time = '2026-01-01'"))
        .containsExactly(List.of(0L));
    run("SET timelake.read_dedup = false");
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(143L));
  }

  @Test
  void deleteBySeriesTimeRangeAndSubqueryAsTheReaderSeesThem() {
    assertThat(message("DELETE FROM iot.r WHERE time >= '2026-01-02'"))
        .isEqualTo("Deleted 72 rows from iot.r");
    assertThat(
            message(
                "DELETE FROM iot.r WHERE device IN (SELECT device FROM iot.r WHERE value >= 23"
                    + " AND device <> 'a')"))
        .isEqualTo("Deleted 48 rows from iot.r");
    assertThat(rows("SELECT device, count(*) FROM iot.r GROUP BY device"))
        .containsExactly(List.of("a", 24L));
    assertThat(message("DELETE FROM iot.r WHERE value > 1000"))
        .isEqualTo("Deleted 0 rows from iot.r");
    assertThat(message("DELETE FROM iot.r")).isEqualTo("Deleted 24 rows from iot.r");
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(0L));
    run("INSERT INTO iot.r VALUES ('z', '2026-01-05', 1)");
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(1L));
  }

  @Test
  void deleteAndUpdateReadDuckDbsIntegerDivision() {
    // JSqlParser takes // for a comment: these were sent to DuckDB as written and refused there.
    long everyOtherHour =
        (long)
            rows("SELECT count(*) FROM iot.r WHERE (epoch_us(time) // 3600000000) % 2 = 1")
                .get(0)
                .get(0);
    assertThat(message("UPDATE iot.r SET value = value // 2 WHERE device = 'c'"))
        .startsWith("Updated ");
    assertThat(message("DELETE FROM iot.r WHERE (epoch_us(time) // 3600000000) % 2 = 1"))
        .isEqualTo("Deleted " + everyOtherHour + " rows from iot.r");
    assertThat(rows("SELECT count(*) FROM iot.r WHERE (epoch_us(time) // 3600000000) % 2 = 1"))
        .containsExactly(List.of(0L));
  }

  @Test
  void rollupsAndTheLastValueIndexFollowADelete() {
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1d AS SELECT device, time_bucket(INTERVAL '1 day',"
            + " time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY device,"
            + " bucket");
    String daily =
        "SELECT device, time_bucket(INTERVAL '1 day', time) AS day, count(*), sum(value) FROM"
            + " iot.r GROUP BY ALL ORDER BY ALL";
    String latest =
        "SELECT device, value FROM iot.r LATEST ON time PARTITION BY device ORDER BY device";
    assertThat(rows(latest)).hasSize(3);

    run("DELETE FROM iot.r WHERE device = 'b' OR (device = 'c' AND time >= '2026-01-02')");

    List<List<Object>> routed = rows(daily);
    run("SET timelake.rollup_routing = false");
    assertThat(rows(daily)).isEqualTo(routed).hasSize(3);
    run("SET timelake.rollup_routing = true");
    run("REFRESH MATERIALIZED ROLLUP iot.r_1d");
    assertThat(rows("SELECT device, n FROM iot.r_1d ORDER BY device, bucket"))
        .containsExactly(List.of("a", 24L), List.of("a", 24L), List.of("c", 24L));
    assertThat(rows(daily)).isEqualTo(routed);
    assertThat(rows(latest)).containsExactly(List.of("a", 47.0), List.of("c", 23.0));
  }

  @Test
  void theJavaApiDeletesAsTheStatementDoes() {
    assertThat(lake.table("iot.r").newDelete().where("device = 'b' AND value < 10").commit())
        .isEqualTo(10);
    assertThat(rows("SELECT count(*) FROM iot.r WHERE device = 'b'")).containsExactly(List.of(38L));
    assertThatThrownBy(() -> lake.table("iot.r").newDelete().where("device = = 'b'"))
        .isInstanceOf(dev.timelake.ValidationException.class)
        .hasMessageStartingWith(
            "Cannot delete from iot.r: cannot read the condition 'device = = 'b''");
    assertThat(lake.table("iot.r").newDelete().commit()).isEqualTo(134);
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(0L));
  }

  @Test
  void anOrderedIndexKnowsTheIntervalsADeleteEmptied() {
    run(
        "CREATE TABLE market.bars (symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE) WITH"
            + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m')");
    run(
        "INSERT INTO market.bars SELECT 'NVDA', TIMESTAMPTZ '2026-01-02 14:30:00+00' + m *"
            + " INTERVAL '1 minute', m FROM range(0, 10) t(m)");
    String coverage =
        "SELECT covered FROM timelake_coverage('market.bars', '2026-01-02', '2026-01-03')";
    assertThat(rows(coverage)).containsExactly(List.of(10L));

    run("DELETE FROM market.bars WHERE close >= 7");

    assertThat(rows(coverage)).containsExactly(List.of(7L));
    run("INSERT INTO market.bars VALUES ('NVDA', '2026-01-02 14:38:00+00', 8)");
    assertThat(rows(coverage)).containsExactly(List.of(8L));
  }

  @Test
  void aTableThatKeepsEveryRowLosesTheRowsWhereTheConditionHolds() {
    run("CREATE TABLE ref.d (device VARCHAR, site VARCHAR, tags VARCHAR[])");
    run(
        "INSERT INTO ref.d VALUES ('a', 'x', ['p']), ('a', 'x', ['p']), ('b', 'x', NULL),"
            + " ('c', 'y', [])");
    run("INSERT INTO ref.d VALUES ('d', 'y', ['q', 'r'])");

    assertThat(message("DELETE FROM ref.d WHERE site = 'x' AND device <> 'b'"))
        .isEqualTo("Deleted 2 rows from ref.d");
    assertThat(rows("SELECT device FROM ref.d ORDER BY device"))
        .containsExactly(List.of("b"), List.of("c"), List.of("d"));
    assertThat(message("DELETE FROM ref.d WHERE tags IS NULL OR len(tags) = 2"))
        .isEqualTo("Deleted 2 rows from ref.d");
    assertThat(rows("SELECT device FROM ref.d")).containsExactly(List.of("c"));
  }

  @Test
  void whatDeleteDoesNotTakeIsRefusedAndChangesNothing() {
    assertThatThrownBy(() -> run("DELETE FROM iot.r WHERE nope = 1")).hasMessageContaining("nope");
    run("BEGIN");
    assertThatThrownBy(() -> run("DELETE FROM iot.r"))
        .hasMessageStartingWith("Cannot run DELETE FROM iot.r inside a transaction");
    run("ROLLBACK");
    try (Session reader = lake.newSession(ClientAccess.of("grafana", Role.READ))) {
      assertThatThrownBy(() -> reader.sql("DELETE FROM iot.r"))
          .hasMessageContaining("(write needed)");
    }
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1d AS SELECT device, time_bucket(INTERVAL '1 day',"
            + " time) AS bucket, count(*) AS n FROM iot.r GROUP BY device, bucket");
    assertThatThrownBy(() -> run("DELETE FROM iot.r_1d"))
        .hasMessageStartingWith("Cannot DELETE FROM iot.r_1d: it is a rollup of iot.r");
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(144L));
  }
}
