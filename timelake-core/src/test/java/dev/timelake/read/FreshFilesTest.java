package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appends of on-time data write files that share no key with earlier files; the reader reads them
 * without dedup, and only late files and the files they overlap are deduplicated.
 */
class FreshFilesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void onTimeAppendsAreReadWithoutDedupAndLateRowsGoToTheirOwnFile() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.createTable(TestTables.readings("iot.r").build());
      for (int hour = 0; hour < 4; hour++) {
        table
            .newAppend()
            .row("a", T0.plusSeconds(hour * 3600L), 1.0)
            .row("b", T0.plusSeconds(hour * 3600L + 60), 2.0)
            .commit();
      }
      assertThat(explanation(lake))
          .startsWith("iot.r: 4 of 4 files after pruning, 0 in 0 overlapping groups deduplicated");

      // One append with an on-time row and a late copy writes two files, fresh and late; only the
      // late file and the one file whose time range it touches are deduplicated.
      var result =
          table
              .newAppend()
              .row("a", T0.plusSeconds(5 * 3600L), 5.0)
              .row("a", T0.plusSeconds(3600L), 9.0)
              .commit();
      assertThat(result.files()).isEqualTo(2);
      assertThat(explanation(lake))
          .startsWith("iot.r: 6 of 6 files after pruning, 2 in 1 overlapping groups deduplicated");
      try (Session session = lake.newSession();
          QueryResult rows =
              session.sql("SELECT value FROM iot.r WHERE device = 'a' ORDER BY time")) {
        assertThat(rows.rows())
            .containsExactly(List.of(1.0), List.of(9.0), List.of(1.0), List.of(1.0), List.of(5.0));
      }
    }
  }

  @Test
  void aFileIsFreshOnlyWhenItStartsAfterEverythingEarlierInItsPartition() {
    PlannedFile first = file(1, 0, 0, 100);
    PlannedFile overlapping = file(2, 0, 50, 150);
    PlannedFile otherPartition = file(2, 1, 0, 50);
    PlannedFile later = file(3, 0, 151, 200);
    List<PlannedFile> marked =
        ScanPlanner.markFresh(List.of(first, overlapping, otherPartition, later));
    assertThat(marked).extracting(PlannedFile::fresh).containsExactly(true, false, true, true);
  }

  private static PlannedFile file(long sequence, int partition, long min, long max) {
    return new PlannedFile(
        "f" + sequence + "-" + min,
        partition,
        sequence,
        1,
        1,
        min,
        max,
        null,
        null,
        Long.MIN_VALUE,
        false,
        Long.MIN_VALUE);
  }

  private static String explanation(Lake lake) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql("SELECT count(*) FROM iot.r")) {
      result.rows();
      return result.explanation().get(0);
    }
  }
}
