package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TableInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Corrections: an upsert (Java's newUpsert, SQL's INSERT OR REPLACE, or every write of a table
 * whose write-policy is upsert) replaces the stored row of its key, as the newest write, and is
 * recorded as an upsert.
 */
class WritePolicyTest extends WithLakeSession {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void anUpsertReplacesTheStoredRowOfItsKeyAndIsRecordedAsOne() {
    createTable("");
    lake.table("iot.r").newAppend().row("a", T0, 1.0).commit();
    lake.table("iot.r").newUpsert().row("a", T0, 2.0).commit();
    assertThat(lastOperation()).isEqualTo("upsert");
    run("INSERT OR REPLACE INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 3)");
    assertThat(lastOperation()).isEqualTo("upsert");
    run("INSERT INTO iot.r VALUES ('b', '2026-01-01 00:00:00+00', 4)");
    assertThat(lastOperation()).isEqualTo("insert");

    assertThat(rows("SELECT device, value FROM iot.r ORDER BY device"))
        .containsExactly(List.of("a", 3.0), List.of("b", 4.0));
  }

  @Test
  void everyWriteOfAnUpsertTableIsAnUpsert() {
    createTable(", write_policy = 'upsert'");
    assertThat(message("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 1)"))
        .isEqualTo("Inserted 1 row into iot.r as upserts (the table's write-policy)");
    assertThat(lastOperation()).isEqualTo("upsert");
    lake.table("iot.r").newAppend().row("a", T0, 2.0).commit();
    assertThat(lastOperation()).isEqualTo("upsert");
    assertThat(rows("SELECT value FROM iot.r")).containsExactly(List.of(2.0));

    lake.table("iot.r").alter(Map.of("write-policy", "append"));
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 5)");
    assertThat(lastOperation()).isEqualTo("insert");
    assertThatThrownBy(() -> lake.table("iot.r").alter(Map.of("write-policy", "merge")))
        .hasMessageContaining("write-policy");
  }

  private void createTable(String options) {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device', auto_maintain = false"
            + options
            + ")");
  }

  private String lastOperation() {
    List<TableInfo.SnapshotInfo> snapshots = lake.table("iot.r").info().snapshots();
    return snapshots.get(snapshots.size() - 1).summary().get("timelake.operation");
  }
}
