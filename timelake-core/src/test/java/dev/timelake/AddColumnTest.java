package dev.timelake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ALTER TABLE … ADD COLUMN: rows written before read the new column as NULL, newer copies of a
 * reading still win, maintenance and rollups carry on, and every change it refuses changes nothing.
 */
class AddColumnTest {
  private static final Instant T0 = Instant.parse("2026-02-01T00:00:00Z");

  @TempDir Path warehouse;
  private Lake lake;
  private Session session;

  @BeforeEach
  void loadRowsBeforeTheChange() {
    lake = Lake.open(warehouse);
    Table table = lake.createTable(TestTables.tagReadings("s.r").build());
    table
        .newAppend()
        .row("a", T0, 1.0)
        .row("a", T0.plusSeconds(60), 2.0)
        .row("b", T0, 3.0)
        .commit();
    table.refresh().newAppend().row("a", T0.plusSeconds(60), 2.5).commit(); // a newer copy
    session = lake.newSession();
    sql(
        "CREATE MATERIALIZED ROLLUP s.r_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time) AS"
            + " bucket, avg(value) AS avg_value, count(*) AS n FROM s.r GROUP BY ALL WITH"
            + " (refresh_interval = 'off')");
  }

  @AfterEach
  void close() {
    session.close();
    lake.close();
  }

  private List<List<Object>> sql(String statement) {
    try (QueryResult result = session.sql(statement)) {
      return result.hasRows() ? result.rows() : List.of(List.of(result.message()));
    }
  }

  @Test
  void readsOlderRowsAsNullAndKeepsTheWinnerRule() {
    try (QueryResult altered = session.sql("ALTER TABLE s.r ADD COLUMN quality INTEGER")) {
      assertThat(altered.kind()).isEqualTo(StatementKind.ALTER_TABLE);
      assertThat(altered.message()).isEqualTo("Altered table s.r: added quality INTEGER");
    }
    sql("INSERT INTO s.r VALUES ('b', TIMESTAMPTZ '2026-02-01 00:00:00+00', 3.5, 7)");
    sql(
        "INSERT INTO s.r (tag, time, value) VALUES ('c', TIMESTAMPTZ '2026-02-01 00:02:00+00', 9.0)");
    List<List<Object>> expected =
        List.of(
            Arrays.asList("a", 1.0, null),
            Arrays.asList("a", 2.5, null),
            Arrays.asList("b", 3.5, 7),
            Arrays.asList("c", 9.0, null));
    String query = "SELECT tag, value, quality FROM s.r ORDER BY tag, time";
    assertThat(sql(query)).isEqualTo(expected);
    assertThat(lake.table("s.r").columns().stream().map(Column::name))
        .containsExactly("tag", "time", "value", "_ingest_ts", "quality");

    lake.table("s.r").newMaintenance().run();
    assertThat(sql(query)).as("after maintenance").isEqualTo(expected);

    session.set("rollup-routing", "true");
    sql("REFRESH MATERIALIZED ROLLUP s.r_1h");
    String daily =
        "SELECT tag, time_bucket(INTERVAL '1 day', time) AS d, avg(value) AS a, count(*) AS n FROM"
            + " s.r GROUP BY ALL ORDER BY tag";
    try (QueryResult routed = session.sql(daily)) {
      assertThat(routed.isRouted()).isTrue();
      List<List<Object>> rows = routed.rows();
      session.set("rollup-routing", "false");
      SameAnswers.assertSameRows(rows, sql(daily), daily);
    }
  }

  @Test
  void addsAColumnFromJava() {
    Table altered = lake.table("s.r").addColumn("note", ColumnType.VARCHAR);
    assertThat(altered.columns().get(altered.columns().size() - 1))
        .isEqualTo(Column.nullable("note", ColumnType.VARCHAR));
    altered.newAppend().row("d", T0, 1.0, "fine").commit();
    assertThat(sql("SELECT tag, note FROM s.r WHERE tag IN ('a', 'd') ORDER BY tag, time"))
        .containsExactly(Arrays.asList("a", null), Arrays.asList("a", null), List.of("d", "fine"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ALTER TABLE s.r ADD COLUMN VALUE DOUBLE|has a column of that name already",
        "ALTER TABLE s.r ADD COLUMN q INTEGER NOT NULL|must allow NULL",
        "ALTER TABLE s.r DROP COLUMN value|the rollup s.r_1h reads it",
        "ALTER TABLE s.r ALTER COLUMN value SET NOT NULL|supported: ADD COLUMN name TYPE",
        "ALTER TABLE s.r ADD COLUMN q NOTATYPE|",
        "ALTER TABLE s.nope ADD COLUMN q INTEGER|s.nope"
      })
  void refusesOtherChangesAndChangesNothing(String statementAndMessage) {
    String[] parts = statementAndMessage.split("\\|", -1);
    assertThatThrownBy(() -> sql(parts[0]))
        .isInstanceOf(TimelakeException.class)
        .hasMessageContaining(parts[1]);
    assertThat(lake.table("s.r").columns().stream().map(Column::name))
        .containsExactly("tag", "time", "value", "_ingest_ts");
  }

  @Test
  void columnsAddedWhileOtherCommitsLandAreAllAdded() throws Exception {
    // Iceberg commits a schema change once against the metadata it read; appends landing in
    // between must not fail it (a line-protocol field arriving during background maintenance).
    Table table = lake.table(TableName.parse("s.r"));
    java.util.concurrent.ExecutorService appender =
        java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      java.util.concurrent.Future<?> appends =
          appender.submit(
              () -> {
                for (int i = 0; i < 40; i++) {
                  lake.table(TableName.parse("s.r"))
                      .newAppend()
                      .row(
                          java.util.Map.of("tag", "c", "time", T0.plusSeconds(i), "value", 1.0 * i))
                      .withoutMaintenance()
                      .commit();
                }
              });
      for (int i = 0; i < 12; i++) {
        table = table.addColumn("extra" + i, ColumnType.DOUBLE);
      }
      appends.get();
    } finally {
      appender.shutdownNow();
    }
    assertThat(lake.table(TableName.parse("s.r")).columns().stream().map(Column::name))
        .contains("extra0", "extra11");
    assertThat(sql("SELECT count(*) FROM s.r WHERE tag = 'c'")).containsExactly(List.of(40L));
  }
}
