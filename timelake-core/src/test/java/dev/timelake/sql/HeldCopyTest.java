package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.CsvInput;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import dev.timelake.TestRandom;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A COPY handed to a session's tier (staged and checked as any COPY, then read back as a batch)
 * writes exactly what the same COPY commits: random CSVs with copies of a key in one file, late
 * rows, NULLs, dates and local timestamps, and some bad values, go into two like tables, one
 * session with a tier and one without; each COPY succeeds or fails alike, and the tables end equal.
 * Replay a failure with {@code -Dtests.seed=…}.
 */
class HeldCopyTest extends WithLakeSession {
  private static final String COLUMNS =
      "(tag VARCHAR NOT NULL, time TIMESTAMPTZ NOT NULL, i INTEGER, b BIGINT, d DOUBLE, f FLOAT,"
          + " ok BOOLEAN, day DATE, ts TIMESTAMP, s VARCHAR)";
  private static final String READ = "tag, time, i, b, d, f, ok, day, ts, s";

  @Test
  void heldCopiesWriteWhatCopiesThroughTheEngineWrite() throws IOException {
    TestRandom random = TestRandom.create();
    createBoth();
    int failures = 0;
    try (TestTier tier = new TestTier(lake);
        Session tiered = lake.newSession().holdWritesIn(tier)) {
      for (int n = 0; n < 20; n++) {
        Path csv = csv(random, n);
        String heldAnswer = copy(tiered, "held", csv);
        String plainAnswer = copy(session, "plain", csv);
        assertThat(heldAnswer.replace("t.held", "t.?"))
            .as("%s (%s)", Files.readString(csv), random)
            .isEqualTo(plainAnswer.replace("t.plain", "t.?"));
        failures += heldAnswer.startsWith("error") ? 1 : 0;
      }
      tiered.sql("SELECT count(*) FROM t.held").close(); // a read commits what is held
      assertThat(rows("SELECT " + READ + " FROM t.held ORDER BY tag, time"))
          .as("tables (%s)", random)
          .isEqualTo(rows("SELECT " + READ + " FROM t.plain ORDER BY tag, time"));
      assertThat(tier.held()).as("copies held (%s)", random).hasSizeGreaterThan(8);
    }
    assertThat(failures).as("copies refused (%s)", random).isGreaterThan(0);
  }

  @Test
  void aCopyInATransactionOrWithTheTierOffOrTooLargeIsCommittedAsBefore() throws IOException {
    createBoth();
    Path small = warehouse.resolve("small.csv");
    Files.writeString(small, "tag,time,d\na,2026-01-01 00:00:00+00,1.5\n");
    try (TestTier tier = new TestTier(lake);
        Session tiered = lake.newSession().holdWritesIn(tier)) {
      tiered.sql("BEGIN").close();
      assertThat(copy(tiered, "held", small)).isEqualTo("rows 1");
      tiered.sql("COMMIT").close();
      tiered.sql("SET timelake.hot_tier = off").close();
      assertThat(copy(tiered, "held", small)).isEqualTo("rows 1");
      tiered.sql("SET timelake.hot_tier = on").close();
      Path large = warehouse.resolve("large.csv");
      Files.writeString(large, bigCsv());
      assertThat(copy(tiered, "held", large))
          .isEqualTo("rows " + (dev.timelake.write.HeldColumns.MAX_ROWS + 1));
      assertThat(tier.held()).as("nothing held").isEmpty();
      assertThat(copy(tiered, "held", small)).isEqualTo("rows 1");
      assertThat(tier.held()).as("then held").containsExactly(1);
      try (QueryResult count = tiered.sql("SELECT count(*) FROM t.held")) {
        assertThat(count.rows())
            .as("read after a commit of what is held")
            .containsExactly(List.of(dev.timelake.write.HeldColumns.MAX_ROWS + 2L));
      }
    }
  }

  @Test
  void anInfiniteTimestampIsCommittedAsBefore() throws IOException {
    createBoth();
    Path csv = warehouse.resolve("infinite.csv");
    Files.writeString(csv, "tag,time,ts\na,2026-01-01 00:00:00+00,infinity\n");
    try (TestTier tier = new TestTier(lake);
        Session tiered = lake.newSession().holdWritesIn(tier)) {
      assertThat(copy(tiered, "held", csv)).isEqualTo(copy(session, "plain", csv));
      assertThat(tier.held()).isEmpty();
    }
    assertThat(rows("SELECT " + READ + " FROM t.held"))
        .isEqualTo(rows("SELECT " + READ + " FROM t.plain"));
  }

  private void createBoth() {
    run("CREATE TABLE t.held " + COLUMNS + " WITH (time_column = 'time', series_key = 'tag')");
    run("CREATE TABLE t.plain " + COLUMNS + " WITH (time_column = 'time', series_key = 'tag')");
  }

  private static String bigCsv() {
    StringBuilder csv = new StringBuilder("tag,time,d\n");
    java.time.Instant start = java.time.Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 0; i <= dev.timelake.write.HeldColumns.MAX_ROWS; i++) {
      csv.append("b,").append(start.plusSeconds(i)).append(",1\n");
    }
    return csv.toString();
  }

  /** What COPY of {@code csv} into {@code t.<table>} says: its row count, or the error. */
  private static String copy(Session on, String table, Path csv) {
    try (QueryResult result = on.copyFrom(new TableName("t", table), CsvInput.of(csv))) {
      return "rows " + result.rowCount().orElse(-1);
    } catch (dev.timelake.TimelakeException e) {
      return "error: " + e.getMessage();
    }
  }

  /**
   * One to five rows of a few tags and a few seconds (so that keys repeat within a file and across
   * files, later files writing late rows), every value but the key drawn; in one file of four, one
   * value is a bad one.
   */
  private Path csv(TestRandom random, int n) throws IOException {
    List<List<String>> rows = new ArrayList<>();
    for (int r = 1 + random.nextInt(5); r > 0; r--) {
      List<String> values = new ArrayList<>();
      values.add("tag" + random.nextInt(3));
      values.add("2026-01-0" + (1 + random.nextInt(2)) + " 00:00:0" + random.nextInt(4) + "+00");
      values.add(pick(random, "", "7", "-3", "2147483647"));
      values.add(pick(random, "", "9007199254740993", "-1", "9223372036854775807"));
      values.add(pick(random, "", "1.5", "0.1", "-0.0", "1e300", "123456789012.125", "nan"));
      values.add(pick(random, "", "16777217", "0.1", "3.4e38"));
      values.add(pick(random, "", "true", "false", "t", "0"));
      values.add(pick(random, "", "2026-02-28", "1969-12-31"));
      values.add(pick(random, "", "2026-01-05 10:00:00", "1900-01-01 00:00:00.000001"));
      values.add(pick(random, "", "plain", "\"quoted, with comma\"", "ünïcode"));
      rows.add(values);
    }
    if (random.nextInt(4) == 0) {
      List<String> row = rows.get(random.nextInt(rows.size()));
      int column = random.nextInt(8);
      row.set(
          column,
          List.of("", "", "x", "2147483648", "1e999", "3.5e38", "maybe", "2026-02-30").get(column));
    }
    StringBuilder csv = new StringBuilder("tag,time,i,b,d,f,ok,day,ts,s\n");
    rows.forEach(row -> csv.append(String.join(",", row)).append('\n'));
    Path file = warehouse.resolve("copy-" + n + ".csv");
    Files.writeString(file, csv.toString());
    return file;
  }

  private static String pick(TestRandom random, String... values) {
    return values[random.nextInt(values.length)];
  }
}
