package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryPlan;
import dev.timelake.QueryResult;
import dev.timelake.RollupRoute;
import dev.timelake.Session;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * blank line. The lake is built here, the same every run: three days of readings of three tags in
 * daily partitions, late copies of the first day's first hour, and an hourly rollup. Run with
 * {@code -Dtimelake.golden.update=true} to write the actual plans and rows into the files (then
 * review the diff).
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
    int i = 0;
    while (i < lines.size()) {
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
      List<String> actual = actual(statement);
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
