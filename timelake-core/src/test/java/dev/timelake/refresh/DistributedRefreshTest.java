package dev.timelake.refresh;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.DistributedRefresh;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.RefreshReport;
import dev.timelake.RefreshResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollup refreshes whose windows another lake instance computes (as a Spark executor would): the
 * rollups hold what the raw data gives, computed from the other rollups where the plan routes
 * there, with the same record; results are checked.
 */
class DistributedRefreshTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String MINUTE =
      "CREATE MATERIALIZED ROLLUP iot.r_1m AS SELECT tag, time_bucket(INTERVAL '1 minute', time)"
          + " AS bucket, count(*) AS n, sum(value) AS total, avg(value) AS mean FROM iot.r GROUP BY"
          + " tag, bucket WITH (refresh_interval = 'off')";
  private static final String HOUR =
      "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time)"
          + " AS bucket, count(*) AS n, sum(value) AS total, avg(value) AS mean FROM iot.r GROUP BY"
          + " tag, bucket WITH (refresh_interval = 'off')";

  @TempDir Path warehouse;

  private static void append(Table table, TestRandom random, int rows, int hour) {
    var append = table.newAppend().clock(Clock.fixed(T0.plusSeconds(hour * 3600L), ZoneOffset.UTC));
    for (int i = 0; i < rows; i++) {
      // Late rows up to a day back, copies of earlier readings, NULL values.
      Instant time =
          T0.plusSeconds(Math.max(0, hour - random.nextInt(24)) * 3600L + random.nextInt(3600));
      Double value = random.nextInt(20) == 0 ? null : (double) random.nextInt(1000);
      append.row("t" + random.nextInt(4), time, value);
    }
    append.commit();
  }

  private static void sql(Lake lake, String statement) {
    try (Session session = lake.newSession();
        QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }

  private static List<List<Object>> rollup(Lake lake, String name) {
    return query(
        lake,
        "SELECT tag, bucket, n, total, round(mean, 6) FROM " + name + " ORDER BY tag, bucket");
  }

  private static List<List<Object>> fromRaw(Lake lake, String width) {
    try (Session session = lake.newSession().set("rollup-routing", "false");
        QueryResult result =
            session.sql(
                "SELECT tag, time_bucket(INTERVAL '"
                    + width
                    + "', time) AS bucket, count(*), sum(value), round(avg(value), 6) FROM iot.r"
                    + " GROUP BY ALL ORDER BY tag, bucket")) {
      return result.rows();
    }
  }

  private static List<RefreshResult> runAll(DistributedRefresh refresh, Lake executor) {
    List<RefreshResult> results = new ArrayList<>();
    refresh.tasks().forEach(task -> results.add(task.run(executor)));
    return results;
  }

  @Test
  void windowsComputedElsewhereGiveTheRollupTheRawDataGives() {
    TestRandom random = TestRandom.create();
    try (Lake driver = Lake.open(warehouse);
        Lake executor = Lake.open(warehouse)) {
      Table raw = driver.createTable(TestTables.tagReadings("iot.r").build());
      for (int hour = 0; hour < 6; hour++) {
        append(raw, random, 200, hour);
      }
      sql(driver, MINUTE);
      sql(driver, HOUR);
      for (int hour = 6; hour < 30; hour++) {
        append(raw, random, 100, hour);
      }

      for (String name : List.of("iot.r_1m", "iot.r_1h")) {
        DistributedRefresh refresh = driver.distributeRefresh(TableName.parse(name));
        assertThat(refresh.tasks()).as("%s", random).isNotEmpty();
        RefreshReport report = refresh.commit(runAll(refresh, executor));
        assertThat(report.windows()).isEqualTo(refresh.tasks().size());
      }

      assertThat(rollup(driver, "iot.r_1m"))
          .as("%s", random)
          .isEqualTo(fromRaw(driver, "1 minute"));
      assertThat(rollup(driver, "iot.r_1h")).as("%s", random).isEqualTo(fromRaw(driver, "1 hour"));
      // Up to date now: nothing to compute, and a local refresh agrees.
      DistributedRefresh again = driver.distributeRefresh(TableName.parse("iot.r_1h"));
      assertThat(again.tasks()).isEmpty();
      again.commit(List.of());
      assertThat(driver.refreshRollup(TableName.parse("iot.r_1h")).rowsWritten()).isZero();
      assertThat(
              java.nio.file.Files.exists(
                  warehouse.resolve("iot").resolve("r_1m").resolve("staging")))
          .isFalse();
    }
  }

  @Test
  void missingRepeatedOrUnknownResultsAreRefused() {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse)) {
      Table raw = lake.createTable(TestTables.tagReadings("iot.r").build());
      append(raw, random, 100, 0);
      sql(lake, MINUTE);
      append(raw, random, 100, 30);
      DistributedRefresh refresh = lake.distributeRefresh(TableName.parse("iot.r_1m"));
      List<RefreshResult> results = runAll(refresh, lake);
      int windows = results.size();

      assertThatThrownBy(() -> refresh.commit(results.subList(0, windows - 1)))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot commit the refresh of iot.r_1m: window "
                  + (windows - 1)
                  + " of "
                  + windows
                  + " has no result; run it, or plan the refresh again");
      List<RefreshResult> repeated = new ArrayList<>(results);
      repeated.add(results.get(0));
      assertThatThrownBy(() -> refresh.commit(repeated))
          .isInstanceOf(ValidationException.class)
          .hasMessage("Cannot commit the refresh of iot.r_1m: window 0 reported twice");
      assertThatThrownBy(() -> refresh.commit(List.of(new RefreshResult(0, "/etc/passwd"))))
          .isInstanceOf(ValidationException.class)
          .hasMessageStartingWith(
              "Cannot commit the refresh of iot.r_1m: window 0 names /etc/passwd, not its task's"
                  + " file ");
      assertThatThrownBy(() -> refresh.commit(List.of(new RefreshResult(99, "x"))))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot commit the refresh of iot.r_1m: result 99 names no window (there are "
                  + windows
                  + ")");
      refresh.commit(results);
      assertThatThrownBy(() -> refresh.commit(results))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot commit the refresh of iot.r_1m again: it committed once (plan a new one)");
    }
  }
}
