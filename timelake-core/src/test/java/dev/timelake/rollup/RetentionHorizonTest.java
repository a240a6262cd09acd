package dev.timelake.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rollup bucket that begins before the raw table's oldest partition — a local day of
 * Europe/Berlin begins at 23:00 UTC of the day before — is refreshed like any other unless
 * retention dropped rows before it: retention records what it kept, and only buckets beginning
 * before that keep the values they held.
 */
class RetentionHorizonTest {
  private static final Instant T0 = Instant.parse("2026-03-02T00:00:00Z");

  @TempDir Path warehouse;
  private Lake lake;
  private Session session;

  @BeforeEach
  void open() {
    lake = Lake.open(warehouse);
    session = lake.newSession();
  }

  @AfterEach
  void close() {
    session.close();
    lake.close();
  }

  @Test
  void refreshesAFirstBucketThatBeginsBeforeTheOldestPartitionWhenNothingWasDropped() {
    Table raw = createWithRollup("h.r", null);
    raw.newAppend().row("t0", T0.plusSeconds(1_800), 100.0).commit();
    lake.refreshRollup(TableName.parse("h.r_day"));

    assertThat(rows("SELECT day, n, total FROM h.r_day ORDER BY day"))
        .startsWith("2026-03-01T23:00Z", "24", "1250.0");
    assertThat(lake.table("h.r").settings()).doesNotContainKey("retention-horizon");
  }

  @Test
  void keepsABucketThatBeginsBeforeWhatRetentionKept() {
    Table raw = createWithRollup("h.k", "2d");
    Instant now = T0.plus(java.time.Duration.ofDays(4)).plusSeconds(3_600);
    raw.newMaintenance().clock(Clock.fixed(now, ZoneOffset.UTC)).run();
    // The cutoff 03-04 01:00 keeps 03-04 whole and drops 03-02 and 03-03.
    assertThat(lake.table("h.k").settings()).containsEntry("retention-horizon", "1772582400000000");
    // A late row on the first kept day, in the Berlin day that began before it (03-03 23:00 UTC).
    raw.newAppend().row("t0", Instant.parse("2026-03-04T00:30:00Z"), 1000.0).commit();
    lake.refreshRollup(TableName.parse("h.k_day"));

    List<String> rows = rows("SELECT day, n, total FROM h.k_day ORDER BY day");
    // The bucket of 03-03 23:00 UTC keeps its 24 readings: recomputing it would lose the hour of
    // 03-03 that retention dropped.
    assertThat(rows.subList(6, 9)).containsExactly("2026-03-03T23:00Z", "24", "1200.0");
  }

  private Table createWithRollup(String name, String retention) {
    var definition = TestTables.tagReadings(name);
    if (retention != null) {
      definition.option("retention", retention);
    }
    Table raw = lake.createTable(definition.build());
    var append = raw.newAppend();
    for (int hour = 0; hour < 5 * 24; hour++) {
      append.row("t0", T0.plusSeconds(hour * 3_600L), 50.0);
    }
    append.commit();
    sql(
        "CREATE MATERIALIZED ROLLUP "
            + name
            + "_day AS SELECT tag, time_bucket(INTERVAL '1 day', time, 'Europe/Berlin') AS day,"
            + " count(*) AS n, sum(value) AS total FROM "
            + name
            + " GROUP BY ALL WITH (refresh_interval = 'off')");
    return raw;
  }

  private List<String> rows(String query) {
    try (QueryResult result = session.sql(query)) {
      return result.rows().stream().flatMap(List::stream).map(String::valueOf).toList();
    }
  }

  private void sql(String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }
}
