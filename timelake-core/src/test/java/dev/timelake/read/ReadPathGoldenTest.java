package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ExternalIcebergAppend;
import dev.timelake.Lake;
import dev.timelake.QueryPlan;
import dev.timelake.QueryResult;
import dev.timelake.RollupRoute;
import dev.timelake.Session;
import dev.timelake.TransactionState;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read path's decisions and answers as golden text files under {@code
 * src/test/resources/readpath}, as the routing decisions are: each case is {@code query}, a
 * statement, {@code ----}, the plan (one line per table reference — files read of those before
 * pruning, partitions, overlap groups, dedup strategy, pruning filter, key filter — then the
 * last-value index, the newest-first bound and the routes), {@code rows} and the rows, up to a
 * blank line. A case may start with {@code setup} and statements, one a line, run in the session
 * before its query (their results unchecked); a transaction a case leaves open ({@code BEGIN} in
 * its setup) is rolled back after it, so its held rows are seen by that case alone, while anything
 * else a setup changes stays for the cases after it. The lake is built here, the same every run:
 * three days of readings of three tags in daily partitions, late copies of the first day's first
 * hour, and an hourly rollup ({@code reads.test}); then, in namespaces of their own so that the
 * plans and routes of reads.test stay as they are, tables with an ordered index ({@code
 * index.test}), a table another engine appended to ({@code external.test}), a table for rows held
 * in a transaction ({@code transaction.test}), a table with an hourly rollup and a daily rollup of
 * that rollup ({@code rollups.test}) and tables with deleted rows and rollups ({@code
 * deletes.test}). Run with {@code -Dtimelake.golden.update=true} to write the actual plans and rows
 * into the files (then review the diff).
 */
class ReadPathGoldenTest {
  @TempDir static Path directory;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void buildTheLake() {
    lake = Lake.open(directory.resolve("warehouse"));
    session = lake.newSession();
    run(
        "CREATE TABLE iot.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
            + " 'time', series_key = 'tag', chunk = '1 day', auto_maintain = false)");
    for (int day = 1; day <= 3; day++) {
      run(
          "INSERT INTO iot.r SELECT 'tag' || (i % 3), TIMESTAMPTZ '2026-01-0"
              + day
              + " 00:00:00+00' + to_minutes(i), i + "
              + (day * 1000)
              + " FROM range(240) t(i)");
    }
    run(
        "INSERT INTO iot.r SELECT 'tag' || (i % 3), TIMESTAMPTZ '2026-01-01 00:00:00+00'"
            + " + to_minutes(i), -i FROM range(60) t(i)");
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time)"
            + " AS bucket, max(value) AS max_value, count(*) AS n FROM iot.r GROUP BY tag, bucket");
    buildTheOtherTables();
  }

  /** The tables of the files other than reads.test, none of them a rollup of iot.r. */
  private static void buildTheOtherTables() {
    // index.test: one-minute bars of two symbols, 90 minutes from 14:30 on two days (closes m and
    // 500 + m on the 2nd, 1000 + m and 1500 + m on the 5th); and quotes whose newest write per
    // symbol and minute replaces the others.
    run(
        "CREATE TABLE market.bars (symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE) WITH"
            + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m',"
            + " auto_maintain = false)");
    for (String day : List.of("02", "05")) {
      run(
          "INSERT INTO market.bars SELECT s, TIMESTAMPTZ '2026-01-"
              + day
              + " 14:30:00+00' + to_minutes(m), m + o + "
              + (day.equals("02") ? 0 : 1000)
              + " FROM (VALUES ('AAPL', 0), ('NVDA', 500)) v(s, o), range(90) t(m)");
    }
    run(
        "CREATE TABLE market.quotes (symbol VARCHAR, ts TIMESTAMPTZ, price DOUBLE) WITH"
            + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m',"
            + " on_conflict = 'replace', auto_maintain = false)");
    run(
        "INSERT INTO market.quotes SELECT 'A', TIMESTAMPTZ '2026-01-02 10:00:10+00' +"
            + " to_minutes(m), m FROM range(6) t(m)");
    run(
        "INSERT INTO market.quotes VALUES ('A', '2026-01-02 10:02:50+00', 102),"
            + " ('A', '2026-01-02 10:04:00+00', 104)");

    // external.test: ten minutes of a, b and c from 10:00 (value m), then another engine's append
    // (a at 10:00 claiming an insertion in 2000, b at 10:05 claiming 2100, a new device d), then
    // Timelake's own write of b at 10:05.
    run(
        "CREATE TABLE ext.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
            + " 'time', series_key = 'device', chunk = '1 day', auto_maintain = false)");
    run(
        "INSERT INTO ext.r SELECT d, TIMESTAMPTZ '2026-01-01 10:00:00+00' + to_minutes(m), m"
            + " FROM (VALUES ('a'), ('b'), ('c')) v(d), range(10) t(m)");
    OffsetDateTime ten = OffsetDateTime.parse("2026-01-01T10:00:00Z");
    ExternalIcebergAppend.append(
        directory.resolve("warehouse"),
        "ext",
        "r",
        List.of(
            external("a", ten, 100.0, OffsetDateTime.parse("2000-01-01T00:00:00Z")),
            external("b", ten.plusMinutes(5), 200.0, OffsetDateTime.parse("2100-01-01T00:00:00Z")),
            external("d", ten, 7.0, OffsetDateTime.parse("2000-01-01T00:00:00Z"))));
    run("INSERT INTO ext.r VALUES ('b', '2026-01-01 10:05:00+00', 2000)");

    // transaction.test: five minutes of a and b from 10:00 (value m), committed.
    run(
        "CREATE TABLE tx.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
            + " 'time', series_key = 'device', chunk = '1 day', auto_maintain = false)");
    run(
        "INSERT INTO tx.r SELECT d, TIMESTAMPTZ '2026-01-01 10:00:00+00' + to_minutes(m), m"
            + " FROM (VALUES ('a'), ('b')) v(d), range(5) t(m)");

    // rollups.test: three tags every 30 minutes for three days (value: the slot of the day plus
    // 1000 × the day), an hourly rollup and a daily rollup of the hourly one.
    run(
        "CREATE TABLE roll.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
            + " 'time', series_key = 'tag', chunk = '1 day', auto_maintain = false)");
    run(
        "INSERT INTO roll.r SELECT t, TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_minutes(30 * i),"
            + " i % 48 + 1000 * (i // 48 + 1) FROM (VALUES ('t0'), ('t1'), ('t2')) v(t),"
            + " range(144) r(i)");
    run(
        "CREATE MATERIALIZED ROLLUP roll.r_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time)"
            + " AS bucket, max(value) AS max_value, sum(value) AS total, count(*) AS n FROM roll.r"
            + " GROUP BY tag, bucket");
    run(
        "CREATE MATERIALIZED ROLLUP roll.r_1d AS SELECT tag, time_bucket(INTERVAL '1 day', bucket)"
            + " AS day, max(max_value) AS max_value, sum(n) AS n FROM roll.r_1h GROUP BY tag, day");

    // deletes.test: a, b and c every 10 minutes for a day (value m, 0..143) and an hourly rollup;
    // every row of c deleted and the rollup refreshed, then b's rows from 06:00 to 08:30 deleted.
    run(
        "CREATE TABLE del.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
            + " 'time', series_key = 'device', chunk = '1 day', auto_maintain = false)");
    run(
        "INSERT INTO del.r SELECT d, TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_minutes(10 * m), m"
            + " FROM (VALUES ('a'), ('b'), ('c')) v(d), range(144) t(m)");
    run(
        "CREATE MATERIALIZED ROLLUP del.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, count(*) AS n, sum(value) AS total FROM del.r GROUP BY device,"
            + " bucket");
    run("DELETE FROM del.r WHERE device = 'c'");
    run("REFRESH MATERIALIZED ROLLUP del.r_1h");
    run(
        "DELETE FROM del.r WHERE device = 'b' AND time >= TIMESTAMPTZ '2026-01-01 06:00:00+00'"
            + " AND time < TIMESTAMPTZ '2026-01-01 08:30:00+00'");
    // And a, b and c every hour of a day (value: the hour) with an hourly rollup, every row of c
    // deleted, the rollup not refreshed since.
    run(
        "CREATE TABLE del.k (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
            + " 'time', series_key = 'device', chunk = '1 day', auto_maintain = false)");
    run(
        "INSERT INTO del.k SELECT d, TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_hours(h), h"
            + " FROM (VALUES ('a'), ('b'), ('c')) v(d), range(24) t(h)");
    run(
        "CREATE MATERIALIZED ROLLUP del.k_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, count(*) AS n, sum(value) AS total FROM del.k GROUP BY device,"
            + " bucket");
    run("DELETE FROM del.k WHERE device = 'c'");
  }

  /** A row of another engine's append to ext.r, with the insertion time that engine wrote. */
  private static Map<String, Object> external(
      String device, OffsetDateTime time, double value, OffsetDateTime ingest) {
    return Map.of("device", device, "time", time, "value", value, "_ingest_ts", ingest);
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @TestFactory
  Stream<DynamicTest> plansAndRowsMatchTheGoldenFiles() throws IOException, URISyntaxException {
    Path folder = Path.of(Objects.requireNonNull(getClass().getResource("/readpath")).toURI());
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".test")).sorted().toList()) {
        tests.add(DynamicTest.dynamicTest(file.getFileName().toString(), () -> check(file)));
      }
    }
    return tests.stream();
  }

  private static void check(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    List<String> updated = new ArrayList<>();
    List<String> setup = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      if (lines.get(i).equals("setup")) {
        updated.add(lines.get(i++));
        while (i < lines.size() && !lines.get(i).equals("query")) {
          setup.add(lines.get(i));
          updated.add(lines.get(i++));
        }
        continue;
      }
      if (!lines.get(i).equals("query")) {
        updated.add(lines.get(i++));
        continue;
      }
      int separator = lines.subList(i, lines.size()).indexOf("----") + i;
      int rowsAt = lines.subList(separator, lines.size()).indexOf("rows") + separator;
      int end = rowsAt;
      while (end < lines.size() && !lines.get(end).isBlank()) {
        end++;
      }
      String statement = String.join("\n", lines.subList(i + 1, separator));
      List<String> actual;
      try {
        setup.forEach(ReadPathGoldenTest::run);
        actual = actual(statement);
      } finally {
        setup.clear();
        if (session.transactionState() != TransactionState.IDLE) {
          run("ROLLBACK");
        }
      }
      List<String> expected = new ArrayList<>(lines.subList(separator + 1, rowsAt));
      expected.add("rows");
      expected.addAll(lines.subList(rowsAt + 1, end));
      updated.addAll(lines.subList(i, separator + 1));
      if (Boolean.getBoolean("timelake.golden.update")) {
        updated.addAll(actual);
      } else {
        assertThat(actual).as("%s: %s", file.getFileName(), statement).isEqualTo(expected);
        updated.addAll(expected);
      }
      i = end;
    }
    if (Boolean.getBoolean("timelake.golden.update")) {
      Path source = Path.of("src/test/resources/readpath").resolve(file.getFileName().toString());
      Files.write(source, updated, StandardCharsets.UTF_8);
    }
  }

  /** The plan's decisions, without snapshot ids or file names, then "rows" and the rows. */
  private static List<String> actual(String statement) {
    List<String> lines = new ArrayList<>();
    try (QueryResult result = session.sql(statement)) {
      QueryPlan plan = result.plan();
      for (QueryPlan.TableRead read : plan.reads()) {
        lines.add(
            String.format(
                "read %s: %d of %d files, %d partitions, %d overlap groups (%d files), dedup %s,"
                    + " pruning %s, key filter %s",
                read.table(),
                read.filesRead(),
                read.filesBeforePruning(),
                read.partitionsRead(),
                read.overlapGroups(),
                read.filesInOverlapGroups(),
                read.dedup(),
                read.pruningFilter().orElse("none"),
                read.keyFilter().orElse("none")));
      }
      plan.latestIndex()
          .ifPresent(index -> lines.add("latest rows from the index of " + index.table()));
      plan.newestFirst()
          .ifPresent(
              bound ->
                  lines.add(
                      (bound.descending() ? "newest" : "oldest")
                          + " first: "
                          + bound.limit()
                          + " rows of "
                          + bound.table()
                          + " within "
                          + bound.bound()));
      for (RollupRoute route : plan.routes()) {
        lines.add(
            "route "
                + route.table()
                + ": "
                + (route.isRouted()
                    ? route.rollups().stream()
                        .map(Object::toString)
                        .collect(Collectors.joining(", "))
                    : "not routed (" + route.reason().orElse("") + ")"));
      }
      lines.add("rows");
      for (List<Object> row : result.rows()) {
        lines.add(row.stream().map(String::valueOf).collect(Collectors.joining(" | ")));
      }
    }
    return lines;
  }

  private static void run(String sql) {
    session.sql(sql).close();
  }
}
