package dev.timelake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rollups from Java: create, list, refresh (and its plan), drop, and what each rejects. */
class RollupApiTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String HOURLY =
      "SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, avg(value), count(*)"
          + " FROM iot.r GROUP BY device, bucket";

  @TempDir Path warehouse;

  @Test
  void createsListsRefreshesAndDropsRollups() {
    try (Lake lake = Lake.open(warehouse)) {
      Table raw = lake.createTable(TestTables.readings("iot.r").build());
      raw.newAppend().row("a", T0, 1.0).row("a", T0.plusSeconds(60), 3.0).commit();
      RefreshReport created =
          lake.newRollup("iot.r_1h")
              .as(HOURLY)
              .option("refresh_interval", "off")
              .create()
              .orElseThrow();
      assertThat(created.rowsWritten()).isEqualTo(1);
      assertThat(lake.newRollup("iot.r_1h").as(HOURLY).ifNotExists().create()).isEmpty();
      RollupInfo info = lake.rollup(TableName.parse("iot.r_1h"));
      assertThat(info.source()).isEqualTo(TableName.parse("iot.r"));
      assertThat(info.keys()).containsExactly("device");
      assertThat(info.bucket()).isEqualTo("1h");
      assertThat(info.aggregates())
          .containsEntry("avg_value", "avg(value)")
          .containsEntry("count", "count(*)")
          .containsEntry("count_value", "count(value)");
      assertThat(info.reflectsSnapshot()).isEqualTo(raw.refresh().info().snapshots().get(0).id());
      assertThat(lake.rollups(TableName.parse("iot.r"))).containsExactly(info);

      raw.newAppend().row("b", T0.plusSeconds(7200), 5.0).commit();
      List<String> plan = lake.refreshPlan(TableName.parse("iot.r_1h"));
      assertThat(plan).anyMatch(line -> line.contains("window 1 of 1"));
      RefreshReport refreshed = lake.refreshRollup(TableName.parse("iot.r_1h"));
      assertThat(refreshed.rowsWritten()).isEqualTo(1);
      assertThat(refreshed.rebuilt()).isFalse();
      assertThat(lake.refreshPlan(TableName.parse("iot.r_1h")))
          .containsExactly(
              "iot.r_1h: up to date with raw snapshot " + refreshed.reflectsSnapshot());

      assertThat(lake.dropRollup(TableName.parse("iot.r_1h"))).isTrue();
      assertThat(lake.dropRollup(TableName.parse("iot.r_1h"))).isFalse();
      assertThat(lake.rollups(TableName.parse("iot.r"))).isEmpty();
    }
  }

  @Test
  void rejectsIncompleteOrInvalidDefinitionsAndChangesNothing() {
    try (Lake lake = Lake.open(warehouse)) {
      lake.createTable(TestTables.readings("iot.r").build());
      assertThatThrownBy(() -> lake.newRollup("iot.r_1h").create())
          .isInstanceOf(ValidationException.class)
          .hasMessage("Cannot create rollup iot.r_1h: give its query with as(\"SELECT …\")");
      assertThatThrownBy(
              () ->
                  lake.newRollup("iot.r_1h")
                      .as(HOURLY.replace("avg(value)", "median(value)"))
                      .create())
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot create rollup iot.r_1h: aggregate median(value) is not supported (allowed:"
                  + " count(*), count(x), sum, min, max, avg, first_value and last_value ordered"
                  + " by time, m4(time, x), time_weighted_state, time_weighted_mean and integral(time, x), gap_state, gap_count and gap_seconds(time, threshold), percentile_sketch(x) and approx_percentile(x, q))");
      assertThat(lake.findTable(TableName.parse("iot.r_1h"))).isEmpty();
      assertThatThrownBy(() -> lake.rollup(TableName.parse("iot.r_1h")))
          .isInstanceOf(NotFoundException.class)
          .hasMessage("Rollup iot.r_1h does not exist");
      assertThatThrownBy(() -> lake.refreshRollup(TableName.parse("iot.r")))
          .isInstanceOf(ValidationException.class)
          .hasMessage("iot.r is a table, not a rollup");
    }
  }
}
