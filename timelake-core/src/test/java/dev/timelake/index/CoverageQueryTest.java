package dev.timelake.index;

import static dev.timelake.TestTables.dataFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.CoverageSummary;
import dev.timelake.IndexCoverage;
import dev.timelake.IndexRange;
import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TimelakeException;
import dev.timelake.ValidationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage and gap questions from Java and SQL, answered from coverage alone. Series A holds
 * minutes 0, 1, 2, 5, 6, 8, 9 of a 1-minute table, B minutes 0–4.
 */
class CoverageQueryTest {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Map<String, Object> A = Map.of("symbol", "A");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Table table;

  static Instant minute(long minute) {
    return T0.plusSeconds(60 * minute);
  }

  @BeforeAll
  static void createTable() throws Exception {
    lake = Lake.open(warehouse);
    table =
        lake.createTable(
            TableDefinition.builder("market.bars")
                .column("symbol", ColumnType.VARCHAR)
                .column("ts", ColumnType.TIMESTAMPTZ)
                .column("close", ColumnType.DOUBLE)
                .indexColumn("ts")
                .entityColumns("symbol")
                .indexGranularity("1m")
                .option("auto-maintain", "false")
                .build());
    var append = table.newAppend();
    for (long m : new long[] {0, 1, 2, 5, 6, 8, 9}) {
      append.row("A", minute(m).plusSeconds(m).atOffset(ZoneOffset.UTC), 1.0);
    }
    append.commit();
    var second = table.refresh().newAppend();
    for (long m = 0; m < 5; m++) {
      second.row("B", minute(m).atOffset(ZoneOffset.UTC), 2.0);
    }
    second.commit();
    table = table.refresh();
    // Answers come from coverage only: the data files are gone.
    for (Path file : dataFiles(table)) {
      Files.delete(file);
    }
    CoverageStore.forgetRemembered();
  }

  @AfterAll
  static void closeLake() {
    lake.close();
  }

  @Test
  void summaryCountsCoveredIntervalsAndTheLongestGap() {
    IndexCoverage coverage = table.indexCoverage();
    CoverageSummary a = coverage.summary(A, minute(0), minute(10));
    assertThat(a.covered()).isEqualTo(7);
    assertThat(a.expected()).isEqualTo(10);
    assertThat(a.missing()).isEqualTo(3);
    assertThat(a.ratio()).isEqualTo(0.7);
    assertThat(a.longestGap()).isEqualTo(2);
    assertThat(coverage.ratio(Map.of("symbol", "B"), minute(0), minute(10))).isEqualTo(0.5);
    assertThat(coverage.identities()).containsExactly(A, Map.of("symbol", "B"));
    assertThat(coverage.granularity()).isEqualTo("1 minute");
  }

  @Test
  void theReferenceSheetsExample() {
    // Ids {0, 1, 2, 4, 5} over [0, 6): ratio 5/6, longest gap 1, last 2-window at or before 5.
    Table sheet =
        lake.createTable(
            TableDefinition.builder("market.sheet")
                .column("ts", ColumnType.TIMESTAMPTZ)
                .indexColumn("ts")
                .indexGranularity("1s")
                .option("auto-maintain", "false")
                .build());
    var append = sheet.newAppend();
    for (long s : new long[] {0, 1, 2, 4, 5}) {
      append.row(Instant.ofEpochSecond(s).atOffset(ZoneOffset.UTC));
    }
    append.commit();
    IndexCoverage coverage = sheet.refresh().indexCoverage();
    Instant zero = Instant.EPOCH;
    assertThat(coverage.ratio(Map.of(), zero, zero.plusSeconds(6))).isEqualTo(5.0 / 6);
    assertThat(coverage.longestGap(Map.of(), zero, zero.plusSeconds(6)))
        .contains(new IndexRange(zero.plusSeconds(3), zero.plusSeconds(4), 1));
    assertThat(coverage.lastWindow(Map.of(), zero.plusSeconds(5), 2))
        .contains(new IndexRange(zero.plusSeconds(4), zero.plusSeconds(6), 2));
  }

  @Test
  void gapsRunsAndWindows() {
    IndexCoverage coverage = table.indexCoverage();
    assertThat(coverage.gaps(A, minute(0), minute(10), 1))
        .containsExactly(
            new IndexRange(minute(3), minute(5), 2), new IndexRange(minute(7), minute(8), 1));
    assertThat(coverage.gaps(A, minute(0), minute(10), 2))
        .containsExactly(new IndexRange(minute(3), minute(5), 2));
    assertThat(coverage.gaps(A, minute(-2), minute(12), 1))
        .containsExactly(
            new IndexRange(minute(-2), minute(0), 2),
            new IndexRange(minute(3), minute(5), 2),
            new IndexRange(minute(7), minute(8), 1),
            new IndexRange(minute(10), minute(12), 2));
    assertThat(coverage.lastRun(A, 2)).contains(new IndexRange(minute(8), minute(10), 2));
    assertThat(coverage.lastRun(A, 3)).contains(new IndexRange(minute(0), minute(3), 3));
    assertThat(coverage.lastRun(A, 4)).isEmpty();
    assertThat(coverage.lastWindow(A, minute(6).plusSeconds(30), 2))
        .contains(new IndexRange(minute(5), minute(7), 2));
    assertThat(coverage.lastWindow(A, minute(6), 3))
        .contains(new IndexRange(minute(0), minute(3), 3));
    assertThat(coverage.lastWindow(A, minute(1), 3)).isEmpty();
  }

  @Test
  void anEmptyRangeIsFullyCoveredAndABackwardRangeIsRefused() {
    IndexCoverage coverage = table.indexCoverage();
    CoverageSummary empty = coverage.summary(A, minute(4), minute(4));
    assertThat(empty.ratio()).isEqualTo(1.0);
    assertThat(empty.expected()).isZero();
    assertThat(coverage.gaps(A, minute(4), minute(4), 1)).isEmpty();
    assertThatThrownBy(() -> coverage.summary(A, minute(5), minute(4)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("must not be after its end");
  }

  @Test
  void seriesAreNamedByEveryEntityColumn() {
    IndexCoverage coverage = table.indexCoverage();
    assertThatThrownBy(() -> coverage.summary(Map.of(), minute(0), minute(1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("give a value for every entity column (symbol)");
    assertThatThrownBy(() -> coverage.summary(Map.of("venue", "X"), minute(0), minute(1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("has no entity column 'venue'");
    assertThat(coverage.summary(Map.of("symbol", "Z"), minute(0), minute(2)).covered()).isZero();
    assertThatThrownBy(() -> coverage.gaps(A, minute(0), minute(1), 0))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("at least 1");
  }

  @Test
  void aTableWithoutGranularityHasNoCoverage() {
    Table plain =
        lake.createTable(
            TableDefinition.builder("market.free")
                .column("ts", ColumnType.TIMESTAMPTZ)
                .indexColumn("ts")
                .build());
    assertThatThrownBy(plain::indexCoverage)
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("market.free has no index granularity");
  }

  @Test
  void sqlTableFunctionsAnswerPerSeriesWithFilters() {
    try (Session session = lake.newSession()) {
      assertThat(
              session
                  .sql(
                      "SELECT symbol, covered, expected, missing, ratio, longest_gap FROM"
                          + " timelake_coverage('market.bars', TIMESTAMPTZ '2026-03-01 00:00:00+00',"
                          + " TIMESTAMPTZ '2026-03-01 00:10:00+00') ORDER BY symbol")
                  .rows())
          .containsExactly(List.of("A", 7L, 10L, 3L, 0.7, 2L), List.of("B", 5L, 10L, 5L, 0.5, 5L));
      assertThat(
              session
                  .sql(
                      "SELECT gap_start, gap_end, intervals FROM timelake_gaps('market.bars',"
                          + " '2026-03-01 00:00:00+00', '2026-03-01 00:10:00+00', min_intervals := 2)"
                          + " WHERE symbol = 'A'")
                  .rows())
          .containsExactly(
              List.of(minute(3).atOffset(ZoneOffset.UTC), minute(5).atOffset(ZoneOffset.UTC), 2L));
      assertThat(
              session
                  .sql(
                      "SELECT count(*) FROM timelake_gaps('market.bars', '2026-03-01',"
                          + " '2026-03-01 00:10:00+00')")
                  .rows())
          .containsExactly(List.of(3L));
    }
  }

  @Test
  void sqlErrorsNameTheTable() {
    lake.createTable(
        TableDefinition.builder("market.unindexed")
            .column("ts", ColumnType.TIMESTAMPTZ)
            .indexColumn("ts")
            .build());
    try (Session session = lake.newSession()) {
      assertThatThrownBy(
              () ->
                  session.sql(
                      "SELECT * FROM timelake_coverage('market.nope', '2026-03-01',"
                          + " '2026-03-02')"))
          .isInstanceOf(TimelakeException.class)
          .hasMessageContaining("market.nope does not exist")
          .hasMessageNotContaining("\tat ");
      assertThatThrownBy(
              () ->
                  session.sql(
                      "SELECT * FROM timelake_coverage('market.unindexed', '2026-03-01',"
                          + " '2026-03-02')"))
          .isInstanceOf(TimelakeException.class)
          .hasMessageContaining("has no index granularity");
    }
  }
}
