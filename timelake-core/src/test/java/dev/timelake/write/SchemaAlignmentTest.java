package dev.timelake.write;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static dev.timelake.TestTables.utc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Append;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.ValidationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** How an append's input columns are matched to the table's, and what is rejected. */
class SchemaAlignmentTest {
  private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
  private static final String KEY = "'a' AS device, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time";

  @TempDir static Path warehouse;
  @TempDir Path files;
  private static Lake lake;
  private Table table;
  private String name;

  @BeforeAll
  static void openLake() {
    lake = Lake.open(warehouse);
  }

  @AfterAll
  static void closeLake() {
    lake.close();
  }

  /**
   * {@code iot.<test>(device VARCHAR, time TIMESTAMPTZ, value DOUBLE, ratio FLOAT, level INTEGER,
   * total BIGINT, note VARCHAR)} with one committed row, so failed appends can be compared with it.
   */
  @BeforeEach
  void createTable(TestInfo test) {
    table =
        lake.createTable(
            TableDefinition.builder("iot." + test.getTestMethod().orElseThrow().getName())
                .column("device", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .column("ratio", ColumnType.FLOAT)
                .column("level", ColumnType.INTEGER)
                .column("total", ColumnType.BIGINT)
                .column("note", ColumnType.VARCHAR)
                .timeColumn("time")
                .seriesKey("device")
                .build());
    table.newAppend().row("z", T1, 0.0, 0.0f, 0, 0L, "first").commit();
    name = table.name().toString();
  }

  @Test
  void fillsMissingNullableColumnsWithNull() {
    table.newAppend().fromQuery("SELECT " + KEY + ", 1.5::DOUBLE AS value").commit();
    table.newAppend().row(Map.of("device", "b", "time", T1)).commit();

    assertThat(query(lake, "SELECT * EXCLUDE (_ingest_ts) FROM " + name + " WHERE device <> 'z'"))
        .containsExactlyInAnyOrder(
            Arrays.asList("a", utc(T1), 1.5, null, null, null, null),
            Arrays.asList("b", utc(T1), null, null, null, null, null));
  }

  @Test
  void matchesColumnsByNameIgnoringCase() {
    table
        .newAppend()
        .fromQuery("SELECT 7 AS LEVEL, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS Time, 'a' AS Device")
        .commit();

    assertThat(query(lake, "SELECT device, time, level FROM " + name + " WHERE device = 'a'"))
        .containsExactly(List.of("a", utc(T1), 7));
  }

  @Test
  void acceptsIntegerIntoBigintAndFloatIntoDouble() {
    table
        .newAppend()
        .fromQuery(
            "SELECT "
                + KEY
                + ", 1.5::FLOAT AS value, 2::SMALLINT AS level, 2147483647::INTEGER AS total")
        .commit();

    assertThat(query(lake, "SELECT value, level, total FROM " + name + " WHERE device = 'a'"))
        .containsExactly(List.of(1.5, 2, 2147483647L));
  }

  @Test
  void readsTimestampWithoutTimeZoneAsUtc() {
    table
        .newAppend()
        .fromQuery("SELECT 'a' AS device, TIMESTAMP '2026-01-01 10:00:00' AS time")
        .commit();

    assertThat(query(lake, "SELECT time FROM " + name + " WHERE device = 'a'"))
        .containsExactly(List.of(utc(T1)));
  }

  @Test
  void rejectsUnknownColumnNamingTableAndColumn() {
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT " + KEY + ", 'red' AS colour"),
        "Cannot append to "
            + name
            + ": query has column 'colour', which the table does not have (columns: device, time,"
            + " value, ratio, level, total, note, _ingest_ts)");
    assertUnchangedAfter(
        append -> append.row(Map.of("device", "a", "time", T1, "colour", "red")),
        "Table " + name + " has no column 'colour'");
  }

  @Test
  void rejectsMissingRequiredColumn() {
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time"),
        "Cannot append to " + name + ": required column 'device' is missing from query");
  }

  @Test
  void rejectsNarrowing() {
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT " + KEY + ", 5::BIGINT AS level"),
        narrowing("level", "BIGINT", "INTEGER"));
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT " + KEY + ", 0.5::DOUBLE AS ratio"),
        narrowing("ratio", "DOUBLE", "FLOAT"));
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT " + KEY + ", 1.5 AS value"),
        narrowing("value", "DECIMAL(2,1)", "DOUBLE"));
  }

  @Test
  void rejectsSignednessChange() {
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT " + KEY + ", 5::UINTEGER AS total"),
        narrowing("total", "UINTEGER", "BIGINT"));
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT " + KEY + ", 5::UTINYINT AS level"),
        narrowing("level", "UTINYINT", "INTEGER"));
  }

  @Test
  void rejectsTextForTimeAndNumbersForText() {
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT 'a' AS device, '2026-01-01 10:00:00+00' AS time"),
        narrowing("time", "VARCHAR", "TIMESTAMPTZ"));
    assertUnchangedAfter(
        append ->
            append.fromQuery("SELECT 7 AS device, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time"),
        narrowing("device", "INTEGER", "VARCHAR"));
  }

  @Test
  void rejectsNarrowingInParquetInput() throws SQLException {
    Path parquet = files.resolve("narrow.parquet");
    duckdb("COPY (SELECT " + KEY + ", 5::BIGINT AS level) TO '" + parquet + "' (FORMAT parquet)");

    assertUnchangedAfter(
        append -> append.fromParquet(parquet),
        "Cannot append to "
            + name
            + ": column 'level' is BIGINT in "
            + parquet
            + " but INTEGER in the table (only lossless widening is allowed, e.g. INTEGER to"
            + " BIGINT or FLOAT to DOUBLE; cast the input)");
  }

  @Test
  void acceptsParquetIntegersIntoFloatingPointColumnsWhenEveryValueIsExact() throws SQLException {
    Path parquet = files.resolve("exact.parquet");
    duckdb(
        "COPY (SELECT "
            + KEY
            + ", 9007199254740992::BIGINT AS value, -16777216::INTEGER AS ratio UNION ALL SELECT"
            + " 'b', TIMESTAMPTZ '2026-01-01 10:00:00+00', -3::BIGINT, 7::INTEGER) TO '"
            + parquet
            + "' (FORMAT parquet)");

    table.newAppend().fromParquet(parquet).commit();

    assertThat(query(lake, "SELECT device, value, ratio FROM " + name + " WHERE device <> 'z'"))
        .containsExactlyInAnyOrder(
            List.of("a", 9007199254740992.0, -16777216.0f), List.of("b", -3.0, 7.0f));
  }

  @Test
  void refusesAParquetIntegerAFloatingPointColumnCannotHoldExactly() throws SQLException {
    Path doubles = files.resolve("double.parquet");
    duckdb(
        "COPY (SELECT * FROM (VALUES ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00', 5::BIGINT), ('b',"
            + " TIMESTAMPTZ '2026-01-01 10:00:00+00', 9007199254740993::BIGINT)) v(device, time,"
            + " value)) TO '"
            + doubles
            + "' (FORMAT parquet)");
    Path floats = files.resolve("float.parquet");
    duckdb(
        "COPY (SELECT "
            + KEY
            + ", 16777217::INTEGER AS ratio) TO '"
            + floats
            + "' (FORMAT parquet)");

    assertUnchangedAfter(
        append -> append.fromParquet(doubles),
        "Cannot append to "
            + name
            + ": row 2 of "
            + doubles
            + ", column value: 9007199254740993 is not exact as DOUBLE, which holds integers exactly"
            + " up to 2^53 (9007199254740992) in magnitude (store the column as BIGINT, or cast the"
            + " input to DOUBLE to accept the rounding)");
    assertUnchangedAfter(
        append -> append.fromParquet(floats),
        "Cannot append to "
            + name
            + ": row 1 of "
            + floats
            + ", column ratio: 16777217 is not exact as FLOAT, which holds integers exactly up to"
            + " 2^24 (16777216) in magnitude (store the column as BIGINT, or cast the input to FLOAT"
            + " to accept the rounding)");
  }

  @Test
  void readsParquetTimestampWithoutTimeZoneAsUtc() throws SQLException {
    Path parquet = files.resolve("local.parquet");
    duckdb(
        "COPY (SELECT 'a' AS device, TIMESTAMP '2026-01-01 10:00:00' AS time) TO '"
            + parquet
            + "' (FORMAT parquet)");

    table.newAppend().fromParquet(parquet).commit();

    assertThat(query(lake, "SELECT time FROM " + name + " WHERE device = 'a'"))
        .containsExactly(List.of(utc(T1)));
  }

  @Test
  void refusesAParquetIntegerTimeNamingTheFlagThatGivesItsUnit() throws SQLException {
    Path parquet = files.resolve("epoch.parquet");
    duckdb(
        "COPY (SELECT 'a' AS device, 1767261600::BIGINT AS time) TO '"
            + parquet
            + "' (FORMAT parquet)");

    assertUnchangedAfter(
        append -> append.fromParquet(parquet),
        "Cannot append to "
            + name
            + ": column 'time' is BIGINT in "
            + parquet
            + " but TIMESTAMPTZ in the table; say what the integers count (timelake import"
            + " --time-format epoch-s|epoch-ms|epoch-us|epoch-ns for the time column,"
            + " Append.timeFromEpoch in Java) or convert them, e.g. to_timestamp(seconds)");
  }

  @Test
  void readsAParquetIntegerTimeInEachEpochUnit() throws SQLException {
    long seconds = T1.getEpochSecond();
    Map<java.time.temporal.ChronoUnit, String> counts =
        Map.of(
            java.time.temporal.ChronoUnit.SECONDS, seconds + "::INTEGER",
            java.time.temporal.ChronoUnit.MILLIS, seconds * 1_000 + "::BIGINT",
            java.time.temporal.ChronoUnit.MICROS, seconds * 1_000_000 + "::BIGINT",
            java.time.temporal.ChronoUnit.NANOS, seconds * 1_000_000_000 + "::BIGINT");
    for (Map.Entry<java.time.temporal.ChronoUnit, String> count : counts.entrySet()) {
      Path parquet = files.resolve(count.getKey() + ".parquet");
      duckdb(
          "COPY (SELECT '"
              + count.getKey()
              + "' AS device, "
              + count.getValue()
              + " AS time) TO '"
              + parquet
              + "' (FORMAT parquet)");
      table.newAppend().fromParquet(parquet).timeFromEpoch(count.getKey()).commit();
    }

    assertThat(query(lake, "SELECT DISTINCT time FROM " + name)).containsExactly(List.of(utc(T1)));
    assertThat(query(lake, "SELECT count(*) FROM " + name)).containsExactly(List.of(5L));
  }

  @Test
  void refusesNanosecondsSinceTheEpochThatAreNotWholeMicroseconds() throws SQLException {
    Path parquet = files.resolve("nanos.parquet");
    duckdb(
        "COPY (SELECT 'a' AS device, 1767261600000000001::BIGINT AS time) TO '"
            + parquet
            + "' (FORMAT parquet)");

    assertUnchangedAfter(
        append -> append.fromParquet(parquet).timeFromEpoch(java.time.temporal.ChronoUnit.NANOS),
        "Cannot append to "
            + name
            + ": row 1 of "
            + parquet
            + ", column time: 2026-01-01 10:00:00.000000001 would change as TIMESTAMPTZ (cast the"
            + " value, or change the column type)");
  }

  @Test
  void rejectsNullTimeNamingTheRow() {
    assertUnchangedAfter(
        append ->
            append
                .row("a", T1, 1.0, null, null, null, null)
                .row("a", T1.plusSeconds(1), 2.0, null, null, null, null)
                .row("a", null, 3.0, null, null, null, null),
        "Cannot append to " + name + ": column 'time' is null in row 3 of rows");
  }

  @Test
  void rejectsNullSeriesKeyNamingTheRowOfItsSource() throws IOException {
    Path csv =
        Files.writeString(
            files.resolve("gap.csv"),
            "device,time\na,2026-01-01T10:00:00Z\nb,2026-01-01T11:00:00Z\n,2026-01-01T12:00:00Z\n");

    assertUnchangedAfter(
        append ->
            append
                .fromQuery(
                    "SELECT " + KEY + " UNION ALL SELECT 'b', TIMESTAMPTZ '2026-01-02 00:00:00+00'")
                .fromCsv(csv),
        "Cannot append to " + name + ": column 'device' is null in row 3 of " + csv);
  }

  @Test
  void rejectsNullTimeFromQueryNamingTheRow() {
    assertUnchangedAfter(
        append ->
            append.fromQuery(
                "SELECT * FROM (VALUES ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00'), ('b', NULL))"
                    + " AS t(device, time)"),
        "Cannot append to " + name + ": column 'time' is null in row 2 of query");
  }

  @Test
  void rejectsInsertWithNullTimeNamingTheRow() {
    int snapshotsBefore = snapshots(table);
    try (Session session = lake.newSession()) {
      assertThatThrownBy(
              () ->
                  session.sql(
                      "INSERT INTO "
                          + name
                          + " (device, time) VALUES ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00'),"
                          + " ('b', TIMESTAMPTZ '2026-01-01 11:00:00+00'), ('c', NULL)"))
          .isInstanceOf(ValidationException.class)
          .hasMessage("Cannot append to " + name + ": column 'time' is null in row 3 of VALUES");
    }
    assertThat(snapshots(table)).isEqualTo(snapshotsBefore);
  }

  @Test
  void insertCastsNumbersToTheColumnTypesWhenEveryValueArrivesUnchanged() {
    try (Session session = lake.newSession()) {
      session.sql(
          "INSERT INTO "
              + name
              + " (device, time, level, value, ratio) SELECT 'd' || i, TIMESTAMPTZ '2026-01-02"
              + " 00:00:00+00', (i % 3) + 1, i * 1.5, i * 0.5 FROM range(4) t(i)");
      try (QueryResult result =
          session.sql(
              "SELECT device, level, value, ratio FROM "
                  + name
                  + " WHERE device LIKE 'd%'"
                  + " ORDER BY device")) {
        assertThat(result.rows())
            .containsExactly(
                List.of("d0", 1, 0.0, 0.0f),
                List.of("d1", 2, 1.5, 0.5f),
                List.of("d2", 3, 3.0, 1.0f),
                List.of("d3", 1, 4.5, 1.5f));
      }
    }
  }

  /** Each case: the INSERT's columns and rows, then the error's detail. */
  private static final List<String> UNCHANGED_CASES =
      List.of(
          "(device, time, level) SELECT 'a', TIMESTAMPTZ '2026-01-02 00:00:00+00' + INTERVAL (i)"
              + " HOUR, CAST(i AS BIGINT) * 2500000000 FROM range(3) t(i)"
              + "|row 2 of query, column level: 2500000000 does not fit in INTEGER",
          "(device, time, level) SELECT 'a', TIMESTAMPTZ '2026-01-02 00:00:00+00', 1.5"
              + "|row 1 of query, column level: 1.5 would change as INTEGER",
          "(device, time, value) SELECT 'a', TIMESTAMPTZ '2026-01-02 00:00:00+00',"
              + " CAST(9007199254740993 AS BIGINT)"
              + "|row 1 of query, column value: 9007199254740993 would change as DOUBLE",
          "(device, time, level) VALUES ('a', TIMESTAMPTZ '2026-01-02 00:00:00+00', 2.5)"
              + "|row 1 of VALUES, column level: 2.5 would change as INTEGER");

  @Test
  void insertRefusesANumberTheColumnCannotHoldUnchanged() {
    int snapshotsBefore = snapshots(table);
    try (Session session = lake.newSession()) {
      for (String queryAndMessage : UNCHANGED_CASES) {
        String[] parts = queryAndMessage.split("\\|");
        assertThatThrownBy(() -> session.sql("INSERT INTO " + name + " " + parts[0]))
            .as(parts[0])
            .isInstanceOf(ValidationException.class)
            .hasMessage(
                "Cannot append to "
                    + name
                    + ": "
                    + parts[1]
                    + " (cast the value, or change the column type)");
      }
    }
    assertThat(snapshots(table)).isEqualTo(snapshotsBefore);
  }

  @Test
  void insertRefusesATimestampMadeFromAnInteger() {
    try (Session session = lake.newSession()) {
      assertThatThrownBy(
              () ->
                  session.sql(
                      "INSERT INTO " + name + " (device, time) SELECT 'a', 1767225600 AS time"))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("column 'time' is INTEGER in query but TIMESTAMPTZ in the table");
    }
  }

  @Test
  void rejectsInputWithAColumnTwice() {
    assertUnchangedAfter(
        append -> append.fromQuery("SELECT " + KEY + ", 'x' AS note, 'y' AS NOTE"),
        // DuckDB renames the second column of a SELECT, so it arrives as an unknown column.
        "Cannot append to "
            + name
            + ": query has column 'NOTE_1', which the table does not have (columns: device, time,"
            + " value, ratio, level, total, note, _ingest_ts)");
  }

  @Test
  void rejectsRowWithTheWrongNumberOfValues() {
    assertUnchangedAfter(
        append -> append.row("a", T1, 1.0, null, null, null, null).row("a", T1),
        "Cannot append to " + name + ": row 2 has 2 values, expected 7");
  }

  @Test
  void rejectsRowValueOfTheWrongType() {
    assertThatThrownBy(
            () -> table.newAppend().row("a", "yesterday", 1.0, null, null, null, null).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Cannot append to " + name + ": rows could not be converted: ");
    assertThat(snapshots(table)).isEqualTo(1);
  }

  private void assertUnchangedAfter(Consumer<Append> sources, String message) {
    int snapshotsBefore = snapshots(table);
    List<Path> filesBefore = dataFiles(table);
    Append append = table.newAppend();

    assertThatThrownBy(
            () -> {
              sources.accept(append);
              append.commit();
            })
        .isInstanceOf(ValidationException.class)
        .hasMessage(message);
    assertThat(snapshots(table)).isEqualTo(snapshotsBefore);
    assertThat(dataFiles(table)).isEqualTo(filesBefore);
  }

  private String narrowing(String column, String inputType, String tableType) {
    return "Cannot append to "
        + name
        + ": column '"
        + column
        + "' is "
        + inputType
        + " in query but "
        + tableType
        + " in the table (only lossless widening is allowed, e.g. INTEGER to BIGINT or FLOAT to"
        + " DOUBLE; cast the input)";
  }

  private static void duckdb(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      statement.execute(sql);
    }
  }
}
