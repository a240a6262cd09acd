package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.TableName;
import dev.timelake.TestRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An append handed to a tier ({@link Append#holdIn}) is checked as any append (the same verdicts
 * and errors) and writes exactly what the same append commits: random rows with copies of a key in
 * one append and across appends, late rows, NULLs and some bad values go into two like tables, one
 * append held and one committed; each succeeds or fails alike, and the tables end equal. Rows of
 * Java values of their columns' types are held as they are; others (times as text) are staged and
 * checked in the engine first. Appends the tier does not take commit as before. Replay a failure
 * with {@code -Dtests.seed=…}.
 */
class HeldAppendTest extends WithLakeSession {
  private static final String COLUMNS =
      "(tag VARCHAR NOT NULL, time TIMESTAMPTZ NOT NULL, i INTEGER, d DOUBLE, day DATE, s VARCHAR)";
  private static final String READ = "tag, time, i, d, day, s";
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void heldAppendsWriteWhatCommittedAppendsWrite() {
    TestRandom random = TestRandom.create();
    createBoth();
    int failures = 0;
    try (TestTier tier = new TestTier(lake)) {
      for (int n = 0; n < 20; n++) {
        List<Object[]> rows = rows(random);
        String held = append(lake.table(table("held")).newAppend().holdIn(tier), rows);
        String plain = append(lake.table(table("plain")).newAppend(), rows);
        assertThat(held.replace("t.held", "t.?"))
            .as("%s (%s)", describe(rows), random)
            .isEqualTo(plain.replace("t.plain", "t.?").replace("COMMITTED", "HELD"));
        failures += held.startsWith("error") ? 1 : 0;
      }
      assertThat(tier.held()).as("appends held (%s)", random).hasSizeGreaterThan(8);
      assertThat(rows("SELECT count(*) FROM t.held"))
          .as("nothing committed while held")
          .containsExactly(List.of(0L));
      tier.commitHeld();
      assertThat(rows("SELECT " + READ + " FROM t.held ORDER BY tag, time"))
          .as("tables (%s)", random)
          .isEqualTo(rows("SELECT " + READ + " FROM t.plain ORDER BY tag, time"));
    }
    assertThat(failures).as("appends refused (%s)", random).isGreaterThan(0);
  }

  @Test
  void anAppendTheTierDoesNotTakeCommitsAsBefore() {
    createBoth();
    run(
        "CREATE TABLE t.off "
            + COLUMNS
            + " WITH (time_column = 'time', series_key = 'tag', hot_tier = false)");
    run(
        "CREATE TABLE t.indexed "
            + COLUMNS
            + " WITH (time_column = 'time', series_key = 'tag', index_granularity = '1 second')");
    Object[] row = {"a", START, 1, 1.5, null, "x"};
    try (TestTier tier = new TestTier(lake)) {
      assertThat(outcome(lake.table(table("held")).newAppend().holdIn(tier).batchId("b1"), row))
          .as("a batch id")
          .isEqualTo(AppendResult.Outcome.COMMITTED);
      assertThat(
              outcome(
                  lake.table(table("held"))
                      .newAppend()
                      .holdIn(tier)
                      .clock(Clock.fixed(START, ZoneOffset.UTC)),
                  row))
          .as("its own clock")
          .isEqualTo(AppendResult.Outcome.COMMITTED);
      assertThat(outcome(lake.table(table("held")).newUpsert().holdIn(tier), row))
          .as("an upsert")
          .isEqualTo(AppendResult.Outcome.COMMITTED);
      assertThat(
              lake.table(table("held"))
                  .newAppend()
                  .holdIn(tier)
                  .row(java.util.Map.of("tag", "a", "time", START, "_ingest_ts", START))
                  .commit()
                  .outcome())
          .as("insertion times of its own")
          .isEqualTo(AppendResult.Outcome.COMMITTED);
      assertThat(outcome(lake.table(table("off")).newAppend().holdIn(tier), row))
          .as("hot_tier = false")
          .isEqualTo(AppendResult.Outcome.COMMITTED);
      assertThat(outcome(lake.table(table("indexed")).newAppend().holdIn(tier), row))
          .as("an index granularity")
          .isEqualTo(AppendResult.Outcome.COMMITTED);
      Append large = lake.table(table("held")).newAppend().holdIn(tier);
      for (int i = 0; i <= dev.timelake.write.HeldColumns.MAX_ROWS; i++) {
        large.row("b", START.plusSeconds(i), 1, 1.0, null, null);
      }
      assertThat(large.commit().outcome())
          .as("too many rows")
          .isEqualTo(AppendResult.Outcome.COMMITTED);
      assertThat(tier.held()).as("nothing held").isEmpty();
      assertThat(outcome(lake.table(table("held")).newAppend().holdIn(tier), row))
          .isEqualTo(AppendResult.Outcome.HELD);
      assertThat(tier.held()).containsExactly(1);
    }
    assertThat(rows("SELECT count(*) FROM t.held"))
        .as("the tier's rows committed when it closed")
        .containsExactly(List.of(dev.timelake.write.HeldColumns.MAX_ROWS + 2L));
  }

  private void createBoth() {
    run("CREATE TABLE t.held " + COLUMNS + " WITH (time_column = 'time', series_key = 'tag')");
    run("CREATE TABLE t.plain " + COLUMNS + " WITH (time_column = 'time', series_key = 'tag')");
  }

  private static TableName table(String name) {
    return new TableName("t", name);
  }

  private static AppendResult.Outcome outcome(Append append, Object[] row) {
    return append.row(row).commit().outcome();
  }

  /** What the append reports: its outcome, rows and copies, or the error. */
  private static String append(Append append, List<Object[]> rows) {
    rows.forEach(append::row);
    try {
      AppendResult result = append.commit();
      return result.outcome() + " rows " + result.rows() + " copies " + result.copiesDropped();
    } catch (dev.timelake.TimelakeException e) {
      return "error: " + e.getMessage();
    }
  }

  /**
   * One to five rows of a few tags and a few seconds (keys repeat within an append and across them,
   * later appends writing late rows), every value but the key drawn; in one append of four, one
   * value is a bad one.
   */
  private static List<Object[]> rows(TestRandom random) {
    List<Object[]> rows = new ArrayList<>();
    // Some appends send the time as text, which only the engine parses: staged, then held.
    boolean text = random.nextInt(3) == 0;
    for (int r = 1 + random.nextInt(5); r > 0; r--) {
      Instant time = START.plusSeconds(random.nextInt(4) + 86_400L * random.nextInt(2));
      rows.add(
          new Object[] {
            "tag" + random.nextInt(3),
            text ? time.toString() : time,
            pick(random, null, 7, -3, Integer.MAX_VALUE, (short) -12),
            pick(random, null, 1.5, 0.1, -0.0, 1e300, Double.NaN, 0.1f, 16_777_217),
            pick(
                random,
                null,
                LocalDate.of(2026, 2, 28),
                LocalDate.of(1969, 12, 31),
                LocalDate.of(1, 1, 1),
                LocalDate.of(9999, 12, 31)),
            pick(random, null, "plain", "quoted, with comma", "ünïcode", "drop 💧", "")
          });
    }
    if (random.nextInt(4) == 0) {
      Object[] row = rows.get(random.nextInt(rows.size()));
      int column = random.nextInt(4);
      row[column] = new Object[] {null, null, "x", 2147483648L}[column];
    }
    return rows;
  }

  private static String describe(List<Object[]> rows) {
    return rows.stream().map(Arrays::toString).toList().toString();
  }

  private static Object pick(TestRandom random, Object... values) {
    return values[random.nextInt(values.length)];
  }
}
