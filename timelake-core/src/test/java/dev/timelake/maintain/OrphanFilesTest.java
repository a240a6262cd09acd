package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.MaintenanceReport;
import dev.timelake.Table;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full maintenance deletes files in the table's folders that nothing references once they are
 * older than {@code orphan-file-age}; younger strays and every referenced file stay, however old.
 */
class OrphanFilesTest {
  private static final String NAME = "iot.readings";
  private static final Instant DAY = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void deletesOldStrayFilesAndKeepsYoungAndReferencedOnes() throws Exception {
    try (MaintenanceFixture fixture = new MaintenanceFixture(warehouse)) {
      Table table = fixture.create(readings(NAME).option("orphan-file-age", "1h"));
      LatestWrites oracle = new LatestWrites();
      for (int day = 0; day < 3; day++) {
        Instant time = DAY.plus(Duration.ofDays(day));
        append(table, time, List.of(new Row("a", time, (double) day)), oracle)
            .withoutMaintenance()
            .commit();
      }
      Set<String> referenced = fixture.filesOnDisk(NAME);
      Path partition = Path.of(fixture.dataFiles(NAME).get(0).location()).getParent();
      Path oldStray = partition.resolve("data-00000000-0000-0000-0000-000000000000.parquet");
      Path youngStray = partition.getParent().resolve("stray.parquet");
      Files.copy(Path.of(fixture.dataFiles(NAME).get(0).location()), oldStray);
      Files.writeString(youngStray, "not parquet");
      FileTime twoHoursAgo = FileTime.from(Instant.now().minus(Duration.ofHours(2)));
      for (String file : referenced) {
        Files.setLastModifiedTime(Path.of(file), twoHoursAgo);
      }
      Files.setLastModifiedTime(oldStray, twoHoursAgo);
      List<String> answers = fixture.query(ROWS.formatted(NAME));

      MaintenanceReport report = table.newMaintenance().run();

      assertThat(report.orphanFilesDeleted()).isEqualTo(1);
      assertThat(oldStray).doesNotExist();
      assertThat(youngStray).exists();
      Set<String> expected = new TreeSet<>(referenced);
      expected.add(youngStray.toString());
      assertThat(fixture.filesOnDisk(NAME)).containsAll(expected);
      assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(answers).isEqualTo(oracle.rows());
    }
  }

  @Test
  void inlineMaintenanceNeverDeletesStrayFiles() throws Exception {
    try (MaintenanceFixture fixture = new MaintenanceFixture(warehouse)) {
      Table table = fixture.create(readings(NAME).option("orphan-file-age", "1s"));
      LatestWrites oracle = new LatestWrites();
      append(table, DAY, List.of(new Row("a", DAY, 1.0)), oracle).withoutMaintenance().commit();
      Path stray =
          Path.of(fixture.dataFiles(NAME).get(0).location()).getParent().resolve("stray.parquet");
      Files.writeString(stray, "not parquet");
      Files.setLastModifiedTime(stray, FileTime.from(Instant.now().minus(Duration.ofDays(2))));

      table.newMaintenance().inlineOnly().run();
      append(table, DAY, List.of(new Row("a", DAY.plusSeconds(1), 2.0)), oracle).commit();

      assertThat(stray).exists();
    }
  }
}
