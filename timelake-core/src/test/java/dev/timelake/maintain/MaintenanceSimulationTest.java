package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.AppendResult;
import dev.timelake.Table;
import dev.timelake.TableInfo;
import dev.timelake.TestRandom;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Simulates a table fed one append per minute with inline maintenance (as a gateway would), from
 * 23:30 to 01:30 so the first day turns cold, with late rows (some into the cold day) and resent
 * readings. Files per partition stay bounded after every append, and answers equal the oracle
 * throughout. {@code -Dtimelake.minutes=N} sets the simulated length; {@code -Dtests.seed=<hex>}
 * replays a run.
 */
class MaintenanceSimulationTest {
  private static final String NAME = "iot.readings";
  private static final Instant START = Instant.parse("2026-01-01T23:30:00Z");
  private static final int DEVICES = 3;
  private static final int MAX_FILES_PER_PARTITION = 20;

  @TempDir Path warehouse;

  @Test
  void minuteAppendsKeepFilesBoundedAndAnswersUnchanged() throws Exception {
    long seed = TestRandom.seed();
    int minutes = Integer.getInteger("timelake.minutes", 120);
    Random random = new Random(seed);
    LatestWrites oracle = new LatestWrites();
    long[] appendNanos = new long[minutes];
    int maintenanceRuns = 0;
    long maintenanceNanos = 0;
    int mostFiles = 0;
    try (MaintenanceFixture fixture = new MaintenanceFixture(warehouse)) {
      Table table = fixture.create(readings(NAME));
      for (int minute = 0; minute < minutes; minute++) {
        Instant now = START.plus(Duration.ofMinutes(minute));
        List<Row> rows = rows(random, now);
        long started = System.nanoTime();
        AppendResult result = append(table, now, rows, oracle).commit();
        appendNanos[minute] = System.nanoTime() - started;

        assertThat(result.maintenanceError())
            .as("%s, minute %d", TestRandom.describe(seed), minute)
            .isEmpty();
        if (result.maintenance().isPresent()) {
          maintenanceRuns++;
          maintenanceNanos += result.maintenance().get().took().toNanos();
        }
        for (TableInfo.PartitionInfo partition : table.refresh().info().partitions()) {
          mostFiles = Math.max(mostFiles, partition.files());
          assertThat(partition.files())
              .as(
                  "%s, minute %d, partition %s",
                  TestRandom.describe(seed), minute, partition.label())
              .isLessThanOrEqualTo(MAX_FILES_PER_PARTITION);
        }
        if (minute % 60 == 59 || minute == minutes - 1) {
          assertThat(fixture.query(ROWS.formatted(NAME)))
              .as("%s, minute %d", TestRandom.describe(seed), minute)
              .isEqualTo(oracle.rows());
        }
      }
      TableInfo info = table.refresh().info();
      long[] sorted = appendNanos.clone();
      Arrays.sort(sorted);
      System.out.printf(
          "MaintenanceSimulationTest %s: %d appends, ms per append with inline maintenance:"
              + " mean %.1f, median %.1f, p90 %.1f; %d maintenance runs of %.1f ms on average;"
              + " at most %d files in a partition; %d files and %d snapshots at the end%n",
          TestRandom.describe(seed),
          minutes,
          Arrays.stream(appendNanos).average().orElse(0) / 1e6,
          sorted[minutes / 2] / 1e6,
          sorted[minutes * 9 / 10] / 1e6,
          maintenanceRuns,
          maintenanceNanos / 1e6 / Math.max(1, maintenanceRuns),
          mostFiles,
          info.files(),
          info.snapshots().size());
    }
  }

  /**
   * One reading per device at {@code now}; sometimes a late reading up to three hours old (into the
   * previous day after midnight) or a resent reading with a corrected value.
   */
  private static List<Row> rows(Random random, Instant now) {
    List<Row> rows = new ArrayList<>();
    for (int device = 0; device < DEVICES; device++) {
      rows.add(new Row("d" + device, now, (double) random.nextInt(1000)));
    }
    if (random.nextInt(10) == 0) {
      Instant late = now.minus(Duration.ofMinutes(1 + random.nextInt(180)));
      rows.add(new Row("late" + random.nextInt(2), late, (double) random.nextInt(1000)));
    }
    if (random.nextInt(10) == 0) {
      Instant resent = now.minus(Duration.ofMinutes(1 + random.nextInt(30)));
      rows.add(new Row("d" + random.nextInt(DEVICES), resent, -1.0 - random.nextInt(1000)));
    }
    return rows;
  }
}
