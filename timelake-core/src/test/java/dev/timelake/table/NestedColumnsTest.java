package dev.timelake.table;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * STRUCT and LIST columns — what a rollup needs to store signal states — in a table: created,
 * appended by INSERT, read back, written with Iceberg field ids on every nested field, and kept
 * through compaction.
 */
class NestedColumnsTest {
  private static final String POINTS = "STRUCT(\"time\" TIMESTAMPTZ, \"value\" DOUBLE)[]";
  private static final String STATE = "STRUCT(\"first_time\" TIMESTAMPTZ, \"n\" BIGINT)";

  @TempDir Path warehouse;

  @Test
  void parsesAndPrintsNestedTypesAsDuckdbSpellsThem() {
    ColumnType points =
        ColumnType.parse("STRUCT(time TIMESTAMP WITH TIME ZONE, \"value\" DOUBLE)[]");
    assertThat(points)
        .isEqualTo(
            ColumnType.list(
                ColumnType.struct(
                    List.of(
                        new ColumnType.Field("time", ColumnType.TIMESTAMPTZ),
                        new ColumnType.Field("value", ColumnType.DOUBLE)))));
    assertThat(points.sql()).isEqualTo(POINTS);
    assertThat(ColumnType.parse(points.sql())).isEqualTo(points);
    assertThat(ColumnType.parse("STRUCT(\"a \"\"b\"\"\" DECIMAL(18, 3), c INTEGER[])").sql())
        .isEqualTo("STRUCT(\"a \"\"b\"\"\" DECIMAL(18,3), \"c\" INTEGER[])");
    assertThatThrownBy(() -> ColumnType.parse("STRUCT(a)"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Unsupported column type 'STRUCT(a)': a STRUCT field is written 'name TYPE', not 'a'");
    assertThatThrownBy(() -> ColumnType.parse("STRUCT(a INTEGER"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Unsupported column type 'STRUCT(a INTEGER' (expected one of ");
  }

  @Test
  void storesReadsAndCompactsStructAndListColumns() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table =
          lake.createTable(
              TableDefinition.builder("n.states")
                  .column("tag", ColumnType.VARCHAR)
                  .column("time", ColumnType.TIMESTAMPTZ)
                  .column("points", ColumnType.parse(POINTS))
                  .column("state", ColumnType.parse(STATE))
                  .timeColumn("time")
                  .seriesKey("tag")
                  .option("auto-maintain", "false")
                  .build());
      String insert =
          "INSERT INTO n.states SELECT tag, time_bucket(INTERVAL '1 hour', t) AS time, m4(t, v),"
              + " {'first_time': min(t), 'n': count(*)} FROM (SELECT 'a' AS tag, TIMESTAMPTZ"
              + " '2026-01-01 00:00:00+00' + INTERVAL (i * %d) SECOND AS t, (i %% 7) * 1.5 AS v"
              + " FROM range(200) r(i)) GROUP BY ALL";
      try (Session session = lake.newSession()) {
        session.sql(insert.formatted(60));
        session.sql(insert.formatted(90));
      }
      String read = "SELECT time, points, state FROM n.states ORDER BY time";
      List<List<Object>> before = query(lake, read);
      assertThat(before).hasSize(5);
      // The second INSERT resent the first hours, every 90 s instead of 60 s: its rows win.
      assertThat(before.get(0).toString())
          .isEqualTo(
              "[2026-01-01T00:00Z, [{time=2026-01-01T00:00Z, value=0.0}, {time=2026-01-01T00:09Z,"
                  + " value=9.0}, {time=2026-01-01T00:58:30Z, value=6.0}],"
                  + " {first_time=2026-01-01T00:00Z, n=40}]");
      assertThat(
              query(
                  lake,
                  "SELECT column_type FROM (DESCRIBE n.states) WHERE column_name IN ('points',"
                      + " 'state')"))
          .extracting(row -> row.get(0).toString())
          .containsExactly(
              "STRUCT(\"time\" TIMESTAMP WITH TIME ZONE, \"value\" DOUBLE)[]",
              "STRUCT(first_time TIMESTAMP WITH TIME ZONE, n BIGINT)");
      Path file = dataFiles(table).get(0);
      assertThat(
              query(
                  lake,
                  "SELECT count(*) FROM parquet_schema('"
                      + file
                      + "') WHERE field_id IS NULL AND name NOT IN ('duckdb_schema', 'list')"))
          .as("every column, field and element of " + file + " has an Iceberg field id")
          .containsExactly(List.of(0L));

      table.refresh().newMaintenance().run();
      assertThat(query(lake, read).toString()).isEqualTo(before.toString());
    }
  }
}
