package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import dev.timelake.ValidationException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Statements on rollups and the tables they are computed from: a rollup's rows are Timelake's to
 * write, a raw table does not go while rollups are computed from it (unless they go with it), and
 * statements Timelake has no meaning for are refused saying why.
 */
class RollupTableStatementsTest extends WithLakeSession {

  @BeforeEach
  void createTableWithRollup() {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 1)");
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, count(*) AS n FROM iot.r GROUP BY device, bucket");
  }

  @Test
  void aRollupTakesNoRowsButItsRefreshes() {
    assertThatThrownBy(() -> run("INSERT INTO iot.r_1h VALUES ('a', '2026-01-01 00:00:00+00', 5)"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot INSERT INTO iot.r_1h: it is a rollup of iot.r, whose rows Timelake computes;"
                + " refresh it with REFRESH MATERIALIZED ROLLUP iot.r_1h (timelake rollup refresh"
                + " iot.r_1h)");
    assertThatThrownBy(
            () ->
                lake.table("iot.r_1h")
                    .newAppend()
                    .row("a", Instant.parse("2026-01-01T00:00:00Z"), 5L)
                    .commit())
        .hasMessageStartingWith("Cannot append to iot.r_1h: it is a rollup of iot.r");

    assertThat(rows("SELECT n FROM iot.r_1h")).containsExactly(List.of(1L));
    assertThat(lake.table("iot.r_1h").rollupOf()).contains(TableName.parse("iot.r"));
    assertThat(lake.table("iot.r").rollupOf()).isEmpty();
  }

  @Test
  void aTableWithRollupsIsDroppedOnlyWithThem() {
    assertThatThrownBy(() -> run("DROP TABLE iot.r"))
        .hasMessage(
            "Cannot drop iot.r: the rollups iot.r_1h are computed from it; drop them first (DROP"
                + " MATERIALIZED ROLLUP …) or drop them with it: DROP TABLE iot.r CASCADE"
                + " (timelake drop iot.r --cascade)");
    assertThatThrownBy(() -> lake.dropTable(TableName.parse("iot.r")))
        .hasMessageStartingWith("Cannot drop iot.r: the rollups iot.r_1h");
    assertThat(lake.tables()).hasSize(2);

    run("DROP TABLE iot.r CASCADE");

    assertThat(lake.tables()).isEmpty();
  }

  @Test
  void droppingARollupAsATableDropsItAsARollup() {
    run("DROP TABLE iot.r_1h");

    assertThat(lake.tables()).containsExactly(TableName.parse("iot.r"));
    assertThat(lake.rollups(TableName.parse("iot.r"))).isEmpty();
    run("DROP TABLE iot.r");
    assertThat(lake.tables()).isEmpty();
  }

  @Test
  void showTablesNamesRollups() {
    assertThat(rows("SHOW TABLES"))
        .containsExactly(List.of("iot", "r", "time-series"), List.of("iot", "r_1h", "rollup"));
  }

  @Test
  void createIndexIsRefusedSayingWhatTheIndexIs() {
    assertThatThrownBy(() -> run("CREATE INDEX by_value ON iot.r (value)"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot CREATE INDEX on iot.r: a Timelake table is kept ordered by its series key and"
                + " time, which is its index, and pruned by both; it takes no other index");
  }

  @Test
  void updateCorrectsRowsAsTheNewestWriteAndTheRollupFollows() {
    run(
        "INSERT INTO iot.r VALUES ('a', '2026-01-01 00:30:00+00', 3), ('b', '2026-01-01"
            + " 00:00:00+00', 5)");
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");

    try (QueryResult updated =
        session.sql("UPDATE iot.r SET value = value * 10 WHERE device = 'a'")) {
      assertThat(updated.message()).isEqualTo("Updated 2 rows in iot.r");
      assertThat(updated.kind()).isEqualTo(dev.timelake.StatementKind.UPDATE);
    }
    assertThat(rows("SELECT device, value FROM iot.r ORDER BY device, time"))
        .containsExactly(List.of("a", 10.0), List.of("a", 30.0), List.of("b", 5.0));
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");
    assertThat(rows("SELECT device, n FROM iot.r_1h ORDER BY device"))
        .containsExactly(List.of("a", 2L), List.of("b", 1L));
    String hourly =
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS b, count(*) FROM iot.r GROUP BY"
            + " ALL ORDER BY ALL";
    assertThat(rows(hourly)).hasSize(2);

    assertThat(message("UPDATE iot.r SET value = 0 WHERE value > 1000"))
        .isEqualTo("Updated 0 rows in iot.r");
    assertThatThrownBy(() -> run("UPDATE iot.r SET time = now()"))
        .hasMessageStartingWith("Cannot UPDATE column 'time' of iot.r: it is part of a row's key");
    assertThatThrownBy(() -> run("UPDATE iot.r SET device = 'x'"))
        .hasMessageStartingWith("Cannot UPDATE column 'device' of iot.r");
    assertThatThrownBy(() -> run("UPDATE iot.r SET nope = 1"))
        .hasMessage(
            "Cannot UPDATE iot.r: it has no column 'nope' (columns: device, time, value, _ingest_ts)");
    assertThatThrownBy(() -> run("UPDATE iot.r SET value = 'many'")).hasMessageContaining("many");
    run("UPDATE iot.r SET value = '5' WHERE device = 'b'"); // an assignment cast
    assertThatThrownBy(() -> run("UPDATE iot.r_1h SET n = 0"))
        .hasMessageStartingWith("Cannot UPDATE iot.r_1h: it is a rollup of iot.r");
    run("CREATE TABLE ref.d (device VARCHAR, site VARCHAR)");
    assertThatThrownBy(() -> run("UPDATE ref.d SET site = 'x'"))
        .hasMessageStartingWith(
            "Cannot UPDATE ref.d: it keeps every row it is given (a plain table)");
    assertThat(rows("SELECT sum(value) FROM iot.r")).containsExactly(List.of(45.0));
  }

  @Test
  void showTellsASettingsValueAndWhereItComesFrom() {
    assertThat(rows("SHOW timelake.read_dedup"))
        .containsExactly(List.of("read-dedup", "true", "default"));
    run("SET timelake.read_dedup = false");
    assertThat(rows("SHOW timelake.read_dedup"))
        .containsExactly(List.of("read-dedup", "false", "session"));
    assertThatThrownBy(() -> run("SHOW timelake.nope"))
        .hasMessageStartingWith("Unknown setting 'nope'");
    assertThat(message("RESET timelake.read_dedup")).isEqualTo("RESET timelake.read_dedup");
    assertThat(rows("SHOW timelake.read_dedup"))
        .containsExactly(List.of("read-dedup", "true", "default"));
  }

  @Test
  void currentSettingAnswersTimelakeSettingsInsideQueries() {
    assertThat(rows("SELECT current_setting('timelake.read_dedup')"))
        .containsExactly(List.of("true"));
    run("SET timelake.read_dedup = false");
    assertThat(
            rows(
                "SELECT count(*) FROM iot.r WHERE current_setting('timelake.read-dedup') ="
                    + " 'false'"))
        .containsExactly(List.of(1L));
    assertThat(rows("SELECT current_setting('TimeZone')")).containsExactly(List.of("UTC"));
    assertThatThrownBy(() -> run("SELECT current_setting('timelake.nope')"))
        .hasMessageStartingWith("Unknown setting 'nope'");
  }

  @Test
  void preparedStatementsTakeTypedParametersAndRunAsTheirTextWould() {
    run(
        "PREPARE count_from(text, double) AS SELECT count(*) FROM iot.r WHERE device = $1 AND"
            + " value >= $2");
    run("PREPARE add(text, timestamptz, double) AS INSERT INTO iot.r VALUES ($1, $2, $3)");

    assertThat(rows("EXECUTE count_from('a', 1)")).containsExactly(List.of(1L));
    try (QueryResult inserted = session.sql("EXECUTE add('a', '2026-01-02 00:00:00+00', 4)")) {
      assertThat(inserted.message()).isEqualTo("Inserted 1 row into iot.r");
    }
    assertThat(rows("EXECUTE count_from('a', 2)")).containsExactly(List.of(1L));
    assertThatThrownBy(() -> run("EXECUTE count_from('a')"))
        .hasMessage("Cannot execute count_from: it takes 2 parameters, given 1");
    assertThatThrownBy(() -> run("EXECUTE count_from('a', 'lots')")).hasMessageContaining("lots");
    assertThatThrownBy(() -> run("PREPARE add AS SELECT 1"))
        .hasMessageStartingWith("Cannot prepare add: this session has a prepared statement");
    run("DEALLOCATE count_from");
    assertThatThrownBy(() -> run("EXECUTE count_from('a', 1)"))
        .hasMessageStartingWith("Prepared statement count_from does not exist in this session");
    try (Session reader =
        lake.newSession(dev.timelake.ClientAccess.of("grafana", dev.timelake.Role.READ))) {
      reader.sql("PREPARE add(text, timestamptz, double) AS INSERT INTO iot.r VALUES ($1, $2, $3)");
      assertThatThrownBy(() -> reader.sql("EXECUTE add('z', '2026-01-02 00:00:00+00', 4)"))
          .hasMessageContaining("(write needed)");
    }
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(2L));
  }

  @Test
  void explainShowsDuckdbsPlanALineToARow() {
    List<List<Object>> plan = rows("EXPLAIN SELECT device, avg(value) FROM iot.r GROUP BY device");
    List<Object> duckdb =
        plan.stream()
            .filter(row -> row.get(0).equals("duckdb plan"))
            .map(row -> row.get(1))
            .toList();
    assertThat(duckdb).hasSizeGreaterThan(3);
    assertThat(duckdb).allSatisfy(line -> assertThat((String) line).doesNotContain("\n"));
  }

  @Test
  void integerDivisionWorksInInsertsAndQueries() {
    run(
        "INSERT INTO iot.r SELECT 'p' || (7 // 2), TIMESTAMPTZ '2026-01-02 00:00:00+00', 9 // 2"
            + " -- a comment // with slashes");

    assertThat(rows("SELECT device, value, value // 2 FROM iot.r WHERE device LIKE 'p%'"))
        .containsExactly(List.of("p3", 4.0, 2.0));
  }

  @Test
  void anInsertSaysHowManyRowsAndCopiesInPlainWords() {
    try (QueryResult one =
            session.sql("INSERT INTO iot.r VALUES ('x', '2026-01-03 00:00:00+00', 1)");
        QueryResult copies =
            session.sql(
                "INSERT INTO iot.r VALUES ('y', '2026-01-03 00:00:00+00', 1),"
                    + " ('y', '2026-01-03 00:00:00+00', 2), ('z', '2026-01-03 00:00:00+00', 3)")) {
      assertThat(one.message()).isEqualTo("Inserted 1 row into iot.r");
      assertThat(copies.message())
          .isEqualTo("Inserted 2 rows into iot.r (1 copy of a key kept once)");
    }
  }

  @Test
  void errorsNameTheUsersMistakeNotTheRewrittenStatement() {
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 2)"); // copies: a merged read
    for (String sql :
        List.of(
            "SELECT nope FROM iot.r",
            "SELECT value + 'x' FROM iot.r WHERE device = 'a'",
            "SELECT * FROM iot.r WHERE time > 'garbage'")) {
      assertThatThrownBy(() -> run(sql))
          .as(sql)
          .isInstanceOf(dev.timelake.QueryFailedException.class)
          .hasMessageNotContaining(warehouse.toString())
          .hasMessageNotContaining("__tl_")
          .hasMessageNotContaining("read_parquet")
          .hasMessageNotContaining("LINE 1")
          .satisfies(
              e ->
                  assertThat(((dev.timelake.QueryFailedException) e).statement())
                      .hasValueSatisfying(rewritten -> assertThat(rewritten).contains("parquet")));
    }
  }

  @Test
  void aStatementPastTheSessionsStatementTimeoutIsCancelled() {
    run("SET statement_timeout = '1s'");
    long started = System.nanoTime();
    assertThatThrownBy(() -> run("SELECT sum(i) FROM range(1000000000000) t(i)"))
        .isInstanceOf(dev.timelake.QueryFailedException.class)
        .hasMessageContaining("statement_timeout of 1000 ms and was cancelled")
        .extracting(e -> ((dev.timelake.TimelakeException) e).sqlState())
        .isEqualTo("57014");
    assertThat(java.time.Duration.ofNanos(System.nanoTime() - started))
        .isLessThan(java.time.Duration.ofSeconds(30));
    run("RESET statement_timeout");
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(1L));
    assertThatThrownBy(() -> run("SET statement_timeout = 'soon'"))
        .hasMessageStartingWith("Invalid statement_timeout 'soon'");
  }

  @Test
  void settingsPostgresqlDriversSendAreAnsweredAndChangeNothing() {
    for (String sql :
        List.of(
            "SET application_name = 'psql'",
            "SET extra_float_digits = 3",
            "SET SESSION DateStyle TO 'ISO'",
            "SET client_encoding TO 'UTF8'")) {
      try (QueryResult result = session.sql(sql)) {
        assertThat(result.message()).as(sql).isEqualTo("SET");
      }
    }
  }
}
