package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ClientAccess;
import dev.timelake.Role;
import dev.timelake.Session;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A table rolled back to an earlier snapshot reads as it did then, through every path (raw, routed,
 * latest rows), and can be rolled forward again while the later snapshot is kept.
 */
class RollbackTest extends WithLakeSession {
  private long firstAppend;

  @BeforeEach
  void createTableWithHistory() {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device', auto_maintain = false)");
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 1), ('b', '2026-01-01', 2)");
    firstAppend = currentSnapshot();
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1d AS SELECT device, time_bucket(INTERVAL '1 day',"
            + " time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY device,"
            + " bucket");
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 10), ('c', '2026-01-02', 3)");
    run("REFRESH MATERIALIZED ROLLUP iot.r_1d");
  }

  @Test
  void aRolledBackTableReadsAsItDidThenThroughEveryPath() {
    long later = currentSnapshot();
    String daily =
        "SELECT device, time_bucket(INTERVAL '1 day', time) AS d, count(*), sum(value) FROM iot.r"
            + " GROUP BY ALL ORDER BY ALL";
    String latest =
        "SELECT device, value FROM iot.r LATEST ON time PARTITION BY device ORDER BY device";
    assertThat(rows(latest)).hasSize(3);

    assertThat(message("CALL timelake.rollback('iot.r', " + firstAppend + ")"))
        .isEqualTo("Rolled back iot.r from snapshot " + later + " to snapshot " + firstAppend);

    assertThat(rows("SELECT device, value FROM iot.r ORDER BY device"))
        .containsExactly(List.of("a", 1.0), List.of("b", 2.0));
    assertThat(rows(daily)).hasSize(2);
    assertThat(rows(latest)).containsExactly(List.of("a", 1.0), List.of("b", 2.0));
    run("REFRESH MATERIALIZED ROLLUP iot.r_1d");
    assertThat(rows("SELECT device, n, total FROM iot.r_1d ORDER BY device"))
        .containsExactly(List.of("a", 1L, 1.0), List.of("b", 1L, 2.0));

    // Forward again, to the snapshot the rollback left.
    lake.table("iot.r").rollbackTo(later);
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(3L));
    List<List<Object>> routed = rows(daily);
    run("SET timelake.rollup_routing = false");
    assertThat(rows(daily)).isEqualTo(routed).hasSize(3);
  }

  @Test
  void aRollbackByTimeTakesTheNewestSnapshotAtOrBeforeIt() {
    java.time.Instant first = lake.table("iot.r").info().snapshots().get(0).committedAt();
    lake.table("iot.r").rollbackToTime(first.plusMillis(1));
    assertThat(currentSnapshot()).isEqualTo(firstAppend);
    assertThatThrownBy(() -> run("CALL timelake.rollback('iot.r', '2000-01-01 00:00:00+00')"))
        .hasMessageStartingWith(
            "Cannot roll back iot.r to before 2000-01-01T00:00:00Z: it keeps no"
                + " snapshot that old; kept snapshots: ");
  }

  @Test
  void aReferenceReadsAnEarlierSnapshotWithCopiesRemovedNextToTheCurrentOne() {
    assertThat(
            rows(
                "SELECT device, value FROM iot.r FOR SYSTEM_TIME AS OF "
                    + firstAppend
                    + " ORDER BY device"))
        .containsExactly(List.of("a", 1.0), List.of("b", 2.0));
    // The same table now and then in one statement: the correction of a and the new c.
    assertThat(
            rows(
                "SELECT cur.device, cur.value, old.value FROM iot.r AS cur LEFT JOIN iot.r AS old"
                    + " FOR SYSTEM_TIME AS OF "
                    + firstAppend
                    + " USING (device, time) ORDER BY cur.device"))
        .containsExactly(
            java.util.Arrays.asList("a", 10.0, 1.0),
            java.util.Arrays.asList("b", 2.0, 2.0),
            java.util.Arrays.asList("c", 3.0, null));
    java.time.Instant first = lake.table("iot.r").info().snapshots().get(0).committedAt();
    assertThat(rows("SELECT count(*) FROM iot.r AT (TIMESTAMP => '" + first.plusMillis(1) + "')"))
        .containsExactly(List.of(2L));
    assertThatThrownBy(() -> run("SELECT * FROM iot.r FOR SYSTEM_TIME AS OF 42"))
        .hasMessageStartingWith(
            "Cannot read iot.r as of snapshot 42: the table keeps no such snapshot; kept snapshots:");
    assertThatThrownBy(
            () ->
                run("SELECT * FROM iot.r FOR SYSTEM_TIME AS OF TIMESTAMP '1999-01-01 00:00:00+00'"))
        .hasMessageStartingWith(
            "Cannot read iot.r as of '1999-01-01 00:00:00+00': it keeps no snapshot");
    // The current read is routed as before; the earlier one never is.
    assertThat(rows("SELECT count(*) FROM iot.r")).containsExactly(List.of(3L));
  }

  @Test
  void whatCannotBeRolledBackIsRefusedAndChangesNothing() {
    long current = currentSnapshot();
    assertThatThrownBy(() -> run("CALL timelake.rollback('iot.r', 42)"))
        .isInstanceOf(dev.timelake.NotFoundException.class)
        .hasMessageStartingWith(
            "Cannot roll back iot.r to snapshot 42: the table keeps no such snapshot");
    assertThatThrownBy(() -> run("CALL timelake.rollback('iot.r_1d', " + firstAppend + ")"))
        .hasMessageStartingWith("Cannot roll back iot.r_1d: it is a rollup of iot.r");
    assertThatThrownBy(() -> run("CALL timelake.rollback('iot.r')"))
        .hasMessageStartingWith("Cannot read the rollback: write CALL timelake.rollback(");
    assertThatThrownBy(() -> run("CALL timelake.rollback('iot.r', 'soon')"))
        .hasMessage("Cannot roll back iot.r: 'soon' is not a time (e.g. '2026-12-03 07:00:00+00')");
    run("BEGIN");
    assertThatThrownBy(() -> run("CALL timelake.rollback('iot.r', " + firstAppend + ")"))
        .hasMessageStartingWith("Cannot run CALL timelake.rollback on iot.r inside a transaction");
    run("ROLLBACK");
    try (Session writer = lake.newSession(ClientAccess.of("telegraf", Role.WRITE))) {
      assertThatThrownBy(() -> writer.sql("CALL timelake.rollback('iot.r', " + firstAppend + ")"))
          .hasMessageContaining("(admin needed)");
    }
    assertThat(currentSnapshot()).isEqualTo(current);
  }

  private long currentSnapshot() {
    return lake.table("iot.r").snapshotId().orElseThrow();
  }
}
