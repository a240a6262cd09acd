package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.AppendResult;
import dev.timelake.Table;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inline maintenance rewrites a day into one file once the newest data is past the day's end plus
 * {@code compact-cold-after}, and rewrites it again after {@code compact-min-files} backfill files,
 * or once its backfill has been quiet for {@code compact-cold-after}.
 */
class ColdPartitionTest {
  private static final String NAME = "iot.readings";
  private static final String FIRST_DAY = "2026-01-01";
  private static final Instant DAY = Instant.parse(FIRST_DAY + "T00:00:00Z");
  private static final Instant NEXT_DAY = DAY.plus(Duration.ofDays(1));

  @TempDir Path warehouse;
  private MaintenanceFixture fixture;
  private Table table;
  private final LatestWrites oracle = new LatestWrites();
  private Instant ingest = NEXT_DAY.plus(Duration.ofDays(1));

  @BeforeEach
  void createTable() {
    fixture = new MaintenanceFixture(warehouse);
    table =
        fixture.create(
            readings(NAME).option("compact-cold-after", "1h").option("compact-min-files", "3"));
  }

  @AfterEach
  void close() throws Exception {
    fixture.close();
  }

  @Test
  void rewritesADayIntoOneFileOnceDataPassesItsEndPlusColdAfter() {
    appendAt(DAY.plus(Duration.ofHours(10)), 1.0);
    appendAt(DAY.plus(Duration.ofHours(11)), 2.0);
    appendAt(DAY.plus(Duration.ofHours(10)), 3.0);
    List<DataFile> before = fixture.dataFiles(NAME, FIRST_DAY);
    assertThat(before).hasSize(3);
    long bytes = before.stream().mapToLong(DataFile::fileSizeInBytes).sum();

    AppendResult warm = appendAt(NEXT_DAY.plus(Duration.ofMinutes(59)), 4.0);

    assertThat(warm.maintenance()).isEmpty();
    assertThat(fixture.dataFiles(NAME, FIRST_DAY)).hasSize(3);

    AppendResult cold = appendAt(NEXT_DAY.plus(Duration.ofHours(1)), 5.0);

    assertThat(cold.maintenanceError()).isEmpty();
    assertThat(cold.maintenance().orElseThrow().explanation())
        .containsExactly(
            "rewrite partition "
                + FIRST_DAY
                + ": 3 files, "
                + bytes
                + " bytes (cold partition with 3 files)");
    List<DataFile> files = fixture.dataFiles(NAME, FIRST_DAY);
    assertThat(files).hasSize(1);
    assertThat(files.get(0).location()).contains("/compact-");
    assertThat(fixture.dataFiles(NAME, "2026-01-02")).hasSize(2);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void rewritesABackfilledColdDayOnlyAfterCompactMinFilesBackfills() {
    appendAt(DAY.plus(Duration.ofHours(10)), 1.0);
    appendAt(DAY.plus(Duration.ofHours(11)), 2.0);
    appendAt(NEXT_DAY.plus(Duration.ofHours(2)), 3.0);
    assertThat(fixture.dataFiles(NAME, FIRST_DAY))
        .singleElement()
        .extracting(DataFile::location)
        .asString()
        .contains("/compact-");

    for (int backfill = 1; backfill < 3; backfill++) {
      AppendResult result = appendAt(DAY.plus(Duration.ofHours(backfill)), 10.0 + backfill);
      assertThat(result.maintenance()).as("backfill %d", backfill).isEmpty();
      assertThat(fixture.dataFiles(NAME, FIRST_DAY)).hasSize(1 + backfill);
    }
    AppendResult third = appendAt(DAY.plus(Duration.ofHours(10)), 13.0);

    assertThat(third.maintenance().orElseThrow().explanation())
        .singleElement()
        .asString()
        .endsWith("(cold partition with 3 backfill files)");
    assertThat(fixture.dataFiles(NAME, FIRST_DAY)).hasSize(1);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void rewritesAColdDayOnceItsBackfillHasBeenQuietForColdAfter() {
    appendAt(DAY.plus(Duration.ofHours(10)), 1.0);
    appendAt(DAY.plus(Duration.ofHours(11)), 2.0);
    appendAt(NEXT_DAY.plus(Duration.ofHours(2)), 3.0);
    AppendResult straggler = appendAt(DAY.plus(Duration.ofHours(3)), 4.0);
    assertThat(straggler.maintenance()).isEmpty();
    assertThat(fixture.dataFiles(NAME, FIRST_DAY)).hasSize(2);

    // 58 minutes after the straggler arrived: still within compact-cold-after (1 h).
    ingest = ingest.plus(Duration.ofMinutes(57));
    assertThat(appendAt(NEXT_DAY.plus(Duration.ofHours(3)), 5.0).maintenance()).isEmpty();
    assertThat(fixture.dataFiles(NAME, FIRST_DAY)).hasSize(2);

    ingest = ingest.plus(Duration.ofMinutes(1));
    AppendResult quiet = appendAt(NEXT_DAY.plus(Duration.ofHours(4)), 6.0);

    assertThat(quiet.maintenance().orElseThrow().explanation())
        .singleElement()
        .asString()
        .startsWith("rewrite partition " + FIRST_DAY + ": 2 files")
        .endsWith("(cold partition with 1 quiet backfill files)");
    assertThat(fixture.dataFiles(NAME, FIRST_DAY)).hasSize(1);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void leavesAColdDayWithOneFileAlone() {
    appendAt(DAY.plus(Duration.ofHours(10)), 1.0);
    String only = fixture.dataFiles(NAME, FIRST_DAY).get(0).location();

    AppendResult result = appendAt(NEXT_DAY.plus(Duration.ofHours(5)), 2.0);

    assertThat(result.maintenance()).isEmpty();
    assertThat(fixture.dataFiles(NAME, FIRST_DAY))
        .singleElement()
        .extracting(DataFile::location)
        .isEqualTo(only);
  }

  /** Appends one row of device a with inline maintenance, a minute after the previous append. */
  private AppendResult appendAt(Instant time, double value) {
    ingest = ingest.plus(Duration.ofMinutes(1));
    AppendResult result =
        append(table, ingest, List.of(new Row("a", time, value)), oracle).commit();
    assertThat(result.maintenanceError()).isEmpty();
    return result;
  }
}
