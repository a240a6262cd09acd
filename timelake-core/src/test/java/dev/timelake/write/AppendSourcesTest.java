package dev.timelake.write;

import static dev.timelake.TestTables.micros;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.readings;
import static dev.timelake.TestTables.snapshots;
import static dev.timelake.TestTables.utc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.AppendResult;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TestTables;
import dev.timelake.ValidationException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of append input lands as the same rows. */
class AppendSourcesTest {
  private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
  private static final Instant T2 = Instant.parse("2026-01-02T11:30:00.250Z");

  /** The rows every source below holds, in the order a query sorted by (device, time) returns. */
  private static final List<List<Object>> EXPECTED =
      List.of(
          List.of("a", utc(T1), 1.5),
          List.of("a", utc(T2), 2.5),
          Arrays.asList("b", utc(T1), null));

  @TempDir static Path warehouse;
  @TempDir Path files;
  private static Lake lake;
  private Table table;

  @BeforeAll
  static void openLake() {
    lake = Lake.open(warehouse);
  }

  @AfterAll
  static void closeLake() {
    lake.close();
  }

  @BeforeEach
  void createTable(TestInfo test) {
    table =
        lake.createTable(readings("src." + test.getTestMethod().orElseThrow().getName()).build());
  }

  @Test
  void appendsRowsInColumnOrder() {
    AppendResult result =
        table.newAppend().row("b", T1, null).row("a", T2, 2.5).row("a", T1, 1.5).commit();

    assertThat(result.outcome()).isEqualTo(AppendResult.Outcome.COMMITTED);
    assertThat(result.rows()).isEqualTo(3);
    assertThat(result.copiesDropped()).isZero();
    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsRowsByColumnName() {
    Map<String, Object> partial = new LinkedHashMap<>();
    partial.put("time", T1);
    partial.put("device", "b");
    table
        .newAppend()
        .row(Map.of("device", "a", "time", T1, "value", 1.5))
        .row(partial)
        .row(Map.of("value", 2.5, "time", T2.atOffset(ZoneOffset.ofHours(2)), "device", "a"))
        .commit();

    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsCsvWithHeaderInAnyColumnOrderTypedByTheTable() throws IOException {
    Path csv =
        write(
            "readings.csv",
            "time,device,value\n"
                + "2026-01-01T10:00:00Z,a,1.5\n"
                + "2026-01-02 12:30:00.25+01,a,2.5\n"
                + "2026-01-01 10:00:00+00,b,\n");

    AppendResult result = table.newAppend().fromCsv(csv).commit();

    assertThat(result.rows()).isEqualTo(3);
    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsCsvWhoseValuesLookLikeAnotherType() throws IOException {
    // DuckDB would sniff "1" and "2" as integers and the device names as numbers; the table's types
    // decide instead.
    Path csv = write("numbers.csv", "device,time,value\n007,2026-01-01T10:00:00Z,1\n");

    table.newAppend().fromCsv(csv).commit();

    assertThat(contents()).containsExactly(List.of("007", utc(T1), 1.0));
  }

  @Test
  void appendsTsv() throws IOException {
    Path tsv =
        write(
            "readings.tsv",
            "device\ttime\tvalue\n"
                + "a\t2026-01-01T10:00:00Z\t1.5\n"
                + "a\t2026-01-02T11:30:00.25Z\t2.5\n"
                + "b\t2026-01-01T10:00:00Z\t\n");

    table.newAppend().fromFile(tsv).commit();

    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsGzippedCsv() throws IOException {
    Path gz = files.resolve("readings.csv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(
          ("device,time,value\n"
                  + "a,2026-01-01T10:00:00Z,1.5\n"
                  + "a,2026-01-02T11:30:00.25Z,2.5\n"
                  + "b,2026-01-01T10:00:00Z,\n")
              .getBytes(StandardCharsets.UTF_8));
    }

    table.newAppend().fromFile(gz).commit();

    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsParquetWrittenByDuckDb() throws SQLException {
    Path first = files.resolve("first.parquet");
    Path second = files.resolve("second.parquet");
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      statement.execute(
          "COPY (SELECT 'a' AS device, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time, 1.5::DOUBLE"
              + " AS value UNION ALL SELECT 'a', TIMESTAMPTZ '2026-01-02 11:30:00.25+00', 2.5)"
              + " TO '"
              + first
              + "' (FORMAT parquet)");
      statement.execute(
          "COPY (SELECT TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time, 'b' AS device) TO '"
              + second
              + "' (FORMAT parquet)");
    }

    AppendResult result = table.newAppend().fromParquet(first).fromFile(second).commit();

    assertThat(result.rows()).isEqualTo(3);
    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsArrowBatch() {
    List<Object[]> rows =
        List.of(
            new Object[] {"b", T1, null}, new Object[] {"a", T1, 1.5}, new Object[] {"a", T2, 2.5});

    AppendResult result = TestTables.commitReadings(table.newAppend(), "device", rows);

    assertThat(result.rows()).isEqualTo(3);
    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsArrowStreamOfSeveralBatches() throws IOException {
    ByteArrayOutputStream ipc = new ByteArrayOutputStream();
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector device = new VarCharVector("device", allocator);
        TimeStampMicroTZVector time = new TimeStampMicroTZVector("time", allocator, "UTC");
        Float8Vector value = new Float8Vector("value", allocator);
        VectorSchemaRoot root = VectorSchemaRoot.of(device, time, value);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, ipc)) {
      writer.start();
      for (List<Object> row : EXPECTED) {
        device.setSafe(0, ((String) row.get(0)).getBytes(StandardCharsets.UTF_8));
        time.setSafe(0, micros(((OffsetDateTime) row.get(1)).toInstant()));
        if (row.get(2) == null) {
          value.setNull(0);
        } else {
          value.setSafe(0, (Double) row.get(2));
        }
        root.setRowCount(1);
        writer.writeBatch();
      }
      writer.end();
    }

    try (BufferAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator)) {
      AppendResult result = table.newAppend().fromArrow(reader).commit();

      assertThat(result.rows()).isEqualTo(3);
    }
    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void appendsRowsOfADuckDbQuery() {
    table
        .newAppend()
        .fromQuery(
            "SELECT * FROM (VALUES ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00', 1.5::DOUBLE),"
                + " ('a', TIMESTAMPTZ '2026-01-02 11:30:00.25+00', 2.5::DOUBLE)) AS t(device, time,"
                + " value)")
        .fromQuery("SELECT 'b' AS device, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time")
        .commit();

    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void commitsEverySourceOfOneAppendAsOneSnapshot() throws IOException {
    Path csv = write("one.csv", "device,time,value\na,2026-01-02T11:30:00.25Z,2.5\n");

    AppendResult result =
        table
            .newAppend()
            .row("a", T1, 1.5)
            .fromCsv(csv)
            .fromQuery("SELECT 'b' AS device, TIMESTAMPTZ '2026-01-01 10:00:00+00' AS time")
            .commit();

    assertThat(snapshots(table)).isEqualTo(1);
    assertThat(table.refresh().info().snapshots().get(0).id())
        .isEqualTo(result.snapshotId().orElseThrow());
    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void insertsThroughSql() {
    String name = table.name().toString();
    try (Session session = lake.newSession()) {
      session.clock(Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC));
      QueryResult values =
          session.sql(
              "INSERT INTO "
                  + name
                  + " VALUES ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00', 1.5::DOUBLE),"
                  + " ('a', TIMESTAMPTZ '2026-01-02 11:30:00.25+00', 2.5::DOUBLE)");
      QueryResult selected =
          session.sql(
              "INSERT INTO "
                  + name
                  + " (time, device) SELECT TIMESTAMPTZ '2026-01-01 10:00:00+00', 'b'");

      assertThat(values.message()).isEqualTo("Inserted 2 rows into " + name);
      assertThat(values.append().orElseThrow().rows()).isEqualTo(2);
      assertThat(selected.append().orElseThrow().outcome())
          .isEqualTo(AppendResult.Outcome.COMMITTED);
    }
    assertThat(contents()).isEqualTo(EXPECTED);
    assertThat(query(lake, "SELECT DISTINCT _ingest_ts FROM " + name))
        .containsExactly(List.of(utc("2026-03-01T00:00:00Z")));
    assertThat(table.refresh().info().snapshots())
        .extracting(snapshot -> snapshot.summary().get("timelake.operation"))
        .containsExactly("insert", "insert");
  }

  @Test
  void insertsRowsReadFromAnotherTimelakeTable() {
    Table source = lake.createTable(readings("src.insert_source").build());
    source.newAppend().row("a", T1, 1.5).row("a", T2, 2.5).row("b", T1, 9.0).commit();
    source.newAppend().row("b", T1, null).commit();

    try (Session session = lake.newSession()) {
      session.sql(
          "INSERT INTO " + table.name() + " SELECT device, time, value FROM src.insert_source");
    }

    assertThat(contents()).isEqualTo(EXPECTED);
  }

  @Test
  void rejectsFileOfUnknownType() throws IOException {
    Path json = write("readings.json", "{}");

    assertThatThrownBy(() -> table.newAppend().fromFile(json))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot append %s to %s: unknown file type (expected .parquet, .csv, .csv.gz or .tsv)",
            json, table.name());
  }

  @Test
  void rejectsMissingFile() {
    Path missing = files.resolve("missing.csv");

    assertThatThrownBy(() -> table.newAppend().fromCsv(missing).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot append to %s: file %s does not exist or cannot be read", table.name(), missing);
    assertThat(snapshots(table)).isZero();
  }

  @Test
  void rejectsCsvThatCannotBeParsedAsTheTableTypes() throws IOException {
    Path csv =
        write(
            "bad.csv",
            "device,time,value\na,2026-01-01T10:00:00Z,1.5\nb,2026-01-01T11:00:00Z,oops\n"
                + "c,yesterday,2.0\n");

    assertThatThrownBy(() -> table.newAppend().fromCsv(csv).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot append to %s: cannot read %s: line 3, column value: 'oops' is not a valid"
                + " DOUBLE",
            table.name(), csv);
    assertThat(snapshots(table)).isZero();
  }

  @Test
  void rejectsATsvValueNamingItsLineColumnAndType() throws IOException {
    Path tsv = write("bad.tsv", "device\ttime\tvalue\na\tyesterday\t1.5\n");

    assertThatThrownBy(() -> table.newAppend().fromCsv(tsv).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot append to %s: cannot read %s: line 2, column time: 'yesterday' is not a valid"
                + " TIMESTAMPTZ",
            table.name(), tsv);
    assertThat(snapshots(table)).isZero();
  }

  private List<List<Object>> contents() {
    return query(
        lake, "SELECT device, time, value FROM " + table.name() + " ORDER BY device, time");
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(files.resolve(name), text);
  }
}
