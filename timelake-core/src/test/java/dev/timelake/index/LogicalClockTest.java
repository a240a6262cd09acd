package dev.timelake.index;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.timelake.Append;
import dev.timelake.ColumnType;
import dev.timelake.DuplicateIndexIntervalException;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.ValidationException;
import dev.timelake.table.InvalidGranularityException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A BIGINT logical clock as the ordered index: the reference sheet's case table (Int64 index,
 * granularity 10, entity symbol), partitions by width (Iceberg truncate), dedup on read,
 * maintenance and the clock's own error cases.
 */
class LogicalClockTest {
  @TempDir static Path warehouse;
  private static Lake lake;
  private static int tables;

  @BeforeAll
  static void openLake() {
    lake = Lake.open(warehouse);
  }

  @AfterAll
  static void closeLake() {
    lake.close();
  }

  private static TableDefinition.Builder ticks(boolean entity) {
    TableDefinition.Builder definition =
        TableDefinition.builder("clock.t" + ++tables)
            .column("symbol", ColumnType.VARCHAR)
            .column("idx", ColumnType.BIGINT)
            .column("value", ColumnType.DOUBLE)
            .indexColumn("idx")
            .option("auto-maintain", "false");
    return entity ? definition.entityColumns("symbol") : definition;
  }

  private static Table strict(boolean entity) {
    return lake.createTable(ticks(entity).indexGranularity("10").build());
  }

  private static void append(Table table, String symbol, long... indexes) {
    Append append = table.refresh().newAppend();
    for (long index : indexes) {
      append.row(symbol, index, 1.0);
    }
    append.commit();
  }

  @Test
  void theSameBatchAgainOverlapsInTwoIntervals() {
    Table table = strict(true);
    append(table, "A", 0, 10);
    List<Path> files = dataFiles(table);

    IndexIntervalOverlapException overlap =
        catchThrowableOfType(IndexIntervalOverlapException.class, () -> append(table, "A", 0, 10));

    assertThat(overlap.conflictCount()).isEqualTo(2);
    assertThat(overlap.exampleIdentity()).isEqualTo(Map.of("symbol", "A"));
    assertThat(overlap.exampleInterval()).isEqualTo("[0, 10)");
    assertThat(snapshots(table)).isEqualTo(1);
    assertThat(dataFiles(table)).isEqualTo(files);
  }

  @Test
  void twoRowsOfOneIntervalInOneAppendAreDuplicatesAndAValidRetryCommits() {
    Table table = strict(true);
    DuplicateIndexIntervalException duplicate =
        catchThrowableOfType(DuplicateIndexIntervalException.class, () -> append(table, "A", 0, 9));

    assertThat(duplicate.exampleInterval()).isEqualTo("[0, 10)");
    assertThat(snapshots(table)).isZero();
    assertThat(dataFiles(table)).isEmpty();
    append(table, "A", 0);
    assertThat(snapshots(table)).isEqualTo(1);
  }

  @Test
  void withoutEntityColumnsTheTableHasOneIdentity() {
    Table duplicates = strict(false);
    DuplicateIndexIntervalException duplicate =
        catchThrowableOfType(
            DuplicateIndexIntervalException.class, () -> append(duplicates, "A", 0, 9));
    assertThat(duplicate.exampleIdentity()).isEmpty();

    Table overlaps = strict(false);
    append(overlaps, "A", 0);
    IndexIntervalOverlapException overlap =
        catchThrowableOfType(IndexIntervalOverlapException.class, () -> append(overlaps, "B", 9));
    assertThat(overlap.conflictCount()).isEqualTo(1);
  }

  @Test
  void negativeClocksFallInEuclideanIntervals() {
    Table table = strict(true);
    append(table, "A", -21, -11);
    append(table, "A", 0, 10, 20);

    assertThat(
            query(
                lake,
                "SELECT idx FROM " + table.name() + " WHERE idx >= -12 AND idx < 10 ORDER BY idx"))
        .containsExactly(List.of(-11L), List.of(0L));
    IndexIntervalOverlapException overlap =
        catchThrowableOfType(IndexIntervalOverlapException.class, () -> append(table, "A", -19));
    assertThat(overlap.exampleInterval()).isEqualTo("[-20, -10)");
    assertThat(overlap)
        .hasMessageContaining(table.name().toString())
        .hasMessageContaining("symbol = 'A'");
  }

  @Test
  void coverageOfAClockIsAskedInItsUnitsFromJavaAndSql() {
    Table table = strict(true);
    append(table, "A", 0, 10, 40, -5);
    var coverage = table.refresh().indexCoverage();
    Map<String, String> a = Map.of("symbol", "A");

    assertThat(coverage.ratio(a, 0, 50)).isEqualTo(0.6);
    assertThat(coverage.ratio(a, 7, 7)).isEqualTo(1.0);
    assertThat(coverage.gaps(a, -10, 50, 1))
        .containsExactly(new dev.timelake.ClockRange(20, 40, 2));
    assertThat(coverage.lastClockRun(a, 2)).contains(new dev.timelake.ClockRange(-10, 20, 3));
    assertThat(coverage.lastWindow(a, 15, 2)).contains(new dev.timelake.ClockRange(0, 20, 2));
    assertThatThrownBy(
            () ->
                coverage.ratio(a, java.time.Instant.EPOCH, java.time.Instant.EPOCH.plusSeconds(9)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("BIGINT logical clock");
    assertThat(
            query(
                lake,
                "SELECT symbol, covered, expected FROM timelake_coverage('"
                    + table.name()
                    + "', -10, 50)"))
        .containsExactly(List.of("A", 4L, 6L));
    assertThat(
            query(
                lake,
                "SELECT gap_start, gap_end, intervals FROM timelake_gaps('"
                    + table.name()
                    + "', -10, 50)"))
        .containsExactly(List.of(20L, 40L, 2L));
    assertThatThrownBy(
            () ->
                query(
                    lake,
                    "SELECT * FROM timelake_coverage('" + table.name() + "', '2026-01-01', 50)"))
        .hasMessageContaining("range bounds are integers, not '2026-01-01'");
  }

  /**
   * Random appends (negative clocks, several partitions, compaction between) commit or fail exactly
   * as counting (symbol, ⌊idx ÷ 7⌋) pairs says, and the table ends holding the accepted rows.
   */
  @Test
  void randomAppendsCommitOrFailAsTheOracleSays() {
    dev.timelake.TestRandom random = dev.timelake.TestRandom.create();
    Table table =
        lake.createTable(ticks(true).indexGranularity("7").option("partition-width", "49").build());
    java.util.Set<List<Object>> committed = new java.util.HashSet<>();
    List<List<Object>> accepted = new java.util.ArrayList<>();
    int outcomes = 0;
    for (int batch = 0; batch < 40; batch++) {
      List<List<Object>> rows = new java.util.ArrayList<>();
      for (int i = 0, n = 1 + random.nextInt(5); i < n; i++) {
        rows.add(List.of(List.of("a", "b").get(random.nextInt(2)), random.between(-100, 300)));
      }
      Map<List<Object>, Long> pairs =
          rows.stream()
              .collect(
                  java.util.stream.Collectors.groupingBy(
                      row -> List.of(row.get(0), Math.floorDiv((Long) row.get(1), 7)),
                      java.util.stream.Collectors.counting()));
      boolean duplicate = pairs.values().stream().anyMatch(count -> count > 1);
      long conflicts = pairs.keySet().stream().filter(committed::contains).count();
      Append append = table.refresh().newAppend();
      rows.forEach(row -> append.row(row.get(0), row.get(1), 1.0));
      String context = random + " batch " + batch + " " + rows;
      if (duplicate) {
        assertThatThrownBy(append::commit)
            .as(context)
            .isInstanceOf(DuplicateIndexIntervalException.class);
      } else if (conflicts > 0) {
        assertThat(catchThrowableOfType(IndexIntervalOverlapException.class, append::commit))
            .as(context)
            .extracting(IndexIntervalOverlapException::conflictCount)
            .isEqualTo(conflicts);
        outcomes++;
      } else {
        append.commit();
        committed.addAll(pairs.keySet());
        accepted.addAll(rows);
      }
      if (batch % 15 == 14) {
        table.refresh().newMaintenance().run();
      }
    }
    List<List<Object>> expected =
        accepted.stream()
            .sorted(
                java.util.Comparator.comparing((List<Object> row) -> (String) row.get(0))
                    .thenComparing(row -> (Long) row.get(1)))
            .toList();
    assertThat(query(lake, "SELECT symbol, idx FROM " + table.name() + " ORDER BY symbol, idx"))
        .as(random.toString())
        .isEqualTo(expected);
    assertThat(outcomes).as(random.toString()).isPositive();
  }

  @Test
  void aClockIsPartitionedByWidthAndCopiesAreRemovedOnRead() {
    Table table = lake.createTable(ticks(true).option("partition-width", "1000").build());
    append(table, "A", 5, 1_005, -5);
    table.refresh().newAppend().row("A", 5L, 2.0).row("A", 2_000_000L, 3.0).commit();

    assertThat(query(lake, "SELECT idx, value FROM " + table.name() + " ORDER BY idx"))
        .containsExactly(
            List.of(-5L, 1.0), List.of(5L, 2.0), List.of(1_005L, 1.0), List.of(2_000_000L, 3.0));
    assertThat(table.refresh().info().partitions())
        .extracting(p -> p.label())
        .containsExactly("-1000", "0", "1000", "2000000");
    assertThat(dataFiles(table).toString()).contains("idx_trunc=1000");

    table.refresh().newMaintenance().run();
    assertThat(query(lake, "SELECT idx, value FROM " + table.name() + " ORDER BY idx"))
        .containsExactly(
            List.of(-5L, 1.0), List.of(5L, 2.0), List.of(1_005L, 1.0), List.of(2_000_000L, 3.0));
    assertThat(query(lake, "SELECT count(*) FROM " + table.name() + " WHERE idx BETWEEN 0 AND 999"))
        .containsExactly(List.of(1L));
  }

  @Test
  void replaceKeepsTheNewestRowPerIntervalOfAClock() {
    Table table =
        lake.createTable(
            ticks(true)
                .indexGranularity("10")
                .onConflict("replace")
                .option("partition-width", "100")
                .build());
    append(table, "A", 1, -1);
    table.refresh().newAppend().row("A", 8L, 5.0).row("A", -10L, 6.0).commit();

    assertThat(query(lake, "SELECT idx, value FROM " + table.name() + " ORDER BY idx"))
        .containsExactly(List.of(-10L, 6.0), List.of(8L, 5.0));
    // 1 was replaced by 8 (same interval), -1 by -10.
    assertThat(query(lake, "SELECT idx FROM " + table.name() + " WHERE idx < 5"))
        .containsExactly(List.of(-10L));
  }

  @Test
  void aValueBeyondThePartitionsFailsAndChangesNothing() {
    Table table = lake.createTable(ticks(true).option("partition-width", "1").build());
    assertThatThrownBy(() -> append(table, "A", 1L << 40))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("1099511627776")
        .hasMessageContaining("partition_width");
    assertThat(snapshots(table)).isZero();
    assertThat(dataFiles(table)).isEmpty();
  }

  @Test
  void aClockTakesIntegersOnlyAndWidensLosslessly() {
    Table table = strict(true);
    table
        .newAppend()
        .fromQuery("SELECT 'A' AS symbol, 3::INTEGER AS idx, 1.0::DOUBLE AS value")
        .commit();
    assertThatThrownBy(
            () ->
                table
                    .refresh()
                    .newAppend()
                    .fromQuery(
                        "SELECT 'A' AS symbol, TIMESTAMPTZ '2026-01-01 00:00:00+00' AS idx, 1.0::DOUBLE"
                            + " AS value")
                    .commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column 'idx'");
    assertThatThrownBy(
            () ->
                table
                    .refresh()
                    .newAppend()
                    .fromQuery("SELECT 'A' AS symbol, 50::UBIGINT AS idx, 1.0::DOUBLE AS value")
                    .commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column 'idx' is UBIGINT");
    assertThat(snapshots(table)).isEqualTo(1);
  }

  @ParameterizedTest
  @CsvSource({
    "0, not positive",
    "-1, invalid number",
    "18446744073709551616, too large",
    "1m, invalid number",
    "1.5, invalid number"
  })
  void badIntegerGranularitiesAreRefused(String granularity, String reason) {
    assertThatThrownBy(() -> lake.createTable(ticks(true).indexGranularity(granularity).build()))
        .isInstanceOf(InvalidGranularityException.class)
        .hasMessageContaining(granularity);
  }

  @Test
  void timeSettingsAndClockSettingsStayApart() {
    assertThatThrownBy(() -> lake.createTable(ticks(true).chunk(dev.timelake.Chunk.DAY).build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("chunk needs a timestamp time column");
    assertThatThrownBy(() -> lake.createTable(ticks(true).option("retention", "30d").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("retention needs a timestamp time column");
    assertThatThrownBy(() -> lake.createTable(ticks(true).option("partition-width", "0").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("partition_width 0");
    assertThatThrownBy(
            () -> lake.createTable(ticks(true).option("partition-width", "4294967296").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("2147483647");
    assertThatThrownBy(
            () ->
                lake.createTable(
                    TableDefinition.builder("clock.ts")
                        .column("ts", ColumnType.TIMESTAMPTZ)
                        .timeColumn("ts")
                        .option("partition-width", "10")
                        .build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("partition_width applies to a BIGINT time column");
    assertThatThrownBy(
            () ->
                lake.createTable(
                    ticks(true)
                        .indexGranularity("7")
                        .onConflict("replace")
                        .option("partition-width", "100")
                        .build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("divides the partition_width (100), and 7 does not");
  }
}
