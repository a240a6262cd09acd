package dev.timelake.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.AlreadyExistsException;
import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.ValidationException;
import dev.timelake.catalog.Catalogs;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableCreatorTest {
  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void openLake() {
    lake = Lake.open(warehouse);
    session = lake.newSession();
  }

  @AfterAll
  static void closeLake() {
    session.close();
    lake.close();
  }

  @Test
  void refusesNamesTheEngineOrClientsGiveAnotherMeaning() {
    for (String name :
        List.of(
            "system.t",
            "memory.t",
            "temp.t",
            "main.t",
            "pg_catalog.t",
            "information_schema.t",
            "tl_pg.t",
            "iot.__tl_stage",
            "iot.pg_catalog")) {
      assertThatThrownBy(
              () ->
                  lake.createTable(
                      TableDefinition.builder(name).column("v", ColumnType.DOUBLE).build()))
          .as(name)
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining(
              "is a reserved name (reserved: information_schema, main, memory,"
                  + " pg_catalog, system, temp, and names starting with tl_ or __tl)");
    }
    assertThatThrownBy(() -> session.sql("CREATE TABLE main.t (v DOUBLE)"))
        .hasMessage(
            "Cannot create main.t: 'main' is a reserved name (reserved: information_schema, main,"
                + " memory, pg_catalog, system, temp, and names starting with tl_ or __tl); choose"
                + " another namespace");
    assertThat(lake.tables()).noneMatch(table -> table.namespace().equals("main"));
  }

  @Test
  void storesContractAsTimelakePropertiesOfAFormatTwoTable() {
    lake.createTable(
        TableDefinition.builder("iot.contract")
            .column("site", ColumnType.VARCHAR)
            .column("device", ColumnType.BIGINT)
            .column("time", ColumnType.TIMESTAMPTZ)
            .column("value", ColumnType.DOUBLE)
            .timeColumn("time")
            .seriesKey("site", "device")
            .chunk(Chunk.HOUR)
            .build());

    withIcebergTable(
        "iot",
        "contract",
        table -> {
          assertThat(table.properties())
              .containsEntry("timelake.time-column", "time")
              .containsEntry("timelake.series-key", "site,device")
              .containsEntry("timelake.chunk", "hour")
              .containsEntry("timelake.ingest-time-column", "_ingest_ts")
              .containsEntry("timelake.format-version", "2")
              .doesNotContainKey("timelake.ingest-time");
          assertThat(((HasTableOperations) table).operations().current().formatVersion())
              .isEqualTo(2);
        });
  }

  @Test
  void createsTableThroughSqlWithOptions() {
    assertThat(
            session
                .sql(
                    "CREATE TABLE iot.sqlmade (a VARCHAR, b INTEGER, time TIMESTAMPTZ, value DOUBLE)"
                        + " WITH (time_column = 'time', series_key = 'a, b', chunk = 'hour')")
                .message())
        .isEqualTo("Created table iot.sqlmade");

    Table table = lake.table("iot.sqlmade");
    assertThat(table.timeColumn()).contains("time");
    assertThat(table.seriesKey()).containsExactly("a", "b");
    assertThat(table.chunk()).isEqualTo(Chunk.HOUR);
    assertThat(table.ingestTimeColumn()).contains("_ingest_ts");
    assertThat(table.settings())
        .containsEntry("time-column", "time")
        .containsEntry("series-key", "a,b")
        .containsEntry("chunk", "hour")
        .containsEntry("ingest-time-column", "_ingest_ts")
        .containsEntry("format-version", "2");
    withIcebergTable(
        "iot",
        "sqlmade",
        iceberg -> {
          assertThat(iceberg.spec().fields()).hasSize(1);
          assertThat(iceberg.spec().fields().get(0).transform()).hasToString("hour");
          assertThat(iceberg.sortOrder().fields())
              .extracting(field -> iceberg.schema().findColumnName(field.sourceId()))
              .containsExactly("a", "b", "time");
        });
  }

  @Test
  void partitionsTimeColumnByChunk() {
    for (Chunk chunk : Chunk.values()) {
      String name = "chunk_" + chunk.label();
      lake.createTable(readings("iot." + name).chunk(chunk).build());
      withIcebergTable(
          "iot",
          name,
          table -> {
            PartitionField field = table.spec().fields().get(0);
            assertThat(table.spec().fields()).hasSize(1);
            assertThat(field.transform()).hasToString(chunk.label());
            assertThat(field.sourceId()).isEqualTo(table.schema().findField("time").fieldId());
          });
    }
  }

  @Test
  void defaultsToDailyChunks() {
    Table table = lake.createTable(readings("iot.daily").build());

    assertThat(table.chunk()).isEqualTo(Chunk.DAY);
    withIcebergTable(
        "iot",
        "daily",
        iceberg -> {
          assertThat(iceberg.properties()).containsEntry("timelake.chunk", "day");
          assertThat(iceberg.spec().fields().get(0).transform()).hasToString("day");
        });
  }

  @Test
  void sortsBySeriesKeyThenTimeAscending() {
    lake.createTable(readings("iot.sorted").build());

    withIcebergTable(
        "iot",
        "sorted",
        table -> {
          List<SortField> fields = table.sortOrder().fields();
          assertThat(fields)
              .extracting(field -> table.schema().findColumnName(field.sourceId()))
              .containsExactly("device", "time");
          assertThat(fields).extracting(SortField::direction).containsOnly(SortDirection.ASC);
          assertThat(fields).extracting(SortField::nullOrder).containsOnly(NullOrder.NULLS_FIRST);
          assertThat(fields)
              .extracting(field -> field.transform().toString())
              .containsOnly("identity");
        });
  }

  @Test
  void addsRequiredInsertionTimeColumnAndMakesKeyColumnsRequired() {
    Table table = lake.createTable(readings("iot.schema").build());

    assertThat(table.columns())
        .containsExactly(
            Column.required("device", ColumnType.VARCHAR),
            Column.required("time", ColumnType.TIMESTAMPTZ),
            Column.nullable("value", ColumnType.DOUBLE),
            Column.required("_ingest_ts", ColumnType.TIMESTAMPTZ));
    withIcebergTable(
        "iot",
        "schema",
        iceberg -> {
          Types.NestedField ingest = iceberg.schema().findField("_ingest_ts");
          assertThat(ingest.isRequired()).isTrue();
          assertThat(ingest.type()).isEqualTo(Types.TimestampType.withZone());
          assertThat(iceberg.schema().findField("time").isRequired()).isTrue();
          assertThat(iceberg.schema().findField("device").isRequired()).isTrue();
          assertThat(iceberg.schema().findField("value").isOptional()).isTrue();
        });
  }

  @Test
  void leavesOutInsertionTimeWhenAskedTo() {
    session.sql(
        "CREATE TABLE iot.noingest (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device', ingest_time = false)");

    Table table = lake.table("iot.noingest");
    assertThat(table.columns()).extracting(Column::name).containsExactly("device", "time", "value");
    assertThat(table.ingestTimeColumn()).isEmpty();
    assertThat(table.settings()).doesNotContainKeys("ingest-time-column", "ingest-time");
  }

  @Test
  void acceptsUserInsertionTimeColumnWithoutTheManagedOne() {
    Table table =
        lake.createTable(
            readings("iot.ownIngest")
                .column("_ingest_ts", ColumnType.TIMESTAMPTZ)
                .withoutIngestTime()
                .build());

    assertThat(table.ingestTimeColumn()).isEmpty();
    assertThat(table.columns()).extracting(Column::name).endsWith("_ingest_ts");
    assertThat(table.columns().get(3).isNullable()).isTrue();
  }

  @Test
  void createsPlainTableWithoutPartitionsSortOrderOrInsertionTime() {
    session.sql("CREATE TABLE sites (site VARCHAR NOT NULL, city VARCHAR)");

    Table table = lake.table("sites");
    assertThat(table.timeColumn()).isEmpty();
    assertThat(table.ingestTimeColumn()).isEmpty();
    assertThat(table.columns())
        .containsExactly(
            Column.required("site", ColumnType.VARCHAR),
            Column.nullable("city", ColumnType.VARCHAR));
    withIcebergTable(
        "default",
        "sites",
        iceberg -> {
          assertThat(iceberg.spec().isUnpartitioned()).isTrue();
          assertThat(iceberg.sortOrder().isUnsorted()).isTrue();
          assertThat(iceberg.properties()).containsEntry("timelake.format-version", "2");
        });
  }

  @Test
  void rejectsSeriesKeyWithoutTimeColumn() {
    assertThatThrownBy(
            () ->
                lake.createTable(
                    TableDefinition.builder("iot.bad1")
                        .column("device", ColumnType.VARCHAR)
                        .seriesKey("device")
                        .build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Cannot create iot.bad1: a series key needs a time column (set time_column)");
    assertThat(lake.findTable(TableName.parse("iot.bad1"))).isEmpty();
  }

  @Test
  void rejectsTimeColumnThatIsNotATimestamp() {
    assertThatThrownBy(
            () ->
                session.sql(
                    "CREATE TABLE iot.bad2 (device VARCHAR, time DATE, value DOUBLE)"
                        + " WITH (time_column = 'time')"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot create iot.bad2: time column 'time' has type DATE (expected TIMESTAMPTZ or"
                + " TIMESTAMP, or BIGINT for a logical clock)");
  }

  @Test
  void rejectsTimeColumnThatIsNotAColumn() {
    assertThatThrownBy(() -> lake.createTable(readings("iot.bad3").timeColumn("ts").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot create iot.bad3: time column 'ts' is not a column (columns: device, time,"
                + " value)");
  }

  @Test
  void rejectsUnknownSeriesKeyColumn() {
    assertThatThrownBy(
            () -> lake.createTable(readings("iot.bad4").seriesKey("device", "site").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot create iot.bad4: series-key column 'site' is not a column (columns: device,"
                + " time, value)");
  }

  @Test
  void rejectsDuplicateColumn() {
    assertThatThrownBy(
            () ->
                session.sql(
                    "CREATE TABLE iot.bad5 (device VARCHAR, time TIMESTAMPTZ, Value DOUBLE, value"
                        + " DOUBLE) WITH (time_column = 'time')"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Cannot create iot.bad5: column 'value' is declared twice");
  }

  @Test
  void rejectsSeriesKeyOfTypeDouble() {
    assertThatThrownBy(() -> lake.createTable(readings("iot.bad6").seriesKey("value").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot create iot.bad6: series-key column 'value' has type DOUBLE (expected VARCHAR,"
                + " INTEGER, BIGINT or UBIGINT)");
  }

  @Test
  void rejectsTimeColumnAsSeriesKeyAndRepeatedKeyColumns() {
    assertThatThrownBy(() -> lake.createTable(readings("iot.bad7").seriesKey("time").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot create iot.bad7: the time column 'time' cannot also be a series-key column");
    assertThatThrownBy(
            () -> lake.createTable(readings("iot.bad7").seriesKey("device", "device").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Cannot create iot.bad7: series-key column 'device' is listed twice");
  }

  @Test
  void rejectsTableThatAlreadyExists() {
    lake.createTable(readings("iot.twice").build());

    assertThatThrownBy(() -> lake.createTable(readings("iot.twice").build()))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessage("Cannot create iot.twice: it already exists");
    assertThatThrownBy(
            () ->
                session.sql(
                    "CREATE TABLE iot.twice (device VARCHAR, time TIMESTAMPTZ) WITH (time_column ="
                        + " 'time')"))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessage("Cannot create iot.twice: it already exists");
    assertThat(
            session
                .sql("CREATE TABLE IF NOT EXISTS iot.twice (device VARCHAR, time TIMESTAMPTZ)")
                .message())
        .isEqualTo("Table iot.twice already exists");
  }

  @Test
  void rejectsUnknownOption() {
    assertThatThrownBy(
            () ->
                session.sql(
                    "CREATE TABLE iot.bad8 (device VARCHAR, time TIMESTAMPTZ) WITH (time_column ="
                        + " 'time', colour = 'red')"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Unknown setting 'colour' (known settings: ")
        .hasMessageContaining("time-column");
  }

  @Test
  void rejectsOptionThatCannotBeSetOnATable() {
    assertThatThrownBy(
            () -> lake.createTable(readings("iot.bad9").option("ingest_time_column", "x").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot create iot.bad9: setting 'ingest-time-column' cannot be set on a table"
                + " (allowed: managed)");
  }

  @Test
  void rejectsBadChunkValue() {
    assertThatThrownBy(
            () ->
                session.sql(
                    "CREATE TABLE iot.bad10 (device VARCHAR, time TIMESTAMPTZ) WITH (time_column ="
                        + " 'time', chunk = 'fortnight')"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid setting 'chunk': 'fortnight' (expected hour, day or month)");
  }

  @Test
  void rejectsUserDeclaredInsertionTimeColumn() {
    assertThatThrownBy(
            () ->
                session.sql(
                    "CREATE TABLE iot.bad11 (device VARCHAR, time TIMESTAMPTZ, _ingest_ts"
                        + " TIMESTAMPTZ) WITH (time_column = 'time')"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot create iot.bad11: column '_ingest_ts' is reserved for the insertion time"
                + " (create with ingest_time = false to use it yourself)");
  }

  @Test
  void rejectsTableWithoutColumns() {
    assertThatThrownBy(() -> lake.createTable(TableDefinition.builder("iot.bad12").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Cannot create iot.bad12: it has no columns");
  }

  @Test
  void leavesNoTableBehindAfterARejectedDefinition() {
    assertThatThrownBy(() -> lake.createTable(readings("iot.bad13").seriesKey("value").build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Cannot create iot.bad13: ");

    assertThat(lake.tables()).extracting(Object::toString).doesNotContain("iot.bad13");
  }

  private static TableDefinition.Builder readings(String name) {
    return TableDefinition.builder(name)
        .column("device", ColumnType.VARCHAR)
        .column("time", ColumnType.TIMESTAMPTZ)
        .column("value", ColumnType.DOUBLE)
        .timeColumn("time")
        .seriesKey("device");
  }

  /** Loads the table through a second, independent Iceberg catalog on the same warehouse. */
  private static void withIcebergTable(
      String namespace, String name, Consumer<org.apache.iceberg.Table> check) {
    Catalog catalog = Catalogs.openEmbedded(warehouse);
    try {
      check.accept(catalog.loadTable(TableIdentifier.of(namespace, name)));
    } finally {
      try {
        ((Closeable) catalog).close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
