package dev.timelake.index;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.timelake.AppendResult;
import dev.timelake.ColumnType;
import dev.timelake.DuplicateIndexIntervalException;
import dev.timelake.ErrorCode;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TimelakeException;
import dev.timelake.ValidationException;
import dev.timelake.table.InvalidGranularityException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One row per series and index interval (seed 003): the reference sheet's cases, with seconds since
 * the epoch standing for the integer index of the sheet (granularity 10 s for width 10).
 */
class IndexIntervalConflictTest {
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

  /** {@code (symbol VARCHAR, ts TIMESTAMPTZ, price DOUBLE)} with the given granularity. */
  static Table bars(String granularity, boolean entity) {
    TableDefinition.Builder definition =
        TableDefinition.builder("market.bars" + ++tables)
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .column("price", ColumnType.DOUBLE)
            .indexColumn("ts")
            .indexGranularity(granularity)
            .option("auto-maintain", "false");
    if (entity) {
      definition.entityColumns("symbol");
    }
    return lake.createTable(definition.build());
  }

  static OffsetDateTime seconds(long seconds) {
    return Instant.ofEpochSecond(seconds).atOffset(ZoneOffset.UTC);
  }

  static AppendResult append(Table table, String symbol, long... times) {
    var append = table.refresh().newAppend();
    for (long time : times) {
      append.row(symbol, seconds(time), 1.0);
    }
    return append.commit();
  }

  @Test
  void sameRowsAgainOverlapNamingSeriesIntervalAndCount() {
    Table table = bars("10s", true);
    append(table, "A", 0, 10);
    int snapshotsBefore = snapshots(table);
    List<Path> filesBefore = dataFiles(table);

    IndexIntervalOverlapException overlap =
        catchThrowableOfType(IndexIntervalOverlapException.class, () -> append(table, "A", 0, 10));

    assertThat(overlap.code()).isEqualTo(ErrorCode.INDEX_INTERVAL_OVERLAP);
    assertThat(overlap.conflictCount()).isEqualTo(2);
    assertThat(overlap.exampleIdentity()).isEqualTo(Map.of("symbol", "A"));
    assertThat(overlap.exampleInterval()).isEqualTo("[1970-01-01T00:00:00Z, 1970-01-01T00:00:10Z)");
    assertThat(overlap.table()).isEqualTo(table.name());
    assertThat(overlap)
        .hasMessageContaining(table.name().toString())
        .hasMessageContaining("symbol = 'A'")
        .hasMessageContaining("2 rows");
    assertThat(overlap.sqlState()).isEqualTo("23505");
    assertThat(snapshots(table)).isEqualTo(snapshotsBefore);
    assertThat(dataFiles(table)).isEqualTo(filesBefore);
  }

  @Test
  void twoRowsOfOneSeriesInOneIntervalOfOneAppendAreDuplicates() {
    Table table = bars("10s", true);

    DuplicateIndexIntervalException duplicate =
        catchThrowableOfType(DuplicateIndexIntervalException.class, () -> append(table, "A", 0, 9));

    assertThat(duplicate.code()).isEqualTo(ErrorCode.DUPLICATE_INDEX_INTERVAL);
    assertThat(duplicate.exampleIdentity()).isEqualTo(Map.of("symbol", "A"));
    assertThat(duplicate.exampleInterval())
        .isEqualTo("[1970-01-01T00:00:00Z, 1970-01-01T00:00:10Z)");
    assertThat(snapshots(table)).isZero();
    assertThat(dataFiles(table)).isEmpty();
    assertThat(append(table, "A", 0, 10).outcome()).isEqualTo(AppendResult.Outcome.COMMITTED);
  }

  @Test
  void withoutEntityColumnsTheTableIsOneSeries() {
    Table table = bars("10s", false);
    DuplicateIndexIntervalException duplicate =
        catchThrowableOfType(
            DuplicateIndexIntervalException.class,
            () -> table.newAppend().row("A", seconds(0), 1.0).row("B", seconds(9), 1.0).commit());
    assertThat(duplicate.exampleIdentity()).isEmpty();
    assertThat(duplicate).hasMessageContaining("(no entity columns)");

    append(table, "A", 0);
    IndexIntervalOverlapException overlap =
        catchThrowableOfType(IndexIntervalOverlapException.class, () -> append(table, "B", 9));
    assertThat(overlap.conflictCount()).isEqualTo(1);
    assertThat(overlap.exampleIdentity()).isEmpty();
  }

  @Test
  void differentSeriesShareAnInterval() {
    Table table = bars("1h", true);
    append(table, "NVDA", 10 * 3600 + 5 * 60);
    append(table, "AAPL", 10 * 3600 + 55 * 60);
    assertThatThrownBy(() -> append(table, "NVDA", 10 * 3600 + 55 * 60))
        .isInstanceOf(IndexIntervalOverlapException.class)
        .hasMessageContaining("[1970-01-01T10:00:00Z, 1970-01-01T11:00:00Z)");
    assertThat(query(lake, "SELECT count(*) FROM " + table.name()).get(0).get(0)).isEqualTo(2L);
  }

  @Test
  void aMinuteTableRefusesASecondRowThirtySecondsLater() {
    Table table = bars("1m", false);
    table.newAppend().row("x", Instant.ofEpochMilli(0).atOffset(ZoneOffset.UTC), 1.0).commit();
    assertThatThrownBy(
            () ->
                table
                    .refresh()
                    .newAppend()
                    .row("x", Instant.ofEpochMilli(30_000).atOffset(ZoneOffset.UTC), 1.0)
                    .commit())
        .isInstanceOf(IndexIntervalOverlapException.class)
        .hasMessageContaining("[1970-01-01T00:00:00Z, 1970-01-01T00:01:00Z)");
  }

  @Test
  void intervalsBeforeTheEpochUseTheFloor() {
    Table table = bars("10s", false);
    append(table, "x", -21, -11);
    append(table, "x", 0, 10, 20);
    assertThat(
            query(
                lake,
                "SELECT epoch(ts)::BIGINT FROM "
                    + table.name()
                    + " WHERE ts >= to_timestamp(-12) AND ts < to_timestamp(10) ORDER BY ts"))
        .containsExactly(List.of(-11L), List.of(0L));
    assertThatThrownBy(() -> append(table, "x", -19))
        .isInstanceOf(IndexIntervalOverlapException.class)
        .hasMessageContaining("[1969-12-31T23:59:40Z, 1969-12-31T23:59:50Z)");
  }

  @Test
  void sqlCreatesTheIndexWithTheSeedsWordsAndInsertsAreChecked() {
    try (Session session = lake.newSession()) {
      session.sql(
          "CREATE TABLE market.ticks (symbol VARCHAR, ts TIMESTAMPTZ, price DOUBLE) WITH"
              + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1"
              + " minute', auto_maintain = false)");
      session.sql(
          "INSERT INTO market.ticks VALUES ('A', '2026-01-01 10:00:05+00', 1),"
              + " ('B', '2026-01-01 10:00:06+00', 2)");
      TimelakeException duplicate =
          catchThrowableOfType(
              TimelakeException.class,
              () ->
                  session.sql(
                      "INSERT INTO market.ticks VALUES ('C', '2026-01-01 10:00:05+00', 1),"
                          + " ('C', '2026-01-01 10:00:59+00', 2)"));
      assertThat(duplicate.code()).isEqualTo(ErrorCode.DUPLICATE_INDEX_INTERVAL);
      TimelakeException overlap =
          catchThrowableOfType(
              TimelakeException.class,
              () ->
                  session.sql(
                      "INSERT INTO market.ticks VALUES ('A', '2026-01-01 10:00:30+00', 1)"));
      assertThat(overlap.code()).isEqualTo(ErrorCode.INDEX_INTERVAL_OVERLAP);
      assertThat(session.sql("SELECT count(*) FROM market.ticks").rows())
          .containsExactly(List.of(2L));
    }
    Table ticks = lake.table("market.ticks");
    assertThat(ticks.timeColumn()).contains("ts");
    assertThat(ticks.seriesKey()).containsExactly("symbol");
    assertThat(ticks.settings()).containsEntry("index-granularity", "1 minute");
  }

  @Test
  void coverageIsStoredWithTheSnapshotAndRebuiltWhenItsFileIsGone() throws Exception {
    Table table = bars("10s", true);
    append(table, "A", 0, 10, 20);
    append(table, "B", 0);
    List<Path> coverageFiles = coverageFiles(table);
    assertThat(coverageFiles).hasSize(2);
    for (Path file : coverageFiles) {
      Files.delete(file);
    }
    CoverageStore.forgetRemembered();
    assertThatThrownBy(() -> append(table, "A", 25))
        .isInstanceOf(IndexIntervalOverlapException.class);
    append(table, "B", 15);
    Path newest = coverageFiles(table).get(coverageFiles(table).size() - 1);
    Files.write(newest, new byte[] {1, 2, 3});
    CoverageStore.forgetRemembered();
    assertThatThrownBy(() -> append(table, "B", 19))
        .isInstanceOf(IndexIntervalOverlapException.class)
        .hasMessageContaining("[1970-01-01T00:00:10Z, 1970-01-01T00:00:20Z)");
  }

  @Test
  void compactionKeepsTheIntervalsHeld() {
    Table table = bars("10s", true);
    for (int i = 0; i < 4; i++) {
      append(table, "A", i * 10L);
    }
    table.refresh().newMaintenance().run();
    assertThatThrownBy(() -> append(table, "A", 31))
        .isInstanceOf(IndexIntervalOverlapException.class);
    append(table, "A", 40);
    assertThat(query(lake, "SELECT count(*) FROM " + table.name()).get(0).get(0)).isEqualTo(5L);
  }

  @Test
  void expiryRemovesTheCoverageOfExpiredSnapshotsAndOrphanCleanupKeepsTheRest() throws Exception {
    Table table = bars("10s", true);
    for (int i = 0; i < 5; i++) {
      append(table, "A", i * 10L);
    }
    assertThat(coverageFiles(table)).hasSize(5);
    table
        .refresh()
        .alter(Map.of("snapshot-retention", "1h", "min-snapshots", "1", "orphan-file-age", "1h"))
        .newMaintenance()
        .clock(java.time.Clock.offset(java.time.Clock.systemUTC(), java.time.Duration.ofDays(1)))
        .run();
    assertThat(coverageFiles(table).size()).isLessThanOrEqualTo(snapshots(table));
    assertThatThrownBy(() -> append(table, "A", 45))
        .isInstanceOf(IndexIntervalOverlapException.class);
    append(table, "A", 50);
    assertThat(coverageFiles(table)).isNotEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "1w, UNKNOWN_UNIT",
    "1ms, UNKNOWN_UNIT",
    "1mo, UNKNOWN_UNIT",
    "1.5h, INVALID_NUMBER",
    "1_000s, INVALID_NUMBER",
    "1, MISSING_UNIT",
    "10, MISSING_UNIT",
    "h, MISSING_NUMBER",
    "0s, NON_POSITIVE",
    "4294967296h, TOO_LARGE"
  })
  void badGranularitiesAreRefusedAtCreate(String granularity, String reason) {
    InvalidGranularityException refused =
        catchThrowableOfType(InvalidGranularityException.class, () -> bars(granularity, true));
    assertThat(refused.reason()).hasToString(reason);
    assertThat(refused)
        .hasMessageContaining("Cannot create market.bars")
        .hasMessageContaining("index column 'ts'")
        .hasMessageContaining("'" + granularity + "'");
  }

  @Test
  void indexOptionsNeedAnIndexColumnAndOnConflictNeedsAGranularity() {
    assertThatThrownBy(
            () ->
                lake.createTable(
                    TableDefinition.builder("market.plain")
                        .column("x", ColumnType.BIGINT)
                        .indexGranularity("1m")
                        .build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("index_granularity needs an index column");
    assertThatThrownBy(
            () ->
                lake.createTable(
                    TableDefinition.builder("market.noindex")
                        .column("ts", ColumnType.TIMESTAMPTZ)
                        .indexColumn("ts")
                        .option("on_conflict", "error")
                        .build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("on_conflict applies to a table with an index_granularity");
  }

  @Test
  void theIndexColumnCannotBeAnEntityColumnAndEntitiesAreUnique() {
    TableDefinition.Builder both =
        TableDefinition.builder("market.both")
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .indexColumn("ts")
            .entityColumns("symbol", "ts");
    assertThatThrownBy(() -> lake.createTable(both.build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("cannot also be");
    TableDefinition.Builder twice =
        TableDefinition.builder("market.twice")
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .indexColumn("ts")
            .entityColumns("symbol", "symbol");
    assertThatThrownBy(() -> lake.createTable(twice.build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("listed twice");
    TableDefinition.Builder conflicting =
        TableDefinition.builder("market.conflicting")
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .column("other", ColumnType.TIMESTAMPTZ)
            .option("time_column", "ts")
            .option("index_column", "other");
    assertThatThrownBy(() -> lake.createTable(conflicting.build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("given twice");
    TableDefinition.Builder doubleEntity =
        TableDefinition.builder("market.doubles")
            .column("price", ColumnType.DOUBLE)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .indexColumn("ts")
            .entityColumns("price");
    assertThatThrownBy(() -> lake.createTable(doubleEntity.build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("'price' has type DOUBLE");
  }

  @Test
  void nullEntityValuesAreRefused() {
    Table table = bars("10s", true);
    assertThatThrownBy(() -> table.newAppend().row(null, seconds(0), 1.0).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("'symbol' is null");
    assertThat(snapshots(table)).isZero();
  }

  static List<Path> coverageFiles(Table table) throws Exception {
    Path metadata =
        Path.of(dev.timelake.engine.SqlText.localPath(table.refresh().info().location()))
            .resolve("metadata");
    try (var files = Files.list(metadata)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("timelake-coverage-"))
          .sorted(
              (a, b) -> {
                try {
                  return Files.getLastModifiedTime(a).compareTo(Files.getLastModifiedTime(b));
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .toList();
    }
  }
}
