package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TableName;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CREATE TABLE … AS: a lake table with the query's columns, a time-series table when WITH names the
 * time column, filled in one append; a failure leaves no table behind.
 */
class CreateTableAsTest extends WithLakeSession {

  @BeforeEach
  void createSource() {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    run(
        "INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 1), ('a', '2026-01-01"
            + " 01:00:00+00', 2), ('b', '2026-01-01 00:00:00+00', 3)");
  }

  @Test
  void aQueryWithTimeColumnAndSeriesKeyMakesATimeSeriesTable() {
    assertThat(
            message(
                "CREATE TABLE iot.hot WITH (time_column = 'time', series_key = 'device') AS"
                    + " SELECT device, time, value * 10 AS value, 7 // 2 AS half FROM iot.r WHERE"
                    + " value > 1"))
        .isEqualTo("Created table iot.hot with 2 rows");

    assertThat(lake.table("iot.hot").timeColumn()).contains("time");
    assertThat(lake.table("iot.hot").seriesKey()).containsExactly("device");
    assertThat(rows("SELECT device, value, half FROM iot.hot ORDER BY device"))
        .containsExactly(List.of("a", 20.0, 3), List.of("b", 30.0, 3));
  }

  @Test
  void aCopyOfATimeSeriesTableKeepsItsInsertionTimes() {
    run(
        "CREATE TABLE iot.copy WITH (time_column = 'time', series_key = 'device') AS SELECT *"
            + " FROM iot.r");
    assertThat(
            rows(
                "SELECT count(*) FROM iot.copy c JOIN iot.r r USING (device, time) WHERE"
                    + " c._ingest_ts = r._ingest_ts"))
        .containsExactly(List.of(3L));
    assertThat(lake.table("iot.copy").ingestTimeColumn()).contains("_ingest_ts");
  }

  @Test
  void aQueryWithoutOptionsMakesAPlainTable() {
    run("CREATE TABLE ref.devices AS SELECT DISTINCT device FROM iot.r");
    assertThat(lake.table("ref.devices").timeColumn()).isEmpty();
    assertThat(rows("SELECT device FROM ref.devices ORDER BY device"))
        .containsExactly(List.of("a"), List.of("b"));
    assertThat(message("CREATE TABLE IF NOT EXISTS ref.devices AS SELECT 1 AS x"))
        .isEqualTo("Table ref.devices already exists");
    assertThatThrownBy(() -> run("CREATE TABLE ref.devices AS SELECT 1 AS x"))
        .hasMessage("Cannot create ref.devices: it already exists");
  }

  @Test
  void aFailedCreateAsLeavesNoTable() {
    assertThatThrownBy(() -> run("CREATE TABLE iot.bad AS SELECT nope FROM iot.r"))
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> run("CREATE TABLE iot.big AS SELECT 1::HUGEINT AS h"))
        .hasMessageStartingWith(
            "Cannot create iot.big from the query: its column 'h' is of type HUGEINT, which a lake"
                + " table does not store; CAST it in the query");
    assertThatThrownBy(
            () ->
                run(
                    "CREATE TABLE iot.nulls WITH (time_column = 'time', series_key = 'device') AS"
                        + " SELECT device, CAST(NULL AS TIMESTAMPTZ) AS time FROM iot.r"))
        .hasMessageContaining("time");
    assertThatThrownBy(
            () -> run("CREATE TABLE iot.opts WITH (time_column = 'nope') AS SELECT * FROM iot.r"))
        .hasMessageContaining("nope");
    assertThat(lake.tables()).containsExactly(TableName.parse("iot.r"));
  }
}
