package dev.timelake.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.AppendResult;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append whose rows already lie in (partition, series key, time) order with no key twice is
 * written without sorting; anything else — rows out of order, a key twice — takes the sorting path.
 * Either way every file holds its rows in key order, copies are dropped, and late rows go to their
 * own files.
 */
class OrderedAppendTest {
  /** Three days of readings every 10 minutes for 5 tags. */
  private static final String READINGS =
      "SELECT 'tag' || (i % 5) AS tag, TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_minutes(CAST((i"
          + " // 5) * 10 AS BIGINT)) AS time, i / 4.0 AS value FROM range(2160) t(i)";

  @TempDir Path folder;

  @Test
  void rowsAlreadyInFileOrderAreWrittenWithoutSorting() throws Exception {
    Path sorted =
        TestTables.duckdbParquet(
            folder,
            "sorted",
            "SELECT * FROM (" + READINGS + ") ORDER BY CAST(time AS DATE), tag, time");
    try (Lake lake = Lake.open(folder.resolve("wh"))) {
      Table table = lake.createTable(TestTables.tagReadings("iot.r").build());
      List<String> progress = new ArrayList<>();
      AppendResult result = table.newAppend().progress(progress::add).fromFile(sorted).commit();

      assertThat(result.rows()).isEqualTo(2160);
      assertThat(progress).anyMatch(line -> line.contains("writing without sorting"));
      assertThat(TestTables.dataFiles(table)).hasSize(3).allMatch(OrderedAppendTest::inKeyOrder);
      assertThat(TestTables.query(lake, "SELECT count(*), sum(value) FROM iot.r"))
          .containsExactly(List.of(2160L, 2160 * 2159 / 2 / 4.0));
    }
  }

  @Test
  void rowsOutOfOrderAreSortedIntoTheirFiles() throws Exception {
    Path byTime = TestTables.duckdbParquet(folder, "by-time", READINGS + " ORDER BY time, tag");
    try (Lake lake = Lake.open(folder.resolve("wh"))) {
      Table table = lake.createTable(TestTables.tagReadings("iot.r").build());
      List<String> progress = new ArrayList<>();
      AppendResult result = table.newAppend().progress(progress::add).fromFile(byTime).commit();

      assertThat(result.rows()).isEqualTo(2160);
      assertThat(progress).noneMatch(line -> line.contains("without sorting"));
      assertThat(TestTables.dataFiles(table)).hasSize(3).allMatch(OrderedAppendTest::inKeyOrder);
    }
  }

  @Test
  void orderedRowsWithAKeyTwiceTakeTheSortingPath() throws Exception {
    // Sorted, but one reading sent twice: the copy is dropped on the sorting path.
    Path twice =
        TestTables.duckdbParquet(
            folder,
            "twice",
            "SELECT * FROM (SELECT * FROM ("
                + READINGS
                + ") UNION ALL SELECT 'tag0', TIMESTAMPTZ"
                + " '2026-01-01 00:00:00+00', -1.0) ORDER BY CAST(time AS DATE), tag, time,"
                + " value");
    try (Lake lake = Lake.open(folder.resolve("wh"))) {
      Table table =
          lake.createTable(
              dev.timelake.TableDefinition.builder("iot.r")
                  .column("tag", dev.timelake.ColumnType.VARCHAR)
                  .column("time", dev.timelake.ColumnType.TIMESTAMPTZ)
                  .column("value", dev.timelake.ColumnType.DOUBLE)
                  .timeColumn("time")
                  .seriesKey("tag")
                  .option("auto-maintain", "false")
                  .build());
      List<String> progress = new ArrayList<>();
      AppendResult copies = table.newAppend().progress(progress::add).fromFile(twice).commit();
      assertThat(copies.rows()).isEqualTo(2160);
      assertThat(copies.copiesDropped()).isEqualTo(1);
      assertThat(progress).noneMatch(line -> line.contains("without sorting"));
      assertThat(TestTables.dataFiles(table)).allMatch(OrderedAppendTest::inKeyOrder);
    }
  }

  @Test
  void orderedLateRowsGoToTheirOwnFilesInKeyOrder() throws Exception {
    Path first =
        TestTables.duckdbParquet(
            folder,
            "first",
            "SELECT * FROM ("
                + READINGS
                + ") WHERE time < TIMESTAMPTZ '2026-01-01 12:00:00+00' ORDER BY tag, time");
    // The whole first day again, in order: its first half is late (and copies), the rest fresh.
    Path again =
        TestTables.duckdbParquet(
            folder,
            "again",
            "SELECT tag, time, value + 1000 AS value FROM ("
                + READINGS
                + ") WHERE time < TIMESTAMPTZ '2026-01-02 00:00:00+00' ORDER BY tag, time");
    try (Lake lake = Lake.open(folder.resolve("wh"))) {
      Table table = lake.createTable(TestTables.tagReadings("iot.r").build());
      table.newAppend().fromFile(first).commit();
      List<String> progress = new ArrayList<>();
      AppendResult result = table.newAppend().progress(progress::add).fromFile(again).commit();

      assertThat(progress).anyMatch(line -> line.contains("writing without sorting"));
      assertThat(result.rows()).isEqualTo(720);
      assertThat(result.lateRows()).isEqualTo(360);
      assertThat(TestTables.dataFiles(table))
          .hasSize(3)
          .allMatch(OrderedAppendTest::inKeyOrder)
          .anyMatch(file -> file.getFileName().toString().startsWith("late-"));
      // The resent rows won: every reading of the first day has its new value.
      assertThat(
              TestTables.query(
                  lake,
                  "SELECT count(*) FROM iot.r WHERE value < 1000 AND time < TIMESTAMPTZ '2026-01-02 00:00:00+00'"))
          .containsExactly(List.of(0L));
    }
  }

  /** True when the file's rows are in (tag, time) order, as they lie in it. */
  private static boolean inKeyOrder(Path file) {
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement();
        ResultSet out =
            statement.executeQuery(
                "SELECT count(*) FILTER (WHERE previous_time IS NOT NULL AND (tag, time) <"
                    + " (previous_tag, previous_time))"
                    + " FROM (SELECT tag, time, lag(tag) OVER (ORDER BY file_row_number) AS"
                    + " previous_tag, lag(time) OVER (ORDER BY file_row_number) AS previous_time"
                    + " FROM read_parquet('"
                    + file
                    + "', file_row_number = true))")) {
      out.next();
      return out.getLong(1) == 0;
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
