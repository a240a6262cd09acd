package dev.timelake.read;

import static dev.timelake.TestTables.readings;
import static dev.timelake.TestTables.utc;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TestRandom;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** The latest write of a key wins on read: highest insertion time, then the later commit. */
class DedupOnReadTest {
  private static final Instant T = Instant.parse("2026-01-01T10:00:00Z");
  private static final Instant EARLY = Instant.parse("2026-02-01T00:00:00Z");
  private static final Instant LATE = Instant.parse("2026-02-02T00:00:00Z");

  @TempDir static Path warehouse;
  private static Lake lake;

  @BeforeAll
  static void openLake() {
    lake = Lake.open(warehouse);
  }

  @AfterAll
  static void closeLake() {
    lake.close();
  }

  @Test
  void lateCopyWithNewerInsertionTimeWins(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    append(table, EARLY, 1.0);
    append(table, LATE, 2.0);

    assertThat(values(table)).containsExactly(2.0);
  }

  @Test
  void laterCommitWinsWhenInsertionTimesAreEqual(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    append(table, EARLY, 1.0);
    append(table, EARLY, 2.0);

    assertThat(values(table)).containsExactly(2.0);
  }

  @Test
  void olderInsertionTimeInALaterCommitLoses(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    append(table, LATE, 1.0);
    append(table, EARLY, 2.0);

    assertThat(values(table)).containsExactly(1.0);
  }

  @Test
  void laterCommitWinsInTablesWithoutInsertionTime(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).withoutIngestTime().build());
    append(table, LATE, 1.0);
    append(table, EARLY, 2.0);

    assertThat(values(table)).containsExactly(2.0);
  }

  @Test
  void showsEveryCopyWhenTheSessionTurnsReadDedupOff(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    append(table, EARLY, 1.0);
    append(table, LATE, 2.0);

    try (Session session = lake.newSession()) {
      session.sql("SET timelake.read_dedup = false");
      try (QueryResult result =
          session.sql("SELECT value FROM " + table.name() + " ORDER BY value")) {
        assertThat(result.rows()).containsExactly(List.of(1.0), List.of(2.0));
        assertThat(result.explanation().get(0))
            .isEqualTo(table.name() + ": 2 of 2 files after pruning, no dedup");
      }
      session.sql("SET timelake.read_dedup = true");
      try (QueryResult result = session.sql("SELECT value FROM " + table.name())) {
        assertThat(result.rows()).containsExactly(List.of(2.0));
        assertThat(result.explanation().get(0))
            .isEqualTo(
                table.name()
                    + ": 2 of 2 files after pruning, 2 in 1 overlapping groups deduplicated");
      }
    }
  }

  @Test
  void sessionSettingOverridesTheTableSetting(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    append(table, EARLY, 1.0);
    append(table, LATE, 2.0);

    table.alter(Map.of("read-dedup", "false"));

    assertThat(values(table)).containsExactly(1.0, 2.0);
    try (Session session = lake.newSession().set("timelake.read_dedup", "on");
        QueryResult result = session.sql("SELECT value FROM " + table.name())) {
      assertThat(result.rows()).containsExactly(List.of(2.0));
    }
    table.alter(Map.of("read-dedup", ""));
    assertThat(values(table)).containsExactly(2.0);
  }

  @Test
  void tableWithoutDedupKeepsEveryCopy(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).option("dedup", "false").build());
    append(table, EARLY, 1.0);
    append(table, LATE, 2.0);

    assertThat(values(table)).containsExactly(1.0, 2.0);
  }

  @Test
  void filterOnAValueNeverBringsBackAnOlderCopy(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    append(table, EARLY, 100.0);
    append(table, LATE, 1.0);

    try (Session session = lake.newSession();
        QueryResult result =
            session.sql(
                "SELECT value FROM " + table.name() + " WHERE value > 50 AND device = 'a'")) {
      assertThat(result.rows()).isEmpty();
    }
  }

  @Test
  void readsFilesOfDisjointSeriesWithoutMerging(TestInfo test) {
    Table table = lake.createTable(readings(name(test)).build());
    table.newAppend().row("a", T, 1.0).commit();
    table.newAppend().row("b", T, 2.0).commit();
    table.newAppend().row("a", T.plus(2, ChronoUnit.DAYS), 3.0).commit();

    try (Session session = lake.newSession();
        QueryResult result = session.sql("SELECT count(*) FROM " + table.name())) {
      assertThat(result.rows()).containsExactly(List.of(3L));
      assertThat(result.explanation().get(0))
          .isEqualTo(
              table.name()
                  + ": 3 of 3 files after pruning, 0 in 0 overlapping groups deduplicated");
    }
  }

  @Test
  void keepsTheLatestWriteOfEveryKeyAcrossRandomAppends(TestInfo test) {
    TestRandom random = TestRandom.create();
    Table table = lake.createTable(readings(name(test)).build());
    Map<String, Write> latest = new TreeMap<>();
    long written = 0;
    for (int commit = 0; commit < 8; commit++) {
      Instant ingest = EARLY.plus(random.nextInt(4), ChronoUnit.HOURS);
      Append append = table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC));
      Map<String, Write> thisAppend = new TreeMap<>();
      for (int row = 0; row < 30; row++) {
        String device = "d" + random.nextInt(4);
        Instant time = T.plus(random.nextInt(40) * 90L, ChronoUnit.MINUTES);
        double value = random.nextInt(10_000) / 4.0;
        append.row(device, time, value);
        thisAppend.put(device + "|" + time, new Write(device, time, value, ingest, commit));
      }
      AppendResult result = append.commit();
      written += result.rows();
      assertThat(result.rows()).as("%s", random).isEqualTo(thisAppend.size());
      thisAppend.forEach((key, write) -> latest.merge(key, write, Write::latest));
    }

    List<List<Object>> expected = new ArrayList<>();
    latest
        .values()
        .forEach(write -> expected.add(List.of(write.device(), utc(write.time()), write.value())));
    for (String strategy : List.of("merge", "keys-first")) {
      try (Session session = lake.newSession().set("timelake.read_dedup_strategy", strategy);
          QueryResult result =
              session.sql(
                  "SELECT device, time, value FROM " + table.name() + " ORDER BY device, time")) {
        assertThat(result.rows()).as("%s with %s", random, strategy).isEqualTo(expected);
      }
    }
    try (Session session = lake.newSession().set("timelake.read_dedup", "false");
        QueryResult result = session.sql("SELECT count(*) FROM " + table.name())) {
      assertThat(result.rows()).as("%s", random).containsExactly(List.of(written));
    }
  }

  /** One write of a key: insertion time and commit order decide which copy is the latest. */
  private record Write(String device, Instant time, double value, Instant ingest, int commit) {
    Write latest(Write newer) {
      int byIngest = newer.ingest.compareTo(ingest);
      return byIngest > 0 || (byIngest == 0 && newer.commit > commit) ? newer : this;
    }
  }

  private static void append(Table table, Instant ingest, double value) {
    table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC)).row("a", T, value).commit();
  }

  private static List<Double> values(Table table) {
    List<Double> values = new ArrayList<>();
    try (Session session = lake.newSession();
        QueryResult result = session.sql("SELECT value FROM " + table.name() + " ORDER BY value")) {
      result.rows().forEach(row -> values.add((Double) row.get(0)));
    }
    return values;
  }

  private static String name(TestInfo test) {
    return "dedup." + test.getTestMethod().orElseThrow().getName();
  }
}
