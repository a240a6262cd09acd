package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TableName;
import dev.timelake.ValidationException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ALTER TABLE … RENAME COLUMN, DROP COLUMN, RENAME TO and TRUNCATE: Iceberg schema evolution and
 * one commit each, refused for the columns a table's contract or rollups need, and for rollups.
 */
class SchemaChangeStatementsTest extends WithLakeSession {

  @BeforeEach
  void createTable() {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE, note VARCHAR, n"
            + " UBIGINT) WITH (time_column = 'time', series_key = 'device')");
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 1, 'x', 7)");
  }

  @Test
  void aRenamedColumnReadsItsOlderRowsUnderTheNewName() {
    assertThat(message("ALTER TABLE iot.r RENAME COLUMN note TO remark"))
        .isEqualTo("Altered table iot.r: renamed column note to remark");
    run("ALTER TABLE iot.r RENAME n TO total");
    run("INSERT INTO iot.r VALUES ('b', '2026-01-01 00:00:00+00', 2, 'y', 8)");

    assertThat(rows("SELECT device, remark, CAST(total AS VARCHAR) FROM iot.r ORDER BY device"))
        .containsExactly(List.of("a", "x", "7"), List.of("b", "y", "8"));
    assertThatThrownBy(() -> run("SELECT note FROM iot.r")).hasMessageContaining("note");
    assertThatThrownBy(() -> run("INSERT INTO iot.r (device, time, total) VALUES ('c', now(), -1)"))
        .hasMessageContaining("total");
  }

  @Test
  void aDroppedColumnIsNoLongerReadAndComesBackEmptyWhenAddedAgain() {
    assertThat(message("ALTER TABLE iot.r DROP COLUMN note"))
        .isEqualTo("Altered table iot.r: dropped column note");
    assertThat(rows("DESCRIBE iot.r").stream().map(row -> row.get(0)))
        .doesNotContain("note")
        .contains("value");
    assertThat(rows("SELECT device, value FROM iot.r")).containsExactly(List.of("a", 1.0));
    run("ALTER TABLE iot.r ADD COLUMN note VARCHAR");
    assertThat(rows("SELECT note FROM iot.r"))
        .containsExactly(java.util.Arrays.asList((Object) null));
  }

  @Test
  void theContractsColumnsKeepTheirNames() {
    assertThatThrownBy(() -> run("ALTER TABLE iot.r RENAME COLUMN time TO ts"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot rename column 'time' of iot.r: it is the table's time column, which identifies"
                + " its rows and orders its files; create a new table and INSERT INTO it SELECT …"
                + " FROM iot.r");
    assertThatThrownBy(() -> run("ALTER TABLE iot.r DROP COLUMN device"))
        .hasMessageStartingWith(
            "Cannot drop column 'device' of iot.r: it is the table's series key");
    assertThatThrownBy(() -> run("ALTER TABLE iot.r DROP COLUMN nope"))
        .hasMessage(
            "Cannot drop column 'nope' of iot.r: it has no such column (columns: device, time,"
                + " value, note, n, _ingest_ts)");
    assertThatThrownBy(() -> run("ALTER TABLE iot.r RENAME COLUMN note TO value"))
        .hasMessage(
            "Cannot rename column 'note' of iot.r to 'value': it has a column of that name already");
    assertThat(rows("SELECT note FROM iot.r")).containsExactly(List.of("x"));
  }

  @Test
  void columnsARollupReadsStayWhileItExists() {
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, avg(value) AS mean FROM iot.r GROUP BY device, bucket");

    assertThatThrownBy(() -> run("ALTER TABLE iot.r RENAME COLUMN value TO v"))
        .hasMessage(
            "Cannot rename column 'value' of iot.r: the rollup iot.r_1h reads it; drop the rollup"
                + " first (DROP MATERIALIZED ROLLUP iot.r_1h)");
    assertThatThrownBy(() -> run("ALTER TABLE iot.r_1h DROP COLUMN mean"))
        .hasMessageStartingWith("Cannot drop column mean of iot.r_1h: it is a rollup of iot.r");
    assertThatThrownBy(() -> run("ALTER TABLE iot.r RENAME TO readings"))
        .hasMessageStartingWith("Cannot rename iot.r: the rollups iot.r_1h are computed from it");
    run("ALTER TABLE iot.r DROP COLUMN note");
    assertThat(rows("SELECT mean FROM iot.r_1h")).containsExactly(List.of(1.0));
  }

  @Test
  void aRenamedTableKeepsItsRowsAndItsFormerNameCanBeUsedAgain() throws Exception {
    assertThat(message("ALTER TABLE iot.r RENAME TO readings"))
        .isEqualTo("Renamed table iot.r to iot.readings");
    assertThat(lake.tables()).containsExactly(TableName.parse("iot.readings"));
    assertThat(rows("SELECT count(*) FROM iot.readings")).containsExactly(List.of(1L));

    // A new table under the old name gets a folder of its own: dropping it leaves the renamed
    // table's files alone.
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    run("INSERT INTO iot.r VALUES ('z', '2026-01-01 00:00:00+00', 9)");
    try (var folders = java.nio.file.Files.list(warehouse.resolve("iot"))) {
      assertThat(folders.map(f -> f.getFileName().toString()))
          .hasSize(2)
          .contains("r")
          .anyMatch(name -> name.matches("r-[0-9a-f]{8}"));
    }
    run("DROP TABLE iot.r");
    assertThat(rows("SELECT device, value FROM iot.readings")).containsExactly(List.of("a", 1.0));

    assertThatThrownBy(() -> run("ALTER TABLE iot.readings RENAME TO system"))
        .hasMessageContaining("reserved");
  }

  @Test
  void truncateRemovesEveryRowInOneCommitAndEmptiesTheRollups() {
    run("INSERT INTO iot.r VALUES ('b', '2026-01-01 00:00:00+00', 2, 'y', 8)");
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, count(*) AS rows FROM iot.r GROUP BY device, bucket");
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");

    assertThat(message("TRUNCATE iot.r")).isEqualTo("Truncated iot.r: removed 2 rows");

    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(0L));
    assertThat(rows("SELECT count(*) FROM iot.r_1h")).containsExactly(List.of(0L));
    String hourly =
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS b, count(*) FROM iot.r GROUP BY"
            + " ALL";
    assertThat(rows(hourly)).isEmpty();
    run("INSERT INTO iot.r VALUES ('c', '2026-01-02 00:00:00+00', 3, 'z', 9)");
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");
    assertThat(rows("SELECT device, rows FROM iot.r_1h")).containsExactly(List.of("c", 1L));
    assertThat(rows(hourly)).hasSize(1);

    assertThatThrownBy(() -> run("TRUNCATE iot.r_1h"))
        .hasMessageStartingWith("Cannot truncate iot.r_1h: it is a rollup of iot.r");
    run("BEGIN");
    assertThatThrownBy(() -> run("TRUNCATE iot.r"))
        .hasMessageStartingWith("Cannot run TRUNCATE iot.r inside a transaction");
    run("ROLLBACK");
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(1L));
  }
}
