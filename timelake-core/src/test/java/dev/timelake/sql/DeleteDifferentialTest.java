package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.SameAnswers;
import dev.timelake.TestRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Random histories of appends (late rows, copies of stored keys, copies within an append), deletes
 * by series, time range and value, and compactions, against an oracle: a temporary table of this
 * session holding one row per key, corrected as a reader sees the lake (the newest write of a key
 * wins, a delete removes the key). After every step the raw read, the read routed to a rollup and
 * the last-value index equal the oracle's.
 */
class DeleteDifferentialTest extends WithLakeSession {
  private static final List<String> DEVICES = List.of("a", "b", "c", "d");

  @Test
  void readsAfterRandomDeletesEqualTheOracle() {
    TestRandom random = TestRandom.create();
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device', auto_maintain = false)");
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_6h AS SELECT device, time_bucket(INTERVAL '6 hours',"
            + " time) AS bucket, count(*) AS n, sum(value) AS total, max(value) AS top FROM iot.r"
            + " GROUP BY device, bucket");
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_all_1d AS SELECT time_bucket(INTERVAL '1 day', time) AS"
            + " bucket, count(*) AS n, min(value) AS low FROM iot.r GROUP BY bucket");
    run("CREATE TEMP TABLE oracle (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)");
    for (int step = 0; step < 24; step++) {
      int kind = random.nextInt(10);
      String what;
      if (kind < 5) {
        what = append(random);
      } else if (kind < 9) {
        what = delete(random);
      } else {
        lake.table("iot.r").newMaintenance().run();
        what = "maintain";
      }
      if (random.nextInt(3) == 0) {
        run("REFRESH MATERIALIZED ROLLUP iot.r_6h");
        run("REFRESH MATERIALIZED ROLLUP iot.r_all_1d");
        what += "; refresh";
        assertRollupsHoldTheOracle(what + " (step " + step + ", " + random + ")");
      }
      assertSameAsOracle(what + " (step " + step + ", " + random + ")");
    }
  }

  private String append(TestRandom random) {
    StringBuilder values = new StringBuilder();
    int rows = 1 + random.nextInt(30);
    for (int i = 0; i < rows; i++) {
      String device = DEVICES.get(random.nextInt(DEVICES.size()));
      // Three days of hours: late rows and copies of stored keys come by themselves.
      int hour = random.nextInt(72);
      values
          .append(i == 0 ? "" : ", ")
          .append("('")
          .append(device)
          .append("', TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL ")
          .append(hour)
          .append(" HOUR, ")
          .append(random.nextInt(15) == 0 ? "NULL" : Integer.toString(random.nextInt(100)))
          .append(")");
    }
    String rowsSql = "SELECT * FROM (VALUES " + values + ") v(device, time, value)";
    run("INSERT INTO iot.r " + rowsSql);
    // The oracle: the last row of a key within the append wins, then replaces the stored one.
    String latest =
        "SELECT device, time, last(value ORDER BY i) AS value FROM (SELECT *, row_number() OVER ()"
            + " AS i FROM ("
            + rowsSql
            + ")) GROUP BY device, time";
    run("DELETE FROM oracle WHERE (device, time) IN (SELECT device, time FROM (" + rowsSql + "))");
    run("INSERT INTO oracle " + latest);
    return "append of " + rows + " rows";
  }

  private String delete(TestRandom random) {
    String device = "'" + DEVICES.get(random.nextInt(DEVICES.size())) + "'";
    String from = "TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL " + random.nextInt(72) + " HOUR";
    String condition =
        switch (random.nextInt(5)) {
          case 0 -> "device = " + device;
          case 1 -> "time >= " + from + " AND time < " + from + " + INTERVAL 6 HOUR";
          case 2 -> "value > " + random.nextInt(100);
          case 3 -> "device = " + device + " AND value IS NULL";
          default -> "device = " + device + " AND time < " + from;
        };
    run("DELETE FROM iot.r WHERE " + condition);
    run("DELETE FROM oracle WHERE " + condition);
    return "delete where " + condition;
  }

  /**
   * Refreshed after deletes, a rollup holds exactly the cells the oracle's rows make: a bucket
   * whose rows all went is gone, the others hold their remaining rows' values.
   */
  private void assertRollupsHoldTheOracle(String what) {
    SameAnswers.assertSameRowsInAnyOrder(
        rows("SELECT device, bucket, n, total, top FROM iot.r_6h"),
        rows(
            "SELECT device, time_bucket(INTERVAL '6 hours', time), count(*), sum(value),"
                + " max(value) FROM oracle GROUP BY ALL"),
        what + ": iot.r_6h");
    SameAnswers.assertSameRowsInAnyOrder(
        rows("SELECT bucket, n, low FROM iot.r_all_1d"),
        rows(
            "SELECT time_bucket(INTERVAL '1 day', time), count(*), min(value) FROM oracle"
                + " GROUP BY ALL"),
        what + ": iot.r_all_1d");
  }

  private void assertSameAsOracle(String what) {
    assertThat(rows("SELECT device, time, value FROM iot.r ORDER BY ALL"))
        .as(what)
        .isEqualTo(rows("SELECT device, time, value FROM oracle ORDER BY ALL"));
    String sixHours =
        "SELECT device, time_bucket(INTERVAL '6 hours', time) AS b, count(*), sum(value),"
            + " max(value) FROM %s GROUP BY ALL ORDER BY ALL";
    SameAnswers.assertSameRowsInAnyOrder(
        rows(String.format(sixHours, "iot.r")), rows(String.format(sixHours, "oracle")), what);
    assertThat(
            rows(
                "SELECT device, time, value FROM iot.r LATEST ON time PARTITION BY device ORDER BY device"))
        .as(what)
        .isEqualTo(
            rows(
                "SELECT device, time, value FROM oracle QUALIFY row_number() OVER (PARTITION BY"
                    + " device ORDER BY time DESC) = 1 ORDER BY device"));
  }
}
