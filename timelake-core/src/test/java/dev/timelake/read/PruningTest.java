package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryPlan;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File pruning by filters on the time and series-key columns. Every query's answer is compared with
 * the same query run by plain DuckDB on a table holding the expected rows (the oracle); the number
 * of files read is compared with what the known file layout allows.
 */
class PruningTest {
  private static final LocalDate FIRST_DAY = LocalDate.parse("2026-01-01");
  private static final int DAYS = 6;
  private static final List<String> TAGS = List.of("a", "b", "c");
  private static final int[] HOURS = {1, 7, 13, 19};

  /** One written data file: its series and day (1-based); late files rewrite some rows. */
  private record FileModel(String tag, int day, boolean late) {}

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;
  private static Connection oracle;
  private static final List<FileModel> files = new ArrayList<>();
  private static final List<FileModel> recentFiles = new ArrayList<>();
  private static Instant setupTime;

  @BeforeAll
  static void writeTables() throws SQLException {
    lake = Lake.open(warehouse);
    session = lake.newSession();
    oracle = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = oracle.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      statement.execute("CREATE SCHEMA iot");
      for (String name : List.of("m", "recent")) {
        statement.execute(
            "CREATE TABLE iot."
                + name
                + " (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE, _ingest_ts TIMESTAMPTZ)");
      }
    }
    writeDays();
    writeRecent();
  }

  /** Each tag in its own append over six days; then a late append rewrites two rows of b. */
  private static void writeDays() throws SQLException {
    Table table = lake.createTable(tagged("iot.m"));
    Map<String, Object[]> rows = new LinkedHashMap<>();
    Instant ingest = Instant.parse("2026-02-01T00:00:00Z");
    for (String tag : TAGS) {
      ingest = ingest.plusSeconds(60);
      Append append = table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC));
      for (int day = 1; day <= DAYS; day++) {
        for (int hour : HOURS) {
          Instant time = at(day, hour);
          double value = (TAGS.indexOf(tag) * 100 + day * 10 + hour) / 4.0;
          append.row(tag, time, value);
          rows.put(tag + time, new Object[] {tag, time, value, ingest});
        }
        files.add(new FileModel(tag, day, false));
      }
      append.commit();
    }
    ingest = ingest.plusSeconds(60);
    Append late = table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC));
    for (int hour : new int[] {7, 13}) {
      Instant time = at(3, hour);
      late.row("b", time, 100.0 + hour);
      rows.put("b" + time, new Object[] {"b", time, 100.0 + hour, ingest});
    }
    late.commit();
    files.add(new FileModel("b", 3, true));
    load("iot.m", rows.values());
  }

  /** Rows hours before now, none within four hours of two days ago. */
  private static void writeRecent() throws SQLException {
    setupTime = Instant.now().truncatedTo(ChronoUnit.MICROS);
    Table table = lake.createTable(tagged("iot.recent"));
    List<Object[]> rows = new ArrayList<>();
    for (String tag : List.of("x", "y")) {
      Append append = table.newAppend().clock(Clock.fixed(setupTime, ZoneOffset.UTC));
      Map<LocalDate, Instant> newestPerDay = new LinkedHashMap<>();
      for (int hoursAgo : new int[] {6, 20, 30, 44, 54, 66, 78, 102, 126}) {
        Instant time = setupTime.minus(Duration.ofHours(hoursAgo));
        append.row(tag, time, (double) hoursAgo);
        rows.add(new Object[] {tag, time, (double) hoursAgo, setupTime});
        newestPerDay.merge(
            time.atOffset(ZoneOffset.UTC).toLocalDate(), time, (a, b) -> a.isAfter(b) ? a : b);
      }
      append.commit();
      newestPerDay.forEach(
          (day, newest) ->
              recentFiles.add(
                  new FileModel(
                      tag, newest.isBefore(setupTime.minus(Duration.ofHours(48))) ? 0 : 1, false)));
    }
    load("iot.recent", rows);
  }

  @AfterAll
  static void close() throws SQLException {
    oracle.close();
    session.close();
    lake.close();
  }

  @Test
  void prunesByTimeRange() {
    check(
        "SELECT * FROM iot.m WHERE time >= '2026-01-02' AND time < '2026-01-04'",
        file -> file.day() == 2 || file.day() == 3);
  }

  @Test
  void prunesByBetweenInclusively() {
    check(
        "SELECT tag, time FROM iot.m WHERE time BETWEEN TIMESTAMPTZ '2026-01-02 19:00:00+00' AND"
            + " '2026-01-03 01:00:00+00'",
        // The late file holds 07:00 and 13:00 of day 3 only.
        file -> file.day() == 2 || (file.day() == 3 && !file.late()));
  }

  @Test
  void prunesByExclusiveBoundsAtFileEdges() {
    check(
        "SELECT tag, time FROM iot.m WHERE time > TIMESTAMPTZ '2026-01-02 19:00:00+00' AND time <"
            + " TIMESTAMPTZ '2026-01-04 01:00:00+00'",
        file -> file.day() == 3);
  }

  @Test
  void prunesByTimeEquality() {
    check(
        "SELECT * FROM iot.m WHERE time = TIMESTAMPTZ '2026-01-03 07:00:00+00'",
        file -> file.day() == 3);
  }

  @Test
  void prunesBySeriesKeyEquality() {
    check("SELECT * FROM iot.m WHERE tag = 'a'", file -> file.tag().equals("a"));
  }

  @Test
  void prunesBySeriesKeyList() {
    check(
        "SELECT tag, count(*), sum(value) FROM iot.m WHERE tag IN ('a', 'b') GROUP BY tag",
        file -> !file.tag().equals("c"));
  }

  @Test
  void prunesByASeriesKeyListFollowedByATimeRange() {
    // JSqlParser before 5.4 read this as tag IN ((…) AND time >= …), which hid both filters.
    check(
        "SELECT * FROM iot.m WHERE tag IN ('a', 'b') AND time >= '2026-01-05'",
        file -> !file.tag().equals("c") && file.day() >= 5);
  }

  @Test
  void prunesByReversedComparisons() {
    check("SELECT * FROM iot.m WHERE '2026-01-05' <= time", file -> file.day() >= 5);
    check(
        "SELECT * FROM iot.m WHERE TIMESTAMPTZ '2026-01-02 00:00:00+00' > time AND 'b' = tag",
        file -> file.day() == 1 && file.tag().equals("b"));
  }

  @Test
  void prunesByTimeAndSeriesKeyTogether() {
    check(
        "SELECT * FROM iot.m WHERE tag = 'b' AND time >= '2026-01-03' AND time < '2026-01-04'"
            + " ORDER BY time",
        file -> file.tag().equals("b") && file.day() == 3);
  }

  @Test
  void prunesByDisjunctionsOfPrunableTerms() {
    check(
        "SELECT * FROM iot.m WHERE time < '2026-01-02' OR time >= '2026-01-06'",
        file -> file.day() == 1 || file.day() == 6);
    check("SELECT * FROM iot.m WHERE tag = 'a' OR tag = 'c'", file -> !file.tag().equals("b"));
    check(
        "SELECT * FROM iot.m WHERE (tag = 'a' AND time < '2026-01-02') OR tag = 'c'",
        file -> file.tag().equals("c") || (file.tag().equals("a") && file.day() == 1));
  }

  @Test
  void prunesWithQualifiedColumnsOfAnAlias() {
    check(
        "SELECT m.* FROM iot.m AS m WHERE m.tag = 'a' AND m.time < '2026-01-03'",
        file -> file.tag().equals("a") && file.day() <= 2);
  }

  @Test
  void prunesInsideSubqueriesAndCommonTableExpressions() {
    check(
        "SELECT count(*) FROM (SELECT * FROM iot.m WHERE tag = 'c') s",
        file -> file.tag().equals("c"));
    check(
        "WITH early AS (SELECT * FROM iot.m WHERE time < '2026-01-03') SELECT tag, max(value)"
            + " FROM early GROUP BY tag",
        file -> file.day() <= 2);
  }

  @Test
  void prunesEachSideOfAUnionByItsOwnFilter() {
    String sql =
        "SELECT tag, time FROM iot.m WHERE tag = 'a' UNION ALL SELECT tag, time FROM iot.m WHERE"
            + " time >= '2026-01-06'";
    try (QueryResult result = session.sql(sql)) {
      assertThat(filesRead(result.plan(), "iot.m"))
          .containsExactly(count(file -> file.tag().equals("a")), count(file -> file.day() == 6));
      assertThat(sorted(result.rows())).isEqualTo(sorted(oracle(sql)));
    }
  }

  @Test
  void prunesEachSideOfAJoinByItsQualifiedFilters() {
    String sql =
        "SELECT x.tag, x.time, y.value FROM iot.m x JOIN iot.m y ON x.tag = y.tag AND x.time ="
            + " y.time WHERE x.tag = 'a' AND y.time < '2026-01-02'";
    try (QueryResult result = session.sql(sql)) {
      assertThat(filesRead(result.plan(), "iot.m"))
          .containsExactly(count(file -> file.tag().equals("a")), count(file -> file.day() == 1));
      assertThat(sorted(result.rows())).isEqualTo(sorted(oracle(sql)));
    }
  }

  @Test
  void prunesByQuotedNamesAsByBareOnes() {
    check(
        "SELECT count(*) FROM iot.m AS \"R\" WHERE \"R\".\"tag\" = 'a' AND \"r\".\"time\" <"
            + " '2026-01-03'",
        file -> file.tag().equals("a") && file.day() <= 2);
  }

  @Test
  void doesNotPruneByBoundsThatAreNotConstants() {
    String sql =
        "SELECT * FROM iot.m WHERE time >= (SELECT max(time) FROM iot.m) - INTERVAL '1 day'";
    try (QueryResult result = session.sql(sql)) {
      assertThat(filesRead(result.plan(), "iot.m")).containsExactly(files.size(), files.size());
      assertThat(sorted(result.rows())).isEqualTo(sorted(oracle(sql)));
    }
  }

  @Test
  void explainsThePlanOfAQuery() {
    try (QueryResult result = session.sql("EXPLAIN SELECT * FROM iot.m WHERE tag = 'c'")) {
      List<List<Object>> rows = result.rows();
      assertThat(result.columnNames()).containsExactly("part", "explain");
      assertThat(rows.get(0))
          .containsExactly(
              "timelake",
              "iot.m: 6 of 19 files after pruning, 0 in 0 overlapping groups deduplicated;"
                  + " pruning filter: ref(name=\"tag\") == \"c\"");
      assertThat(rows).extracting(row -> row.get(0)).contains("duckdb sql", "duckdb plan");
    }
  }

  @Test
  void doesNotPruneByValueColumns() {
    check("SELECT * FROM iot.m WHERE value > 30", file -> true);
    check("SELECT * FROM iot.m WHERE tag = 'a' OR value > 30", file -> true);
    check("SELECT * FROM iot.m WHERE NOT (time < '2026-01-06')", file -> true);
  }

  @Test
  void filtersOnValuesSeeOnlyTheLatestCopy() {
    // The late copies of b on day 3 have values above 100; their older copies are below 50.
    check("SELECT * FROM iot.m WHERE value < 50 AND tag = 'b'", file -> file.tag().equals("b"));
    check("SELECT count(*) FROM iot.m WHERE value BETWEEN 10 AND 60", file -> true);
  }

  @Test
  void prunesByALowerBoundRelativeToNow() {
    checkRecent(
        "SELECT * FROM iot.recent WHERE time >= now() - INTERVAL '2 days'",
        file -> file.day() == 1);
    checkRecent(
        "SELECT tag, count(*) FROM iot.recent WHERE time > current_timestamp - INTERVAL '48 hours'"
            + " GROUP BY tag",
        file -> file.day() == 1);
  }

  @Test
  void doesNotPruneByAnUpperBoundRelativeToNow() {
    // now() is evaluated before the query runs, so it is only safe as a lower bound.
    checkRecent("SELECT * FROM iot.recent WHERE time < now() - INTERVAL '2 days'", file -> true);
  }

  @Test
  void prunesEverythingOutsideTheData() {
    check("SELECT count(*), sum(value) FROM iot.m WHERE time >= '2027-01-01'", file -> false);
  }

  private static void check(String sql, Predicate<FileModel> read) {
    check(sql, "iot.m", files, read);
  }

  private static void checkRecent(String sql, Predicate<FileModel> read) {
    check(sql, "iot.recent", recentFiles, read);
  }

  private static void check(
      String sql, String table, List<FileModel> layout, Predicate<FileModel> read) {
    try (QueryResult result = session.sql(sql)) {
      List<List<Object>> rows = result.rows();
      assertThat(filesRead(result.plan(), table))
          .as("files read by %s (%s)", sql, result.plan())
          .containsExactly((int) layout.stream().filter(read).count());
      assertThat(result.plan().reads())
          .as("files before pruning in %s", result.plan())
          .extracting(QueryPlan.TableRead::filesBeforePruning)
          .containsOnly(layout.size());
      assertThat(sorted(rows)).as(sql).isEqualTo(sorted(oracle(sql)));
    }
  }

  private static int count(Predicate<FileModel> read) {
    return (int) files.stream().filter(read).count();
  }

  private static List<Integer> filesRead(QueryPlan plan, String table) {
    return plan.reads().stream()
        .filter(read -> read.table().toString().equals(table))
        .map(QueryPlan.TableRead::filesRead)
        .toList();
  }

  private static List<List<Object>> oracle(String sql) {
    try (Statement statement = oracle.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      List<List<Object>> rows = new ArrayList<>();
      while (result.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    } catch (SQLException e) {
      throw new AssertionError("Oracle failed on " + sql, e);
    }
  }

  private static List<String> sorted(List<List<Object>> rows) {
    return rows.stream().map(Object::toString).sorted().toList();
  }

  private static void load(String table, Iterable<Object[]> rows) throws SQLException {
    try (PreparedStatement insert =
        oracle.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
      for (Object[] row : rows) {
        insert.setObject(1, row[0]);
        insert.setObject(2, OffsetDateTime.ofInstant((Instant) row[1], ZoneOffset.UTC));
        insert.setObject(3, row[2]);
        insert.setObject(4, OffsetDateTime.ofInstant((Instant) row[3], ZoneOffset.UTC));
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  private static TableDefinition tagged(String name) {
    return TableDefinition.builder(name)
        .column("tag", ColumnType.VARCHAR)
        .column("time", ColumnType.TIMESTAMPTZ)
        .column("value", ColumnType.DOUBLE)
        .timeColumn("time")
        .seriesKey("tag")
        // The file layout is the fixture: no inline compaction.
        .option("auto-maintain", "false")
        .build();
  }

  private static Instant at(int day, int hour) {
    return FIRST_DAY.plusDays(day - 1).atTime(hour, 0).toInstant(ZoneOffset.UTC);
  }
}
