package dev.timelake.write;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.micros;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.readings;
import static dev.timelake.TestTables.snapshots;
import static dev.timelake.TestTables.utc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Chunk;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableInfo;
import dev.timelake.TestRandom;
import dev.timelake.ValidationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an append writes: deduplicated, partitioned, sorted files and the snapshot that lists them.
 */
class AppendWriterTest {
  private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Connection duckdb;

  @BeforeAll
  static void open() throws SQLException {
    lake = Lake.open(warehouse);
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = duckdb.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
    }
  }

  @AfterAll
  static void close() throws SQLException {
    duckdb.close();
    lake.close();
  }

  @Test
  void keepsOnlyTheLastRowOfEqualKeysWithinOneAppend(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());

    AppendResult result =
        table
            .newAppend()
            .row("a", T1, 1.0)
            .row("a", T1, 2.0)
            .row("b", T1, 3.0)
            .fromQuery(
                "SELECT 'a' AS device, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time, 4.0::DOUBLE AS value")
            .row("b", T1.plusSeconds(1), 5.0)
            .commit();

    assertThat(result.rows()).isEqualTo(3);
    assertThat(result.copiesDropped()).isEqualTo(2);
    assertThat(lastSummary(table)).containsEntry("timelake.copies-dropped", "2");
    assertThat(table.refresh().info().rows()).isEqualTo(3);
    assertThat(query(lake, "SELECT device, value FROM " + table.name() + " ORDER BY device, time"))
        .containsExactly(List.of("a", 4.0), List.of("b", 3.0), List.of("b", 5.0));
  }

  @Test
  void keepsTheCopyWithTheNewestInsertionTimeWithinOneAppend(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());

    table
        .newAppend()
        .fromQuery(
            "SELECT * FROM (VALUES"
                + " ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00', 1.0::DOUBLE, TIMESTAMPTZ '2026-02-01 00:00:00+00'),"
                + " ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00', 2.0::DOUBLE, TIMESTAMPTZ '2026-01-15 00:00:00+00'))"
                + " AS t(device, time, value, _ingest_ts)")
        .commit();

    assertThat(query(lake, "SELECT value, _ingest_ts FROM " + table.name()))
        .containsExactly(List.of(1.0, utc("2026-02-01T00:00:00Z")));
  }

  @Test
  void keepsCopiesWhenTheTableDoesNotDeduplicate(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).option("dedup", "false").build());

    AppendResult result = table.newAppend().row("a", T1, 1.0).row("a", T1, 2.0).commit();

    assertThat(result.rows()).isEqualTo(2);
    assertThat(result.copiesDropped()).isZero();
  }

  @Test
  void skipsABatchIdThatWasAlreadyCommitted(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    AppendResult first = table.newAppend().batchId("gw-7/10h").row("a", T1, 1.0).commit();
    table.newAppend().batchId("gw-7/11h").row("a", T1.plusSeconds(3600), 2.0).commit();

    AppendResult again = table.refresh().newAppend().batchId("gw-7/10h").row("a", T1, 9.0).commit();

    assertThat(first.outcome()).isEqualTo(AppendResult.Outcome.COMMITTED);
    assertThat(again.outcome()).isEqualTo(AppendResult.Outcome.SKIPPED_DUPLICATE_BATCH);
    assertThat(again.rows()).isZero();
    assertThat(again.files()).isZero();
    assertThat(again.snapshotId()).isEmpty();
    assertThat(snapshots(table)).isEqualTo(2);
    assertThat(table.refresh().info().snapshots().get(0).summary())
        .containsEntry("timelake.batch-id", "gw-7/10h");
    assertThat(query(lake, "SELECT value FROM " + table.name() + " ORDER BY time"))
        .containsExactly(List.of(1.0), List.of(2.0));
  }

  @Test
  void skipsARepeatedBatchIdEvenThroughAStaleTableHandle(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    Table stale = table.refresh();
    table.newAppend().batchId("b1").row("a", T1, 1.0).commit();

    AppendResult again = stale.newAppend().batchId("b1").row("a", T1, 9.0).commit();

    assertThat(again.outcome()).isEqualTo(AppendResult.Outcome.SKIPPED_DUPLICATE_BATCH);
    assertThat(snapshots(table)).isEqualTo(1);
  }

  @Test
  void rejectsBlankBatchId(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());

    assertThatThrownBy(() -> table.newAppend().batchId("  "))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid batch id for %s: it is blank", table.name());
  }

  @Test
  void writesOneFilePerTouchedPartition(TestInfo test) {
    Table daily = lake.createTable(readings(name(test) + "_day").build());
    Table hourly = lake.createTable(readings(name(test) + "_hour").chunk(Chunk.HOUR).build());
    List<Instant> times =
        List.of(
            Instant.parse("2026-01-01T00:00:00Z"),
            Instant.parse("2026-01-01T23:59:59.999999Z"),
            Instant.parse("2026-01-02T05:00:00Z"),
            Instant.parse("2026-01-02T05:59:00Z"),
            Instant.parse("2025-12-31T23:00:00Z"));
    for (Table table : List.of(daily, hourly)) {
      Append append = table.newAppend();
      for (Instant time : times) {
        append.row("a", time, 1.0).row("b", time, 2.0);
      }

      AppendResult result = append.commit();

      Map<String, Long> expected = new TreeMap<>();
      for (Instant time : times) {
        String label =
            table.chunk() == Chunk.DAY
                ? time.atOffset(ZoneOffset.UTC).toLocalDate().toString()
                : time.truncatedTo(ChronoUnit.HOURS).toString().substring(0, 13);
        expected.merge(label, 2L, Long::sum);
      }
      TableInfo info = table.refresh().info();
      assertThat(result.files()).isEqualTo(expected.size());
      assertThat(dataFiles(table)).hasSize(expected.size());
      assertThat(info.partitions())
          .extracting(TableInfo.PartitionInfo::label)
          .containsExactlyElementsOf(expected.keySet());
      assertThat(info.partitions())
          .extracting(TableInfo.PartitionInfo::rows)
          .containsExactlyElementsOf(expected.values());
      assertThat(info.partitions()).extracting(TableInfo.PartitionInfo::files).containsOnly(1);
    }
  }

  @Test
  void writesFilesSortedBySeriesKeyThenTime(TestInfo test) throws SQLException {
    TestRandom random = TestRandom.create();
    Table table =
        lake.createTable(
            TableDefinition.builder(name(test))
                .column("site", ColumnType.INTEGER)
                .column("device", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .timeColumn("time")
                .seriesKey("site", "device")
                .build());
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      rows.add(
          new Object[] {
            random.nextInt(3) - 1,
            "d" + random.nextInt(5),
            T1.plus(random.between(-36 * 3600, 36 * 3600), ChronoUnit.SECONDS),
            random.nextDouble()
          });
    }
    Collections.shuffle(rows, random);
    Append append = table.newAppend();
    rows.forEach(append::row);
    AppendResult result = append.commit();

    long written = 0;
    for (Path file : dataFiles(table)) {
      List<Object[]> keys = new ArrayList<>();
      try (Statement statement = duckdb.createStatement();
          ResultSet read =
              statement.executeQuery(
                  "SELECT site, device, time FROM read_parquet('"
                      + file
                      + "', file_row_number = true) ORDER BY file_row_number")) {
        while (read.next()) {
          keys.add(
              new Object[] {
                read.getInt(1), read.getString(2), read.getObject(3, OffsetDateTime.class)
              });
        }
      }
      Comparator<Object[]> order =
          Comparator.<Object[], Integer>comparing(key -> (Integer) key[0])
              .thenComparing(key -> (String) key[1])
              .thenComparing(key -> (OffsetDateTime) key[2]);
      assertThat(keys).as("%s in %s", file, random).isSortedAccordingTo(order);
      String day = ((OffsetDateTime) keys.get(0)[2]).toLocalDate().toString();
      assertThat(file.getParent().getFileName()).as("%s", random).hasToString("time_day=" + day);
      assertThat(keys)
          .as("%s", random)
          .allMatch(key -> ((OffsetDateTime) key[2]).toLocalDate().toString().equals(day));
      written += keys.size();
    }
    assertThat(written).as("%s", random).isEqualTo(result.rows());
    assertThat(result.rows() + result.copiesDropped()).isEqualTo(rows.size());
  }

  @Test
  void recordsTimeRangesInTheSnapshotSummary(TestInfo test) {
    TestRandom random = TestRandom.create();
    Table table = lake.createTable(readings(name(test)).build());
    Append append = table.newAppend();
    Map<String, long[]> ranges = new TreeMap<>();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < 50; i++) {
      Instant time =
          T1.plus(random.between(-5 * 86_400_000_000L, 5 * 86_400_000_000L), ChronoUnit.MICROS);
      append.row("d" + random.nextInt(3), time, 1.0);
      long micros = micros(time);
      min = Math.min(min, micros);
      max = Math.max(max, micros);
      long[] range =
          ranges.computeIfAbsent(
              time.atOffset(ZoneOffset.UTC).toLocalDate().toString(),
              day -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
      range[0] = Math.min(range[0], micros);
      range[1] = Math.max(range[1], micros);
    }

    append.commit();

    List<String> touched = new ArrayList<>();
    ranges.forEach((day, range) -> touched.add(day + "=" + range[0] + ".." + range[1]));
    assertThat(lastSummary(table))
        .as("%s", random)
        .containsEntry("timelake.time-min", Long.toString(min))
        .containsEntry("timelake.time-max", Long.toString(max))
        .containsEntry("timelake.touched-ranges", String.join(";", touched))
        .containsEntry("timelake.operation", "append")
        .doesNotContainKey("timelake.batch-id");
  }

  @Test
  void setsInsertionTimeToTheAppendClock(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    Instant now = Instant.parse("2026-02-03T04:05:06.123456789Z");

    table
        .newAppend()
        .clock(Clock.fixed(now, ZoneOffset.UTC))
        .row("a", T1, 1.0)
        .row("b", T1.minus(400, ChronoUnit.DAYS), 2.0)
        .commit();

    assertThat(query(lake, "SELECT DISTINCT _ingest_ts FROM " + table.name()))
        .containsExactly(List.of(utc(now.truncatedTo(ChronoUnit.MICROS))));
  }

  @Test
  void keepsInsertionTimesTheInputCarries(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    Instant now = Instant.parse("2026-02-03T00:00:00Z");

    table
        .newAppend()
        .clock(Clock.fixed(now, ZoneOffset.UTC))
        .fromQuery(
            "SELECT * FROM (VALUES"
                + " ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00', TIMESTAMPTZ '2026-01-01 10:00:05+00'),"
                + " ('b', TIMESTAMPTZ '2026-01-01 10:00:00+00', NULL))"
                + " AS t(device, time, _ingest_ts)")
        .commit();

    assertThat(query(lake, "SELECT device, _ingest_ts FROM " + table.name() + " ORDER BY device"))
        .containsExactly(List.of("a", utc("2026-01-01T10:00:05Z")), List.of("b", utc(now)));
  }

  @Test
  void commitsNothingForEmptyInput(TestInfo test) throws IOException {
    Table table = lake.createTable(readings(name(test)).build());
    Path csv = Files.writeString(warehouse.resolve("header-only.csv"), "device,time,value\n");

    List<AppendResult> results =
        List.of(
            table.newAppend().commit(),
            table
                .newAppend()
                .fromQuery(
                    "SELECT 'a' AS device, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time WHERE false")
                .commit(),
            table.newAppend().fromCsv(csv).commit());

    assertThat(results)
        .allSatisfy(
            result -> {
              assertThat(result.outcome()).isEqualTo(AppendResult.Outcome.EMPTY);
              assertThat(result.rows()).isZero();
              assertThat(result.snapshotId()).isEmpty();
            });
    assertThat(snapshots(table)).isZero();
    assertThat(dataFiles(table)).isEmpty();
  }

  @Test
  void reportsTheCommittedSnapshot(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());

    AppendResult result = table.newAppend().row("a", T1, 1.0).commit();

    TableInfo.SnapshotInfo snapshot = table.refresh().info().snapshots().get(0);
    assertThat(result.snapshotId()).hasValue(snapshot.id());
    assertThat(snapshot.operation()).isEqualTo("append");
    assertThat(snapshot.summary()).containsEntry("added-records", "1");
  }

  private static Map<String, String> lastSummary(Table table) {
    List<TableInfo.SnapshotInfo> snapshots = table.refresh().info().snapshots();
    return snapshots.get(snapshots.size() - 1).summary();
  }

  private static String name(TestInfo test) {
    return "w." + test.getTestMethod().orElseThrow().getName();
  }
}
