package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.ErrorCode;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.cli.CliRunner.Run;
import dev.timelake.testkit.LocalS3;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands that create, change and drop tables, each test in a fresh warehouse. */
class TableCommandsTest {
  @TempDir Path directory;
  private Path warehouse;
  private CliRunner cli;

  @BeforeEach
  void setUp() {
    warehouse = directory.resolve("warehouse");
    cli = new CliRunner(warehouse);
  }

  private void createReadings() {
    Run run =
        cli.run(
            "create",
            "iot.readings",
            "--columns",
            "tag VARCHAR, time TIMESTAMPTZ, value DOUBLE",
            "--time-column",
            "time",
            "--series-key",
            "tag");
    assertThat(run.status()).as(run.err()).isZero();
  }

  private Table table(String name) {
    try (Lake lake = Lake.open(warehouse)) {
      return lake.table(name);
    }
  }

  @Test
  void anIndexGranularityRefusesASecondRowPerSeriesAndMinute() throws IOException {
    Run created =
        cli.run(
            "create",
            "market.bars",
            "--columns",
            "symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE",
            "--index-column",
            "ts",
            "--entity",
            "symbol",
            "--index-granularity",
            "1m");
    assertThat(created.status()).as(created.err()).isZero();
    Path first = directory.resolve("first.csv");
    Files.writeString(
        first, "symbol,ts,close\nA,1970-01-01T00:00:00Z,1\nB,1970-01-01T00:00:00Z,2\n");
    Path second = directory.resolve("second.csv");
    Files.writeString(second, "symbol,ts,close\nA,1970-01-01T00:00:30Z,3\n");

    assertThat(cli.run("import", "market.bars", first.toString()).status()).isZero();
    Run refused = cli.run("import", "market.bars", second.toString());

    assertThat(refused.status()).isEqualTo(ErrorCode.INDEX_INTERVAL_OVERLAP.exitStatus());
    assertThat(refused.err())
        .contains("market.bars")
        .contains("symbol = 'A'")
        .contains("[1970-01-01T00:00:00Z, 1970-01-01T00:01:00Z)");
    assertThat(table("market.bars").settings()).containsEntry("index-granularity", "1 minute");
    Run bad =
        cli.run(
            "create",
            "market.bad",
            "--columns",
            "ts TIMESTAMPTZ",
            "--index-column",
            "ts",
            "--index-granularity",
            "1w");
    assertThat(bad.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(bad.err()).contains("Invalid index_granularity '1w'").contains("'w' is not a unit");
  }

  @Test
  void onConflictReplaceKeepsTheNewestRowPerSeriesAndMinute() throws IOException {
    Run created =
        cli.run(
            "create",
            "market.bars",
            "--columns",
            "symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE",
            "--index-column",
            "ts",
            "--entity",
            "symbol",
            "--index-granularity",
            "1m",
            "--on-conflict",
            "replace");
    assertThat(created.status()).as(created.err()).isZero();
    Path first = directory.resolve("first.csv");
    Files.writeString(first, "symbol,ts,close\nA,1970-01-01T00:00:50Z,1\n");
    Path second = directory.resolve("second.csv");
    Files.writeString(second, "symbol,ts,close\nA,1970-01-01T00:00:10Z,3\n");

    assertThat(cli.run("import", "market.bars", first.toString()).status()).isZero();
    assertThat(cli.run("import", "market.bars", second.toString()).status()).isZero();

    Run read = cli.run("sql", "-c", "SELECT second(ts), close FROM market.bars");
    assertThat(read.out()).contains("10").contains("3.0").doesNotContain("50");
    assertThat(table("market.bars").settings()).containsEntry("on-conflict", "replace");
    Run bad =
        cli.run(
            "create",
            "market.bad",
            "--columns",
            "ts TIMESTAMPTZ",
            "--index-column",
            "ts",
            "--on-conflict",
            "replace");
    assertThat(bad.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(bad.err()).contains("market.bad").contains("index_granularity");
  }

  @Test
  void aLogicalClockTableIsCreatedAndAskedForGapsInItsUnits() throws IOException {
    Run created =
        cli.run(
            "create",
            "log.offsets",
            "--columns",
            "source VARCHAR, offset BIGINT, payload VARCHAR",
            "--index-column",
            "offset",
            "--entity",
            "source",
            "--index-granularity",
            "10",
            "--option",
            "partition-width=1000");
    assertThat(created.status()).as(created.err()).isZero();
    Path rows = directory.resolve("offsets.csv");
    Files.writeString(rows, "source,offset,payload\nkafka,0,a\nkafka,30,b\n");
    assertThat(cli.run("import", "log.offsets", rows.toString()).status()).isZero();

    Run gaps = cli.run("gaps", "log.offsets", "--from", "0", "--to", "40", "--format", "csv");
    assertThat(gaps.status()).as(gaps.err()).isZero();
    assertThat(gaps.out()).contains("kafka,10,30,2");
  }

  @Test
  void aSharedCatalogIsNamedByCatalogOptionsOrTheWarehouseFile() throws IOException {
    Path shared = directory.resolve("shared-catalog.db");
    String uri = "uri=jdbc:sqlite:" + shared;
    Run created =
        cli.run("--catalog", uri, "create", "iot.shared", "--columns", "tag VARCHAR, v DOUBLE");
    assertThat(created.status()).as(created.err()).isZero();
    assertThat(Files.exists(shared)).isTrue();
    // The embedded catalog does not hold it; the warehouse's properties file names the shared one.
    assertThat(cli.run("sql", "-c", "SHOW TABLES").out()).doesNotContain("shared");
    Files.writeString(
        warehouse.resolve("timelake-catalog.properties"), uri.replace("\\", "\\\\") + "\n");
    assertThat(cli.run("sql", "-c", "SHOW TABLES").out()).contains("shared");

    Run unreachable =
        cli.run("--catalog", "uri=jdbc:postgresql://127.0.0.1:1/lake", "sql", "-c", "SHOW TABLES");
    assertThat(unreachable.status()).isNotZero();
    assertThat(unreachable.err()).contains("Cannot open catalog").contains("127.0.0.1:1/lake");
    Files.delete(warehouse.resolve("timelake-catalog.properties"));
  }

  @Test
  void aWarehouseOnAnS3ServerWorksThroughTheCommands() throws Exception {
    try (LocalS3 s3 = LocalS3.start(directory.resolve("s3"))) {
      String bucket = s3.createBucket("plant") + "/lake";
      java.util.List<String> storage =
          java.util.List.of(
              "--warehouse", bucket,
              "--catalog", "s3.endpoint=" + s3.endpoint(),
              "--catalog", "s3.access-key-id=" + LocalS3.ACCESS_KEY,
              "--catalog", "s3.secret-access-key=" + LocalS3.SECRET_KEY,
              "--catalog", "timelake.cache-dir=" + directory.resolve("cache"));
      java.util.List<String> options = new java.util.ArrayList<>(storage);
      options.addAll(
          java.util.List.of("--catalog", "uri=jdbc:sqlite:" + directory.resolve("catalog.db")));
      Path rows = directory.resolve("rows.csv");
      Files.writeString(
          rows, "tag,time,value\na,2026-01-01T00:00:00Z,1\na,2026-01-01T00:00:00Z,2\n");

      Run created =
          run(
              options,
              "create",
              "iot.readings",
              "--columns",
              "tag VARCHAR, time TIMESTAMPTZ, value DOUBLE",
              "--time-column",
              "time",
              "--series-key",
              "tag");
      assertThat(created.status()).as(created.err()).isZero();
      Run imported = run(options, "import", "iot.readings", rows.toString());
      assertThat(imported.status()).as(imported.err()).isZero();
      Run query = run(options, "sql", "-c", "SELECT count(*), max(value) FROM iot.readings");
      assertThat(query.out()).contains("1 |").contains("2.0");
      Run info = run(options, "info", "iot.readings");
      assertThat(info.out()).contains(bucket + "/iot/readings");
      assertThat(s3.folderOf("plant").resolve("lake/iot/readings/data")).isDirectory();

      Run noCatalog = run(storage, "sql", "-c", "SELECT 1");
      assertThat(noCatalog.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
      assertThat(noCatalog.err()).contains("a warehouse on object storage needs a shared catalog");
    }
  }

  private static Run run(java.util.List<String> options, String... args) {
    java.util.List<String> all = new java.util.ArrayList<>(options);
    all.addAll(java.util.List.of(args));
    return CliRunner.runWithoutWarehouse("", java.util.Map.of(), all.toArray(String[]::new));
  }

  @Test
  void coverageAndGapsPrintPerSeriesFromCoverage() throws IOException {
    assertThat(
            cli.run(
                    "create",
                    "market.bars",
                    "--columns",
                    "symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE",
                    "--index-column",
                    "ts",
                    "--entity",
                    "symbol",
                    "--index-granularity",
                    "1m")
                .status())
        .isZero();
    Path bars = directory.resolve("bars.csv");
    Files.writeString(
        bars,
        "symbol,ts,close\nA,2026-01-01T00:00:00Z,1\nA,2026-01-01T00:01:00Z,1\n"
            + "A,2026-01-01T00:04:00Z,1\nB,2026-01-01T00:00:00Z,2\n");
    assertThat(cli.run("import", "market.bars", bars.toString()).status()).isZero();

    Run coverage =
        cli.run(
            "coverage",
            "market.bars",
            "--from",
            "2026-01-01T00:00:00Z",
            "--to",
            "2026-01-01T00:05:00Z",
            "--format",
            "csv");
    assertThat(coverage.status()).as(coverage.err()).isZero();
    assertThat(coverage.out())
        .isEqualTo(
            "symbol,covered,expected,missing,ratio,longest_gap\nA,3,5,2,0.6,2\nB,1,5,4,0.2,4\n");
    Run gaps =
        cli.run(
            "gaps",
            "market.bars",
            "--from",
            "2026-01-01T00:00:00Z",
            "--to",
            "2026-01-01T00:05:00Z",
            "--entity",
            "symbol=A",
            "--format",
            "csv");
    assertThat(gaps.status()).as(gaps.err()).isZero();
    assertThat(gaps.out())
        .startsWith("symbol,gap_start,gap_end,intervals\nA,2026-01-01")
        .contains(",2\n");
    Run unknown =
        cli.run(
            "gaps",
            "market.bars",
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-02",
            "--entity",
            "venue=X");
    assertThat(unknown.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(unknown.err()).contains("has no entity column 'venue'");
  }

  @Test
  void optimizeSplitsFilesBySeriesAndThenHasNothingToDo() throws IOException {
    createReadings();
    Path readings = directory.resolve("mixed.csv");
    Files.writeString(
        readings,
        "tag,time,value\na,2026-01-01T00:00:00Z,1\nb,2026-01-01T00:00:00Z,2\n"
            + "c,2026-01-01T00:00:00Z,3\n");
    assertThat(cli.run("import", "iot.readings", readings.toString()).status()).isZero();

    Run first = cli.run("optimize", "iot.readings");
    assertThat(first.status()).as(first.err()).isZero();
    assertThat(first.out())
        .contains("files_replaced: 1")
        .contains("files_written: 3")
        .contains("identities: 3")
        .contains("no_op: false");
    Run second = cli.run("optimize", "iot.readings");
    assertThat(second.out()).contains("no_op: true").contains("committed_snapshot: none");
  }

  @Test
  void createsATableWithTypesChunkAndOptions() {
    Run run =
        cli.run(
            "create",
            "iot.prices",
            "--columns",
            "\"symbol id\" VARCHAR, time TIMESTAMP WITH TIME ZONE, price DECIMAL(18, 3) NOT NULL,"
                + " volume BIGINT",
            "--time-column",
            "time",
            "--series-key",
            "symbol id",
            "--chunk",
            "hour",
            "--no-ingest-time",
            "--option",
            "compression_codec=snappy");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("Created table iot.prices\n");
    Table table = table("iot.prices");
    assertThat(table.columns())
        .containsExactly(
            Column.required("symbol id", ColumnType.VARCHAR),
            Column.required("time", ColumnType.TIMESTAMPTZ),
            Column.required("price", ColumnType.decimal(18, 3)),
            Column.nullable("volume", ColumnType.BIGINT));
    assertThat(table.seriesKey()).containsExactly("symbol id");
    assertThat(table.chunk()).isEqualTo(Chunk.HOUR);
    assertThat(table.ingestTimeColumn()).isEmpty();
    assertThat(table.settings()).containsEntry("compression-codec", "snappy");
  }

  @Test
  void createRejectsAnUnknownType() {
    Run run = cli.run("create", "iot.t", "--columns", "tag VARCHAR, value FLOAT16");

    assertThat(run.status()).isEqualTo(ErrorCode.VALIDATION.exitStatus());
    assertThat(run.err()).startsWith("error: Unsupported column type 'FLOAT16' (expected one of ");
  }

  @Test
  void createRejectsAColumnWithoutType() {
    Run run = cli.run("create", "iot.t", "--columns", "tag VARCHAR, value");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: Invalid column 'value': expected name TYPE [NOT NULL], e.g. 'value DOUBLE'\n");
  }

  @Test
  void createRejectsAnExistingTable() {
    createReadings();

    Run run = cli.run("create", "iot.readings", "--columns", "tag VARCHAR");

    assertThat(run.status()).isEqualTo(ErrorCode.ALREADY_EXISTS.exitStatus());
    assertThat(run.err()).startsWith("error: ").contains("iot.readings").contains("exists");
  }

  @Test
  void alterSetsAndResetsSettings() {
    createReadings();

    Run set =
        cli.run(
            "alter",
            "iot.readings",
            "--set",
            "read_dedup=false",
            "--set",
            "timelake.read-dedup-strategy=keys-first");

    assertThat(set.status()).as(set.err()).isZero();
    assertThat(set.out())
        .isEqualTo(
            "Altered table iot.readings\n"
                + "  read-dedup = false\n"
                + "  read-dedup-strategy = keys-first\n");
    assertThat(table("iot.readings").settings())
        .containsEntry("read-dedup", "false")
        .containsEntry("read-dedup-strategy", "keys-first");

    Run reset = cli.run("alter", "iot.readings", "--reset", "read-dedup");

    assertThat(reset.status()).as(reset.err()).isZero();
    assertThat(reset.out())
        .isEqualTo("Altered table iot.readings\n  read-dedup = true (default)\n");
    assertThat(table("iot.readings").settings())
        .doesNotContainKey("read-dedup")
        .containsEntry("read-dedup-strategy", "keys-first");
  }

  @Test
  void alterRejectsABadValueNamingTheSetting() {
    createReadings();

    Run run = cli.run("alter", "iot.readings", "--set", "read-dedup-strategy=fast");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: Invalid setting 'read-dedup-strategy': 'fast' (expected merge or keys-first)\n");
    assertThat(table("iot.readings").settings()).doesNotContainKey("read-dedup-strategy");
  }

  @Test
  void alterRejectsACreateOnlySetting() {
    createReadings();

    Run run = cli.run("alter", "iot.readings", "--set", "chunk=hour");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: Cannot alter iot.readings: setting 'chunk' cannot be changed after creation"
                + " (allowed: create)\n");
  }

  @Test
  void alterAddsColumnsThatOlderRowsReadAsNull() {
    cli.run(
        "create",
        "iot.extra",
        "--columns",
        "device VARCHAR, time TIMESTAMPTZ, value DOUBLE",
        "--time-column",
        "time",
        "--series-key",
        "device");
    Run added =
        cli.run(
            "alter",
            "iot.extra",
            "--add-column",
            "quality INTEGER",
            "--add-column",
            "note VARCHAR");
    assertThat(added.status()).as(added.err()).isZero();
    assertThat(added.out())
        .contains("Altered table iot.extra: added quality INTEGER, note VARCHAR");
    Run again = cli.run("alter", "iot.extra", "--add-column", "quality INTEGER");
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains("it has a column of that name already");
  }

  @Test
  void alterWithoutChangesIsAUsageError() {
    Run run = cli.run("alter", "iot.readings");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("Nothing to alter: give --set, --reset or --add-column\n");
  }

  @Test
  void dropDropsATable() {
    createReadings();

    Run run = cli.run("drop", "iot.readings");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("Dropped table iot.readings\n");
    try (Lake lake = Lake.open(warehouse)) {
      assertThat(lake.tables()).doesNotContain(TableName.parse("iot.readings"));
    }
  }

  @Test
  void rollbackMakesAnEarlierSnapshotCurrentAndInfoSaysWhichItIs() {
    createReadings();
    long first;
    long second;
    try (Lake lake = Lake.open(warehouse)) {
      lake.table("iot.readings")
          .newAppend()
          .row("a", java.time.Instant.parse("2026-01-01T00:00:00Z"), 1.0)
          .commit();
      first = lake.table("iot.readings").snapshotId().orElseThrow();
      lake.table("iot.readings")
          .newAppend()
          .row("b", java.time.Instant.parse("2026-01-01T00:00:00Z"), 2.0)
          .commit();
      second = lake.table("iot.readings").snapshotId().orElseThrow();
    }

    Run run = cli.run("rollback", "iot.readings", "--to", Long.toString(first));

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "Rolled back iot.readings from snapshot " + second + " to snapshot " + first + "\n");
    assertThat(cli.run("info", "iot.readings").out()).contains("Current snapshot: " + first + "\n");
    Run missing = cli.run("rollback", "iot.readings", "--to", "42");
    assertThat(missing.status()).isEqualTo(3);
    assertThat(missing.err())
        .startsWith("error: Cannot roll back iot.readings to snapshot 42: the table keeps no such");
    Run both = cli.run("rollback", "iot.readings", "--to", "1", "--before", "2026-01-01T00:00:00Z");
    assertThat(both.status()).isNotZero();
    assertThat(cli.run("rollback", "iot.readings", "--before", "yesterday").err())
        .startsWith("error: Invalid --before 'yesterday': give a time with its offset");
    assertThat(cli.run("rollback", "iot.readings", "--to", Long.toString(second)).status())
        .isZero();
  }

  @Test
  void dropOfAMissingTableFailsUnlessIfExists() {
    Run run = cli.run("drop", "iot.nothing");

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.err()).isEqualTo("error: Cannot drop iot.nothing: it does not exist\n");

    Run ifExists = cli.run("drop", "iot.nothing", "--if-exists");

    assertThat(ifExists.status()).isZero();
    assertThat(ifExists.out()).isEqualTo("Table iot.nothing does not exist\n");
  }

  @Test
  void importIntoAnUnknownTableExitsWithNotFound() throws IOException {
    Path csv = Files.writeString(directory.resolve("r.csv"), "tag\nx\n");

    Run run = cli.run("import", "iot.nothing", csv.toString());

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.err()).startsWith("error: Table iot.nothing does not exist in warehouse ");
  }

  @Test
  void importOfAMissingFileExitsWithNotFound() {
    createReadings();
    Path missing = directory.resolve("missing.csv");

    Run run = cli.run("import", "iot.readings", missing.toString());

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.err())
        .isEqualTo(
            "error: Cannot import " + missing + " into iot.readings: the file does not exist\n");
  }

  @Test
  void importsSeveralFilesInOneCommitAndSessionSettingsApplyToQueries() throws IOException {
    createReadings();
    Path first =
        Files.writeString(
            directory.resolve("first.csv"),
            "tag,time,value\na,2026-01-01T10:00:00Z,1\nb,2026-01-01T10:00:00Z,2\n");
    Path second =
        Files.writeString(
            directory.resolve("second.tsv"), "tag\ttime\tvalue\na\t2026-01-01T10:00:00Z\t5\n");

    Path third =
        Files.writeString(
            directory.resolve("third.csv"), "tag,time,value\na,2026-01-01T10:00:00Z,7\n");

    Run imported = cli.run("import", "iot.readings", first.toString(), second.toString());
    Run again = cli.run("import", "iot.readings", third.toString());

    assertThat(imported.status()).as(imported.err()).isZero();
    assertThat(imported.out())
        .startsWith("Imported 2 rows into iot.readings: 1 copy dropped, 1 file written, snapshot");
    assertThat(again.status()).as(again.err()).isZero();
    assertThat(table("iot.readings").info().snapshots()).hasSize(2);
    String count = "SELECT count(*) AS n, max(value) AS newest FROM iot.readings WHERE tag = 'a'";
    assertThat(cli.run("sql", "--format", "csv", "-c", count).out()).isEqualTo("n,newest\n1,7.0\n");
    Run withCopies =
        cli.run("--set", "timelake.read_dedup=false", "sql", "--format", "csv", "-c", count);
    assertThat(withCopies.out()).as(withCopies.err()).isEqualTo("n,newest\n2,7.0\n");
  }

  @Test
  void latestOfATableWithoutSeriesKeyIsItsNewestRow() {
    Run created =
        cli.run(
            "create",
            "iot.events",
            "--columns",
            "time TIMESTAMPTZ, what VARCHAR",
            "--time-column",
            "time",
            "--no-ingest-time");
    assertThat(created.status()).as(created.err()).isZero();
    Run inserted =
        cli.run(
            "sql",
            "-c",
            "INSERT INTO iot.events VALUES (TIMESTAMPTZ '2026-01-01 10:00:00+00', 'old'),"
                + " (TIMESTAMPTZ '2026-01-03 10:00:00+00', 'new'),"
                + " (TIMESTAMPTZ '2026-01-02 10:00:00+00', 'middle')");
    assertThat(inserted.out()).as(inserted.err()).isEqualTo("Inserted 3 rows into iot.events\n");

    Run run = cli.run("latest", "iot.events", "--format", "json");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("{\"time\":\"2026-01-03T10:00:00Z\",\"what\":\"new\"}\n");
  }

  @Test
  void latestRejectsAPlainTable() {
    Run created = cli.run("create", "plain", "--columns", "name VARCHAR");
    assertThat(created.status()).as(created.err()).isZero();

    Run run = cli.run("latest", "plain");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: Cannot show the latest rows of default.plain: latest needs a time-series"
                + " table (it has no time column)\n");
    assertThat(cli.run("ls").out()).isEqualTo("default.plain  plain\n");
  }

  @Test
  void latestQuotesNames() {
    createReadings();
    Table table = table("iot.readings");

    assertThat(LatestCommand.sql(table))
        .isEqualTo(
            "SELECT * FROM \"iot\".\"readings\" QUALIFY row_number() OVER (PARTITION BY \"tag\""
                + " ORDER BY \"time\" DESC) = 1 ORDER BY \"tag\"");
  }
}
