package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.TableName;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A line-protocol request is checked whole before anything is created, widened or appended: a time
 * the engine or the table's partitions cannot hold, a reserved or invalid table name, a table line
 * protocol cannot fill, anywhere in the request (here: on its last line), refuses the request with
 * 400 naming the line, and leaves no table and no rows behind.
 */
class LineProtocolValidationTest extends WithLineProtocolServer {
  /** DuckDB's earliest TIMESTAMPTZ, 290309-12-22 (BC) 00:00:00 UTC, in µs since the epoch. */
  private static final long EARLIEST =
      LocalDateTime.of(-290308, 12, 22, 0, 0).toEpochSecond(ZoneOffset.UTC) * 1_000_000L;

  /** DuckDB's latest TIMESTAMPTZ: one µs before its infinity, which is the largest long. */
  private static final long LATEST = Long.MAX_VALUE - 1;

  private HttpResponse<String> write(String bucket, String precision, String lines)
      throws Exception {
    return post(
        "/api/v2/write?bucket=" + bucket + "&precision=" + precision,
        "Token " + PASSWORD,
        lines.getBytes(StandardCharsets.UTF_8));
  }

  /** Asserts a 400 whose message starts with the line and contains each fragment. */
  private static void assertRefused(HttpResponse<String> response, int line, String... fragments) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.body()).contains("\"message\":\"line " + line + ": ").contains(fragments);
  }

  /** The refused requests left no table behind, and the server still takes a normal write. */
  private void assertNoTableAndStillWrites() throws Exception {
    assertThat(lake.tables()).isEmpty();
    assertStillWrites();
  }

  /** The server still takes a normal write after a refusal, and that write is stored. */
  private void assertStillWrites() throws Exception {
    assertThat(write("iot", "s", "after,host=a value=1 1767225600").statusCode()).isEqualTo(204);
    assertThat(rows("SELECT host, value FROM iot.after")).containsExactly(List.of("a", 1.0));
  }

  @Test
  void aLastLineWithATimeTheEngineCannotHoldLeavesNoTableAndNoRows() throws Exception {
    // {precision, a timestamp whose µs are outside DuckDB's TIMESTAMPTZ}
    List<List<String>> unstorable =
        List.of(
            List.of("us", Long.toString(LATEST + 1)), // DuckDB's infinity
            List.of("us", Long.toString(EARLIEST - 1)),
            List.of("us", Long.toString(Long.MIN_VALUE)),
            List.of("ms", Long.toString(Math.floorDiv(EARLIEST, 1_000L) - 1)),
            List.of("s", Long.toString(Math.floorDiv(EARLIEST, 1_000_000L) - 1)),
            List.of("s", Long.toString(Long.MAX_VALUE / 1_000L)));
    for (List<String> time : unstorable) {
      HttpResponse<String> refused =
          write(
              "iot",
              time.get(0),
              "first,host=a value=1 1\nsecond,host=a value=2 2\nthird,host=a value=3 "
                  + time.get(1));
      assertRefused(refused, 3, "timestamp '" + time.get(1) + "'", "out of range", "290309-12-22");
    }
    assertNoTableAndStillWrites();
  }

  @Test
  void aRefusedTimeAddsNoSnapshotToAnExistingTable() throws Exception {
    assertThat(write("iot", "us", "readings,host=a value=1 1767225600000000").statusCode())
        .isEqualTo(204);
    int snapshots = snapshots("iot.readings");
    HttpResponse<String> refused =
        write(
            "iot",
            "us",
            "readings,host=a value=2 1767225600000001\n"
                + "readings,host=a value=3,extra=1i "
                + (LATEST + 1));
    assertRefused(refused, 2, "out of range");
    assertThat(snapshots("iot.readings")).isEqualTo(snapshots);
    assertThat(lake.table(TableName.parse("iot.readings")).columns())
        .extracting(dev.timelake.Column::name)
        .doesNotContain("extra");
    assertThat(rows("SELECT count(*) FROM iot.readings")).containsExactly(List.of(1L));
  }

  @Test
  void theEarliestAndLatestTimesTheEngineHoldsAreStoredExactly() throws Exception {
    HttpResponse<String> written =
        write("iot", "us", "edges,host=a value=1 " + EARLIEST + "\nedges,host=b value=2 " + LATEST);
    assertThat(written.statusCode()).as(written.body()).isEqualTo(204);
    assertThat(rows("SELECT host, epoch_us(time) FROM iot.edges ORDER BY host"))
        .containsExactly(List.of("a", EARLIEST), List.of("b", LATEST));
  }

  @Test
  void aTimeBeyondAnHourPartitionedTableIsRefusedBeforeAnythingIsCreated() throws Exception {
    sql(
        "CREATE TABLE iot.hourly (time TIMESTAMPTZ NOT NULL, value DOUBLE)"
            + " WITH (time_column = 'time', chunk = 'hour')");
    int snapshots = snapshots("iot.hourly");
    // Iceberg numbers hour partitions since 1970 in 32 bits: 2^31 hours is one too many.
    long beyond = (1L << 31) * 3_600_000_000L;
    HttpResponse<String> refused =
        write("iot", "us", "fresh,host=a value=1 1\nhourly value=1 1\nhourly value=2 " + beyond);
    assertRefused(refused, 3, "beyond the hour partitions of iot.hourly");
    assertThat(lake.findTable(TableName.parse("iot.fresh"))).isEmpty();
    assertThat(snapshots("iot.hourly")).isEqualTo(snapshots);
    assertThat(write("iot", "us", "hourly value=2 " + (beyond - 1)).statusCode()).isEqualTo(204);
  }

  @Test
  void aTableWhoseTimeColumnLineProtocolCannotFillIsRefusedBeforeAnythingIsCreated()
      throws Exception {
    sql(
        "CREATE TABLE iot.naive (time TIMESTAMP NOT NULL, value DOUBLE) WITH (time_column = 'time')");
    sql(
        "CREATE TABLE iot.clock (time BIGINT NOT NULL, value DOUBLE)"
            + " WITH (time_column = 'time', partition_width = 1000)");
    int naive = snapshots("iot.naive");
    int clock = snapshots("iot.clock");
    assertRefused(
        write("iot", "s", "fresh value=1 1\nnaive value=1 1"),
        2,
        "iot.naive is not a line-protocol table: its time column 'time' is TIMESTAMP");
    assertRefused(
        write("iot", "s", "fresh value=1 1\nclock value=1 1"),
        2,
        "iot.clock is not a line-protocol table: its time column 'time' is BIGINT");
    assertThat(lake.findTable(TableName.parse("iot.fresh"))).isEmpty();
    assertThat(snapshots("iot.naive")).isEqualTo(naive);
    assertThat(snapshots("iot.clock")).isEqualTo(clock);
  }

  @Test
  void reservedBucketsAreRefusedBeforeAnythingIsCreated() throws Exception {
    for (String bucket :
        List.of(
            "system",
            "memory",
            "temp",
            "main",
            "pg_catalog",
            "information_schema",
            "tl_metrics",
            "__tl",
            "Main",
            "TL_X")) {
      HttpResponse<String> refused = write(bucket, "s", "cpu,host=a usage=1 1\nmem free=2i 1");
      assertRefused(refused, 1, "is a reserved name", "choose another namespace");
    }
    assertNoTableAndStillWrites();
  }

  @Test
  void reservedMeasurementsAreRefusedBeforeAnythingIsCreated() throws Exception {
    for (String measurement :
        List.of(
            "system",
            "memory",
            "temp",
            "main",
            "pg_catalog",
            "information_schema",
            "tl_rollups",
            "__tl_stage",
            "Information_Schema",
            "TL_Upper")) {
      HttpResponse<String> refused =
          write("iot", "s", "cpu,host=a usage=1 1\n" + measurement + ",host=a usage=2 1");
      assertRefused(refused, 2, "is a reserved name", "choose another table name");
    }
    assertNoTableAndStillWrites();
  }

  @Test
  void namesThatCannotBeTablesAreRefusedBeforeAnythingIsCreated() throws Exception {
    assertRefused(
        write("iot", "s", "cpu usage=1 1\ncpu-load usage=2 1"), 2, "Invalid table name 'cpu-load'");
    assertRefused(write("my-bucket", "s", "cpu usage=1 1"), 1, "Invalid namespace 'my-bucket'");
    assertRefused(
        write("iot", "s", "cpu usage=1 1\n" + "m".repeat(129) + " usage=2 1"),
        2,
        "129 characters long, at most 128");
    assertRefused(
        write("n".repeat(129), "s", "cpu usage=1 1"), 1, "129 characters long, at most 128");
    assertNoTableAndStillWrites();
  }

  @Test
  void columnsNamedLikeTheTimeColumnsInAnyCaseAreRefusedBeforeAnythingIsCreated() throws Exception {
    assertRefused(
        write("iot", "s", "first value=1 1\nsecond TIME=1 1"),
        2,
        "'TIME' is a column Timelake sets itself");
    assertRefused(
        write("iot", "s", "first value=1 1\nsecond,_Ingest_TS=x value=1 1"),
        2,
        "'_Ingest_TS' is a column Timelake sets itself");
    assertNoTableAndStillWrites();
  }

  @Test
  void measurementsThatDifferOnlyInCaseAreOneTable() throws Exception {
    assertThat(write("iot", "s", "Cpu,host=a usage=1 1\ncpu,host=b usage=2 1").statusCode())
        .isEqualTo(204);
    assertThat(lake.tables()).extracting(Object::toString).containsExactly("iot.cpu");
    assertThat(rows("SELECT host, usage FROM iot.cpu ORDER BY host"))
        .containsExactly(List.of("a", 1.0), List.of("b", 2.0));
  }
}
