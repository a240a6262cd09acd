package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ExternalIcebergAppend;
import dev.timelake.SameAnswers;
import dev.timelake.TestRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Random mixed histories against an oracle: appends (late rows, copies of stored keys, copies
 * within an append), appends by another Iceberg engine (whose stored insertion times are nonsense),
 * deletes by series, time range and value, updates, rollbacks to earlier snapshots, compactions,
 * and refreshes at random points. The oracle is a temporary table of this session holding one row
 * per key, corrected as a reader sees the lake (the newest write of a key wins by commit order, a
 * delete removes the key; a rollback restores the oracle of that snapshot). After every step the
 * raw read, the read routed to a rollup, the last-value index and plain DuckDB reading `timelake
 * duckdb`'s view equal the oracle's; after every refresh the rollups hold the oracle's cells.
 * Replay a failure with {@code -Dtests.seed=…}; {@code -Dtimelake.differential.steps=N} runs a
 * longer history (16 steps by default).
 */
class MixedHistoryDifferentialTest extends WithLakeSession {
  private static final List<String> DEVICES = List.of("a", "b", "c", "d");

  /** The oracle of each snapshot the table had, by snapshot id: what a rollback restores. */
  private final java.util.Map<Long, String> oracles = new java.util.LinkedHashMap<>();

  @Test
  void readsAfterRandomMixedHistoriesEqualTheOracle() throws Exception {
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
    int steps = Integer.getInteger("timelake.differential.steps", 16);
    for (int step = 0; step < steps; step++) {
      int kind = random.nextInt(100);
      String what;
      if (kind < 30) {
        what = append(random);
      } else if (kind < 42) {
        what = appendExternally(random);
      } else if (kind < 62) {
        what = delete(random);
      } else if (kind < 74) {
        what = update(random);
      } else if (kind < 84) {
        what = rollback(random);
      } else {
        lake.table("iot.r").newMaintenance().run();
        what = "maintain";
      }
      remember(step);
      if (random.nextInt(3) == 0) {
        run("REFRESH MATERIALIZED ROLLUP iot.r_6h");
        run("REFRESH MATERIALIZED ROLLUP iot.r_all_1d");
        what += "; refresh";
        assertSameAsOracle(what + " (step " + step + ", " + random + ")");
        assertRollupsHoldTheOracle(what + " (step " + step + ", " + random + ")");
      }
      assertSameAsOracle(what + " (step " + step + ", " + random + ")");
    }
  }

  /** Keeps a copy of the oracle for the table's current snapshot. */
  private void remember(int step) {
    java.util.OptionalLong snapshot = lake.table("iot.r").snapshotId();
    if (snapshot.isPresent() && !oracles.containsKey(snapshot.getAsLong())) {
      String copy = "oracle_" + step;
      run("CREATE TEMP TABLE " + copy + " AS SELECT * FROM oracle");
      oracles.put(snapshot.getAsLong(), copy);
    }
  }

  private String rollback(TestRandom random) {
    java.util.Set<Long> kept = new java.util.HashSet<>();
    lake.table("iot.r").info().snapshots().forEach(s -> kept.add(s.id()));
    List<Long> candidates =
        oracles.keySet().stream()
            .filter(kept::contains)
            .filter(id -> id != lake.table("iot.r").snapshotId().orElse(-1))
            .toList();
    if (candidates.isEmpty()) {
      return "no rollback (no earlier snapshot)";
    }
    long target = candidates.get(random.nextInt(candidates.size()));
    run("CALL timelake.rollback('iot.r', " + target + ")");
    run("DELETE FROM oracle");
    run("INSERT INTO oracle SELECT * FROM " + oracles.get(target));
    return "rollback to " + target;
  }

  private String update(TestRandom random) {
    String device = "'" + DEVICES.get(random.nextInt(DEVICES.size())) + "'";
    String condition =
        "device = "
            + device
            + " AND time < TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL "
            + random.nextInt(72)
            + " HOUR";
    run("UPDATE iot.r SET value = value + 1000 WHERE " + condition);
    run("UPDATE oracle SET value = value + 1000 WHERE " + condition);
    return "update where " + condition;
  }

  /**
   * Another engine's append: one row per key (a file of one writer holds no copies), its stored
   * insertion times far in the past or the future; its commit's time makes it the newest write.
   */
  private String appendExternally(TestRandom random) {
    java.util.Map<String, java.util.Map<String, Object>> byKey = new java.util.LinkedHashMap<>();
    java.time.OffsetDateTime start = java.time.OffsetDateTime.parse("2026-01-01T00:00:00Z");
    java.time.OffsetDateTime stored =
        java.time.OffsetDateTime.parse(
            random.nextBoolean() ? "2000-01-01T00:00:00Z" : "2100-01-01T00:00:00Z");
    int rows = 1 + random.nextInt(20);
    for (int i = 0; i < rows; i++) {
      String device = DEVICES.get(random.nextInt(DEVICES.size()));
      int hour = random.nextInt(72);
      java.util.Map<String, Object> row = new java.util.HashMap<>();
      row.put("device", device);
      row.put("time", start.plusHours(hour));
      row.put("value", random.nextInt(15) == 0 ? null : (double) random.nextInt(100));
      row.put("_ingest_ts", stored);
      byKey.put(device + "/" + hour, row);
    }
    ExternalIcebergAppend.append(warehouse, "iot", "r", List.copyOf(byKey.values()));
    for (java.util.Map<String, Object> row : byKey.values()) {
      String key =
          "device = '" + row.get("device") + "' AND time = TIMESTAMPTZ '" + row.get("time") + "'";
      run("DELETE FROM oracle WHERE " + key);
      run(
          "INSERT INTO oracle VALUES ('"
              + row.get("device")
              + "', TIMESTAMPTZ '"
              + row.get("time")
              + "', "
              + row.get("value")
              + ")");
    }
    return "external append of " + byKey.size() + " rows";
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

  private void assertSameAsOracle(String what) throws java.sql.SQLException {
    assertThat(rows("SELECT device, time, value FROM iot.r ORDER BY ALL"))
        .as(what)
        .isEqualTo(rows("SELECT device, time, value FROM oracle ORDER BY ALL"));
    assertThat(plainDuckDb())
        .as(what + ": plain DuckDB over timelake duckdb's view")
        .isEqualTo(rows("SELECT device, epoch_us(time), value FROM oracle ORDER BY ALL"));
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

  /** The table's rows as plain DuckDB reads them through the view `timelake duckdb` prints. */
  private List<List<Object>> plainDuckDb() throws java.sql.SQLException {
    List<List<Object>> rows = new java.util.ArrayList<>();
    try (java.sql.Connection duckdb = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement statement = duckdb.createStatement()) {
      statement.execute(lake.table("iot.r").duckdbView());
      try (java.sql.ResultSet result =
          statement.executeQuery("SELECT device, epoch_us(time), value FROM r ORDER BY ALL")) {
        while (result.next()) {
          rows.add(
              java.util.Arrays.asList(
                  result.getObject(1), result.getObject(2), result.getObject(3)));
        }
      }
    }
    return rows;
  }
}
