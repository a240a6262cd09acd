package dev.timelake.maintain;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.CompactionResult;
import dev.timelake.CompactionTask;
import dev.timelake.ConflictException;
import dev.timelake.DistributedMaintenance;
import dev.timelake.Lake;
import dev.timelake.MaintenanceReport;
import dev.timelake.Table;
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
 * Maintenance whose compactions run in another lake instance (as a Spark executor's would): the
 * table reads the same afterwards, with the files a local run would leave; results are checked.
 */
class DistributedMaintenanceTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  private static void load(Table table) {
    for (int day = 0; day < 3; day++) {
      for (int a = 0; a < 4; a++) {
        var append = table.newAppend().clock(Clock.fixed(T0.plusSeconds(a), ZoneOffset.UTC));
        for (int i = 0; i < 50; i++) {
          append.row("d" + (i % 5), T0.plusSeconds(day * 86_400L + i * 60L), (double) a * 100 + i);
        }
        append.commit();
      }
    }
  }

  private static List<CompactionResult> runAll(List<CompactionTask> tasks, Lake executor) {
    List<CompactionResult> results = new ArrayList<>();
    tasks.forEach(task -> results.add(task.run(executor)));
    return results;
  }

  @Test
  void compactionsRunElsewhereCommitAsOneMaintenance() {
    try (Lake driver = Lake.open(warehouse);
        Lake executor = Lake.open(warehouse)) {
      Table table = driver.createTable(TestTables.readings("iot.r").build());
      load(table);
      List<List<Object>> before =
          query(driver, "SELECT device, time, value FROM iot.r ORDER BY 1, 2");

      DistributedMaintenance maintenance = table.newMaintenance().distribute();
      assertThat(maintenance.tasks()).hasSize(3); // one per day
      List<CompactionResult> results = runAll(maintenance.tasks(), executor);
      // An append while the tasks ran still commits, and stays.
      table.newAppend().row("late", T0, 1.0).commit();
      MaintenanceReport report = maintenance.commit(results);

      assertThat(report.partitionsRewritten()).isEqualTo(3);
      assertThat(table.refresh().info().partitions()).allMatch(p -> p.files() <= 2);
      List<List<Object>> after =
          query(
              driver, "SELECT device, time, value FROM iot.r WHERE device <> 'late' ORDER BY 1, 2");
      assertThat(after).isEqualTo(before);
      assertThat(query(executor, "SELECT count(*) FROM iot.r")).containsExactly(List.of(151L));
    }
  }

  @Test
  void missingRepeatedOrUnknownResultsAreRefusedAndChangeNothing() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.createTable(TestTables.readings("iot.m").build());
      load(table);
      int files = table.info().files();
      DistributedMaintenance maintenance = table.newMaintenance().distribute();
      List<CompactionResult> results = runAll(maintenance.tasks(), lake);

      assertThatThrownBy(() -> maintenance.commit(results.subList(0, 2)))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot commit maintenance of iot.m: task 2 of 3 has no result; run it, or"
                  + " plan the maintenance again");
      List<CompactionResult> repeated = new ArrayList<>(results);
      repeated.add(results.get(0));
      assertThatThrownBy(() -> maintenance.commit(repeated))
          .isInstanceOf(ValidationException.class)
          .hasMessage("Cannot commit maintenance of iot.m: task 0 reported twice");
      List<CompactionResult> unknown = new ArrayList<>(results);
      CompactionResult first = results.get(0);
      unknown.add(new CompactionResult(first.table(), first.snapshotId(), 7, List.of()));
      assertThatThrownBy(() -> maintenance.commit(unknown))
          .isInstanceOf(ValidationException.class)
          .hasMessage("Cannot commit maintenance of iot.m: result 7 names no task (there are 3)");
      List<CompactionResult> foreign = new ArrayList<>(results);
      foreign.set(0, new CompactionResult(first.table(), 42, 0, first.files()));
      assertThatThrownBy(() -> maintenance.commit(foreign))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot commit maintenance of iot.m: result 0 comes from another maintenance (of"
                  + " iot.m, planned on snapshot 42, not "
                  + first.snapshotId()
                  + ")");
      List<CompactionResult> outside = new ArrayList<>(results);
      outside.set(0, new CompactionResult(first.table(), first.snapshotId(), 0, List.of("/etc/x")));
      assertThatThrownBy(() -> maintenance.commit(outside))
          .isInstanceOf(ValidationException.class)
          .hasMessageStartingWith(
              "Cannot commit maintenance of iot.m: result 0 names /etc/x, which")
          .hasMessageContaining("is not in the table's folder");
      assertThat(table.refresh().info().files()).isEqualTo(files);

      maintenance.commit(results);
      assertThatThrownBy(() -> maintenance.commit(results))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Cannot commit maintenance of iot.m again: it committed once (plan a new one with"
                  + " distribute())");
      assertThat(query(lake, "SELECT count(*) FROM iot.m")).containsExactly(List.of(150L));
    }
  }

  @Test
  void aTaskWhoseFilesAnotherMaintenanceReplacedFailsNamingTheFile() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.createTable(TestTables.readings("iot.c").build());
      load(table);
      DistributedMaintenance maintenance = table.newMaintenance().distribute();
      table.newMaintenance().run(); // compacts the same files first

      CompactionTask task = maintenance.tasks().get(0);
      List<CompactionResult> results = runAll(maintenance.tasks(), lake);
      assertThatThrownBy(() -> maintenance.commit(results))
          .isInstanceOf(ConflictException.class)
          .hasMessageContaining("Cannot commit maintenance of iot.c")
          .hasMessageContaining("the table is unchanged, run maintain again");
      assertThat(task.files()).isNotEmpty();
      assertThat(query(lake, "SELECT count(*) FROM iot.c")).containsExactly(List.of(150L));
    }
  }
}
