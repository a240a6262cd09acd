package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.MaintenanceReport;
import dev.timelake.Table;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.DataFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction merges only runs of files next to each other in commit order and gives the merged file
 * the newest data sequence number it replaces. Every append here has the same insertion time, so
 * commit order alone decides which copy of a key wins: merging past a newer file, or giving the
 * merged file a new sequence number, would change answers.
 */
class CompactionTest {
  private static final String NAME = "iot.readings";
  private static final Instant DAY = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant INGEST = Instant.parse("2026-01-01T12:00:00Z");
  private static final long TARGET = 16 * 1024;

  @TempDir Path warehouse;
  private MaintenanceFixture fixture;
  private Table table;
  private final LatestWrites oracle = new LatestWrites();
  private int smallFiles;

  @BeforeEach
  void createTable() {
    fixture = new MaintenanceFixture(warehouse);
    table = fixture.create(readings(NAME).option("target-file-size", Long.toString(TARGET)));
  }

  @AfterEach
  void close() throws Exception {
    fixture.close();
  }

  @Test
  void mergesSixAdjacentSmallFiles() {
    for (int i = 0; i < 6; i++) {
      appendSmall();
    }

    MaintenancePlan plan = fixture.plan(NAME, MaintenanceMode.INLINE, INGEST);

    assertThat(plan.rewrites()).hasSize(1);
    assertThat(locations(plan.rewrites().get(0).files()))
        .containsExactlyElementsOf(locationsOf(fixture.dataFiles(NAME)));
  }

  @Test
  void neverMergesSmallFilesAcrossANewerBigFile() {
    for (int i = 0; i < 3; i++) {
      appendSmall();
    }
    appendBig(new Random(1));
    for (int i = 0; i < 3; i++) {
      appendSmall();
    }
    assertThat(fixture.dataFiles(NAME).get(3).fileSizeInBytes()).isGreaterThan(TARGET * 3 / 4);

    MaintenancePlan plan = fixture.plan(NAME, MaintenanceMode.INLINE, INGEST);

    assertThat(plan.rewrites()).isEmpty();
    assertThat(plan.explanation()).containsExactly(NAME + ": nothing to do");
  }

  @Test
  void mergesOnlyTheRunAfterABigFile() {
    appendSmall();
    appendSmall();
    appendBig(new Random(2));
    for (int i = 0; i < 4; i++) {
      appendSmall();
    }
    List<DataFile> before = fixture.dataFiles(NAME);
    List<String> answers = fixture.query("SELECT * FROM " + NAME + " ORDER BY ALL");

    MaintenancePlan plan = fixture.plan(NAME, MaintenanceMode.INLINE, INGEST);
    table.newMaintenance().inlineOnly().run();

    assertThat(plan.rewrites()).hasSize(1);
    assertThat(locations(plan.rewrites().get(0).files()))
        .containsExactlyElementsOf(locationsOf(before.subList(3, 7)));
    List<DataFile> after = fixture.dataFiles(NAME);
    assertThat(locationsOf(after.subList(0, 3))).isEqualTo(locationsOf(before.subList(0, 3)));
    assertThat(after).hasSize(4);
    assertThat(after.get(3).dataSequenceNumber()).isEqualTo(before.get(6).dataSequenceNumber());
    assertThat(fixture.query("SELECT * FROM " + NAME + " ORDER BY ALL")).isEqualTo(answers);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void neverEndsARunBesideAFileOfTheSameAppend() {
    for (int i = 0; i < 4; i++) {
      appendSmall();
    }
    Random random = new Random(5);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(new Row("b", DAY.plusSeconds(i), random.nextDouble()));
    }
    for (int i = 0; i < 3; i++) {
      rows.add(new Row("a", DAY.plus(Duration.ofMinutes(12 * 60 + 10 + i)), -1.0 - i));
    }
    rows.add(new Row("a", DAY.plus(Duration.ofHours(23)), 1.0));
    // One append writes a small file of fresh rows and a big one of late rows, with one sequence
    // number. Merging the small one with older files would tie the merged file with the big one.
    assertThat(append(table, INGEST, rows, oracle).withoutMaintenance().commit().files())
        .isEqualTo(2);
    List<DataFile> before = fixture.dataFiles(NAME);
    assertThat(before.get(4).dataSequenceNumber()).isEqualTo(before.get(5).dataSequenceNumber());
    assertThat(before.get(4).fileSizeInBytes()).isLessThan(TARGET * 3 / 4);

    MaintenancePlan plan = fixture.plan(NAME, MaintenanceMode.INLINE, INGEST);
    table.newMaintenance().inlineOnly().run();

    assertThat(plan.rewrites()).hasSize(1);
    assertThat(locations(plan.rewrites().get(0).files()))
        .containsExactlyElementsOf(locationsOf(before.subList(0, 4)));
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void mergedFileKeepsNewestSequenceNumberSoNewerFilesStillWin() {
    Instant k1 = DAY.plusSeconds(60);
    Instant k2 = DAY.plusSeconds(1800);
    appendBig(new Random(3), new Row("k", k1, -1.0));
    appendSmall();
    appendSmall(new Row("k", k1, -2.0));
    appendSmall(new Row("k", k2, -3.0));
    appendSmall();
    appendBig(new Random(4), new Row("k", k2, -4.0));
    List<DataFile> before = fixture.dataFiles(NAME);
    List<String> answers = fixture.query("SELECT * FROM " + NAME + " ORDER BY ALL");

    MaintenanceReport report = table.newMaintenance().inlineOnly().run();

    assertThat(report.partitionsRewritten()).isEqualTo(1);
    org.apache.iceberg.Table iceberg = fixture.iceberg(NAME);
    List<DataFile> after = fixture.dataFiles(NAME);
    DataFile merged =
        after.stream().filter(f -> f.location().contains("/compact-")).findFirst().orElseThrow();
    assertThat(merged.dataSequenceNumber()).isEqualTo(before.get(4).dataSequenceNumber());
    assertThat(iceberg.currentSnapshot().sequenceNumber())
        .isGreaterThan(before.get(5).dataSequenceNumber());
    assertThat(valueAt("k", k1)).as("the run's copy beats the older big file").isEqualTo(-2.0);
    assertThat(valueAt("k", k2)).as("the newer big file beats the run's copy").isEqualTo(-4.0);
    assertThat(fixture.query("SELECT * FROM " + NAME + " ORDER BY ALL")).isEqualTo(answers);

    append(table, INGEST, List.of(new Row("k", k1, -5.0)), oracle).withoutMaintenance().commit();

    assertThat(valueAt("k", k1)).as("a later append beats the merged file").isEqualTo(-5.0);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void fullMaintenanceGivesEachPartitionItsNewestSequenceNumber() {
    Instant nextDay = DAY.plus(Duration.ofDays(1));
    appendSmall();
    append(table, INGEST, List.of(new Row("a", nextDay, 1.0)), oracle)
        .withoutMaintenance()
        .commit();
    appendSmall();
    append(table, INGEST, List.of(new Row("a", nextDay, 2.0)), oracle)
        .withoutMaintenance()
        .commit();
    appendSmall();
    List<DataFile> before = fixture.dataFiles(NAME);

    table.newMaintenance().run();

    List<DataFile> first = fixture.dataFiles(NAME, "2026-01-01");
    List<DataFile> second = fixture.dataFiles(NAME, "2026-01-02");
    assertThat(first).hasSize(1);
    assertThat(second).hasSize(1);
    assertThat(first.get(0).dataSequenceNumber()).isEqualTo(before.get(4).dataSequenceNumber());
    assertThat(second.get(0).dataSequenceNumber()).isEqualTo(before.get(3).dataSequenceNumber());
    assertThat(valueAt("a", nextDay)).as("the later of two copies wins").isEqualTo(2.0);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  /** One file: three rows of device a, each newer than anything the partition holds. */
  private void appendSmall() {
    int n = smallFiles++;
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      rows.add(new Row("a", DAY.plus(Duration.ofMinutes(12 * 60 + 10 * n + i)), 100.0 * n + i));
    }
    appendOneFile(rows);
  }

  /** One small file of late rows, copies of keys written before. */
  private void appendSmall(Row late) {
    appendOneFile(List.of(late));
  }

  /**
   * One file over 3/4 of the target size: 3,000 random values of device b in the first hour of the
   * day, plus {@code extra}; all of them late once anything was written after that hour.
   */
  private void appendBig(Random random, Row... extra) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(new Row("b", DAY.plusSeconds(i), random.nextDouble()));
    }
    rows.addAll(List.of(extra));
    appendOneFile(rows);
  }

  private void appendOneFile(List<Row> rows) {
    assertThat(append(table, INGEST, rows, oracle).withoutMaintenance().commit().files())
        .isEqualTo(1);
  }

  /** The value the Timelake reader returns for one key, after checking it against the oracle. */
  private Double valueAt(String device, Instant time) {
    List<String> rows =
        fixture.query(
            "SELECT value FROM "
                + NAME
                + " WHERE device = '"
                + device
                + "' AND time = "
                + MaintenanceFixture.literal(time));
    assertThat(rows).containsExactly("[" + oracle.value(device, time) + "]");
    return oracle.value(device, time);
  }

  private static List<String> locations(List<dev.timelake.read.PlannedFile> files) {
    return files.stream().map(dev.timelake.read.PlannedFile::location).toList();
  }

  private static List<String> locationsOf(List<DataFile> files) {
    return files.stream().map(DataFile::location).toList();
  }
}
