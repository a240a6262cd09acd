package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readParquet;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.MaintenanceReport;
import dev.timelake.Table;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot expiry keeps what live snapshots need: files of the current snapshot are never deleted,
 * time travel to every kept snapshot works, and {@code max-snapshots}, {@code min-snapshots} and
 * {@code keep-snapshots-until} are respected. Snapshot times are wall-clock times, so the tests run
 * maintenance at the real time or later.
 */
class SnapshotExpiryTest {
  private static final String NAME = "iot.readings";
  private static final Instant DAY = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;
  private MaintenanceFixture fixture;
  private final LatestWrites oracle = new LatestWrites();

  /** The rows each snapshot holds, as the oracle printed them after its append. */
  private final Map<Long, List<String>> rowsBySnapshot = new LinkedHashMap<>();

  @BeforeEach
  void openLake() {
    fixture = new MaintenanceFixture(warehouse);
  }

  @AfterEach
  void close() throws Exception {
    fixture.close();
  }

  @Test
  void expiresBeyondMaxSnapshotsAndKeepsTimeTravelToTheRest() {
    Table table = fixture.create(readings(NAME).option("max-snapshots", "3"));
    appendOnePerDay(table, 8);
    List<Long> newestThree = newest(3);

    MaintenanceReport report = table.newMaintenance().run();

    assertThat(report.snapshotsExpired()).isEqualTo(5);
    assertThat(snapshotIds()).containsExactlyInAnyOrderElementsOf(newestThree);
    for (long id : newestThree) {
      assertThat(rowsAt(id)).as("snapshot %d", id).isEqualTo(rowsBySnapshot.get(id));
    }
  }

  @Test
  void keepsMinSnapshotsWhateverTheirAge() {
    Table table =
        fixture.create(
            readings(NAME).option("snapshot-retention", "1h").option("min-snapshots", "5"));
    appendOnePerDay(table, 8);
    List<Long> newestFive = newest(5);

    table.newMaintenance().clock(Clock.offset(Clock.systemUTC(), Duration.ofDays(1))).run();

    assertThat(snapshotIds()).containsExactlyInAnyOrderElementsOf(newestFive);
    for (long id : newestFive) {
      assertThat(rowsAt(id)).as("snapshot %d", id).isEqualTo(rowsBySnapshot.get(id));
    }
  }

  @Test
  void keepSnapshotsUntilHoldsExpiry() {
    Instant until = Instant.now().plus(Duration.ofDays(1));
    Table table =
        fixture.create(
            readings(NAME)
                .option("snapshot-retention", "30d")
                .option("max-snapshots", "2")
                .option("keep-snapshots-until", until.toString()));
    appendOnePerDay(table, 5);
    Set<Long> all = snapshotIds();

    MaintenanceReport held = table.newMaintenance().run();

    assertThat(held.snapshotsExpired()).isZero();
    assertThat(held.explanation())
        .contains("expiry: held until " + until + " (keep-snapshots-until)");
    assertThat(snapshotIds()).isEqualTo(all);

    MaintenanceReport after =
        table.newMaintenance().clock(Clock.fixed(until.plusSeconds(1), ZoneOffset.UTC)).run();

    assertThat(after.snapshotsExpired()).isEqualTo(3);
    assertThat(snapshotIds()).hasSize(2);
  }

  @Test
  void neverDeletesFilesOfTheCurrentSnapshot() throws Exception {
    Table table = fixture.create(readings(NAME).option("max-snapshots", "1"));
    for (int i = 0; i < 6; i++) {
      append(table, DAY, List.of(new Row("a", DAY.plusSeconds(60L * (i % 4)), (double) i)), oracle)
          .withoutMaintenance()
          .commit();
    }
    List<DataFile> replaced = fixture.dataFiles(NAME);

    MaintenanceReport report = table.newMaintenance().run();

    assertThat(report.partitionsRewritten()).isEqualTo(1);
    assertThat(snapshotIds()).containsExactly(currentSnapshotId());
    assertCurrentFilesAnswer();

    // Iceberg deletes the files a snapshot removed once that snapshot expires.
    Instant nextDay = DAY.plus(Duration.ofDays(1));
    append(table, DAY, List.of(new Row("a", nextDay, 9.0)), oracle).withoutMaintenance().commit();
    table.newMaintenance().run();

    assertThat(snapshotIds()).containsExactly(currentSnapshotId());
    assertCurrentFilesAnswer();
    for (DataFile file : replaced) {
      assertThat(Files.exists(Path.of(file.location()))).as(file.location()).isFalse();
    }
  }

  private void assertCurrentFilesAnswer() {
    List<DataFile> current = fixture.dataFiles(NAME);
    current.forEach(file -> assertThat(Path.of(file.location())).exists());
    assertThat(fixture.plain(ROWS.formatted(readParquet(current)))).isEqualTo(oracle.rows());
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  private long currentSnapshotId() {
    return fixture.iceberg(NAME).currentSnapshot().snapshotId();
  }

  /** Appends one row per day (so maintenance has nothing to compact), recording each snapshot. */
  private void appendOnePerDay(Table table, int appends) {
    for (int i = 0; i < appends; i++) {
      Instant time = DAY.plus(Duration.ofDays(i));
      long id =
          append(table, time, List.of(new Row("a", time, (double) i)), oracle)
              .withoutMaintenance()
              .commit()
              .snapshotId()
              .orElseThrow();
      rowsBySnapshot.put(id, oracle.rows());
    }
  }

  /** The newest snapshots by commit time; fails if two share a commit time (ambiguous order). */
  private List<Long> newest(int count) {
    List<Snapshot> snapshots = new ArrayList<>();
    fixture.iceberg(NAME).snapshots().forEach(snapshots::add);
    snapshots.sort(Comparator.comparingLong(Snapshot::timestampMillis).reversed());
    assertThat(snapshots.stream().map(Snapshot::timestampMillis).distinct())
        .hasSameSizeAs(snapshots);
    return snapshots.subList(0, count).stream().map(Snapshot::snapshotId).toList();
  }

  private Set<Long> snapshotIds() {
    Set<Long> ids = new TreeSet<>();
    fixture.iceberg(NAME).snapshots().forEach(s -> ids.add(s.snapshotId()));
    return ids;
  }

  /** Time travel through Iceberg: plain DuckDB over the files of snapshot {@code id}. */
  private List<String> rowsAt(long id) {
    List<DataFile> files = MaintenanceFixture.dataFiles(fixture.iceberg(NAME), id);
    files.forEach(file -> assertThat(Path.of(file.location())).exists());
    return fixture.plain(ROWS.formatted(readParquet(files)));
  }
}
