package dev.timelake.catalog;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.readings;
import static dev.timelake.TestTables.utc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.NotFoundException;
import dev.timelake.QueryFailedException;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.ValidationException;
import dev.timelake.engine.SqlText;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.storage.Warehouse;
import dev.timelake.testkit.LocalS3;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Lakes on the embedded catalog and on a Hadoop catalog: tables, namespaces and their SQL. */
class LakeCatalogTest {
  private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");

  /** The catalogs a lake can live in. */
  enum Kind {
    EMBEDDED(root -> Lake.open(root.resolve("warehouse"))),
    HADOOP(
        root ->
            Lake.open(
                Map.of("type", "hadoop", "warehouse", root.resolve("warehouse").toString()),
                root.resolve("tmp")));

    private final Function<Path, Lake> opener;

    Kind(Function<Path, Lake> opener) {
      this.opener = opener;
    }

    Lake open(Path root) {
      return opener.apply(root);
    }
  }

  @TempDir Path root;

  @ParameterizedTest
  @EnumSource(Kind.class)
  void createsAppendsQueriesAndDropsTables(Kind kind) {
    try (Lake lake = kind.open(root);
        Session session = lake.newSession()) {
      session.sql(
          "CREATE TABLE iot.readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'device')");
      Table table = lake.table("iot.readings");
      table.newAppend().row("a", T1, 1.0).row("b", T1, 2.0).commit();
      table.newAppend().row("a", T1, 3.0).commit();

      try (QueryResult result =
          session.sql("SELECT device, value FROM iot.readings ORDER BY device")) {
        assertThat(result.rows()).containsExactly(List.of("a", 3.0), List.of("b", 2.0));
      }
      String location = table.info().location();
      assertThat(dataFiles(location)).hasSize(2);

      assertThat(session.sql("DROP TABLE iot.readings").message())
          .isEqualTo("Dropped table iot.readings");

      assertThat(lake.tables()).isEmpty();
      assertThat(dataFiles(location)).isEmpty();
      assertThatThrownBy(() -> lake.table("iot.readings"))
          .isInstanceOf(NotFoundException.class)
          .hasMessage(
              "Table iot.readings does not exist in %s (the lake has no tables yet)",
              lake.description());
      assertThatThrownBy(() -> session.sql("SELECT * FROM iot.readings"))
          .isInstanceOf(NotFoundException.class)
          .hasMessage(
              "Table iot.readings does not exist in %s (the lake has no tables yet)",
              lake.description());
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void keepsTablesAcrossReopening(Kind kind) {
    try (Lake lake = kind.open(root)) {
      lake.createTable(readings("iot.kept").build()).newAppend().row("a", T1, 1.0).commit();
    }

    try (Lake lake = kind.open(root)) {
      assertThat(lake.tables()).containsExactly(TableName.parse("iot.kept"));
      assertThat(query(lake, "SELECT device, time, value FROM iot.kept"))
          .containsExactly(List.of("a", utc(T1), 1.0));
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void resolvesUnqualifiedNamesToTheDefaultNamespace(Kind kind) {
    try (Lake lake = kind.open(root);
        Session session = lake.newSession()) {
      session.sql(
          "CREATE TABLE Readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'device')");
      session.sql(
          "INSERT INTO readings VALUES ('a', TIMESTAMPTZ '2026-01-01 10:00:00+00', 1.0::DOUBLE)");

      assertThat(lake.tables()).containsExactly(new TableName("default", "readings"));
      assertThat(lake.table("readings").name()).hasToString("default.readings");
      try (QueryResult result = session.sql("SELECT count(*) FROM READINGS")) {
        assertThat(result.rows()).containsExactly(List.of(1L));
      }
      try (QueryResult result = session.sql("SELECT count(*) FROM \"default\".\"readings\"")) {
        assertThat(result.rows()).containsExactly(List.of(1L));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void showsTablesOfEveryNamespaceSorted(Kind kind) {
    try (Lake lake = kind.open(root);
        Session session = lake.newSession()) {
      lake.createTable(readings("iot.readings").build());
      session.sql("CREATE TABLE sites (site VARCHAR, city VARCHAR)");
      lake.createTable(readings("energy.meters").build());

      try (QueryResult result = session.sql("SHOW TABLES")) {
        assertThat(result.columnNames()).containsExactly("namespace", "name", "kind");
        assertThat(result.rows())
            .containsExactly(
                List.of("default", "sites", "plain"),
                List.of("energy", "meters", "time-series"),
                List.of("iot", "readings", "time-series"));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void describesColumnsWithTheirRoles(Kind kind) {
    try (Lake lake = kind.open(root);
        Session session = lake.newSession()) {
      lake.createTable(readings("iot.readings").build());

      try (QueryResult result = session.sql("DESCRIBE iot.readings")) {
        assertThat(result.columnNames())
            .containsExactly("column_name", "column_type", "null", "key");
        assertThat(result.rows())
            .containsExactly(
                List.of("device", "VARCHAR", "NO", "series key"),
                List.of("time", "TIMESTAMPTZ", "NO", "time"),
                List.of("value", "DOUBLE", "YES", ""),
                List.of("_ingest_ts", "TIMESTAMPTZ", "NO", "insertion time"));
      }
      assertThatThrownBy(() -> session.sql("DESCRIBE iot.nope"))
          .isInstanceOf(NotFoundException.class)
          .hasMessage(
              "Table iot.nope does not exist in %s (tables in iot: iot.readings)",
              lake.description());
      assertThatThrownBy(() -> session.sql("SELECT count(*) FROM iot.nope"))
          .isInstanceOf(NotFoundException.class)
          .hasMessage(
              "Table iot.nope does not exist in %s (tables in iot: iot.readings)",
              lake.description());
      assertThatThrownBy(() -> session.sql("SELECT * FROM elsewhere.readings"))
          .isInstanceOf(QueryFailedException.class)
          .hasMessageContaining("elsewhere");
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void dropsOnlyTablesThatExistUnlessAskedIfExists(Kind kind) {
    try (Lake lake = kind.open(root);
        Session session = lake.newSession()) {
      assertThat(session.sql("DROP TABLE IF EXISTS iot.nope").message())
          .isEqualTo("Table iot.nope does not exist");
      assertThatThrownBy(() -> session.sql("DROP TABLE nope"))
          .isInstanceOf(NotFoundException.class)
          .hasMessage("Cannot drop default.nope: it does not exist");
      assertThat(lake.dropTable(TableName.parse("iot.nope"))).isFalse();

      Table gone = lake.createTable(readings("iot.gone").build());
      gone.newAppend().row("a", T1, 1.0).row("b", T1.plusSeconds(86_400), 2.0).commit();
      Path folder = Path.of(SqlText.localPath(gone.info().location()));
      assertThat(folder).isDirectory();
      assertThat(session.sql("DROP TABLE IF EXISTS iot.gone").message())
          .isEqualTo("Dropped table iot.gone");
      assertThat(lake.findTable(TableName.parse("iot.gone"))).isEmpty();
      assertThat(folder).as("no empty folders left behind").doesNotExist();
    }
  }

  @Test
  void dropOfATableOutsideTheWarehouseDeletesNothingElseThere() throws Exception {
    Path warehouse = root.resolve("warehouse");
    Path outside = root.resolve("outside");
    try (Lake lake = Lake.open(warehouse)) {
      lake.createTable(readings("iot.readings").build());
      // An old or foreign table, or one a catalog client placed where it liked.
      createIcebergTable(warehouse, TableIdentifier.of("iot", "foreign"), outside);
      List<Path> canaries =
          List.of(
              write(outside.resolve("data/canary.parquet")),
              write(outside.resolve("metadata/canary.json")),
              write(outside.resolve("staging/canary.csv")));

      assertThat(lake.dropTable(TableName.parse("iot.foreign"))).isTrue();

      assertThat(lake.findTable(TableName.parse("iot.foreign"))).isEmpty();
      assertThat(canaries).allSatisfy(canary -> assertThat(canary).isRegularFile());
    }
  }

  @Test
  void dropOfATableAtANamespaceFolderKeepsTheTablesInside() throws Exception {
    Path warehouse = root.resolve("warehouse");
    try (Lake lake = Lake.open(warehouse)) {
      // iot.data's files are under <warehouse>/iot/data/: the data folder of a table at iot/.
      Table data = lake.createTable(readings("iot.data").build());
      data.newAppend().row("a", T1, 1.0).commit();
      List<Path> files = dataFiles(data);
      createIcebergTable(
          warehouse, TableIdentifier.of("iot", "squatter"), warehouse.resolve("iot"));

      assertThat(lake.dropTable(TableName.parse("iot.squatter"))).isTrue();

      assertThat(files).isNotEmpty().allSatisfy(file -> assertThat(file).isRegularFile());
      assertThat(query(lake, "SELECT device, value FROM iot.data"))
          .containsExactly(List.of("a", 1.0));
    }
  }

  @Test
  void dropDeletesLeftoversOnlyInTheWarehouseTheLakeWasGiven() throws Exception {
    Path warehouse = root.resolve("warehouse");
    Path leftover;
    try (LakeCatalog elsewhere =
        new LakeCatalog(
            Catalogs.openEmbedded(warehouse),
            "a lake told its warehouse is elsewhere",
            root.resolve("tmp"),
            Warehouse.of(root.resolve("elsewhere")))) {
      String location = elsewhere.create(readings("iot.kept").build()).iceberg().location();
      leftover = write(Path.of(location, "staging", "left.csv"));

      assertThat(elsewhere.drop(TableName.parse("iot.kept"))).isTrue();
    }
    assertThat(leftover).as("not in the warehouse this lake was given").isRegularFile();

    try (LakeCatalog lake =
        new LakeCatalog(
            Catalogs.openEmbedded(warehouse),
            "a lake told its warehouse",
            root.resolve("tmp"),
            Warehouse.of(warehouse))) {
      String location = lake.create(readings("iot.gone").build()).iceberg().location();
      leftover = write(Path.of(location, "staging", "left.csv"));

      assertThat(lake.drop(TableName.parse("iot.gone"))).isTrue();

      assertThat(leftover).doesNotExist();
      assertThat(Path.of(location)).as("no empty folders left behind").doesNotExist();
    }
  }

  @Test
  void dropOnObjectStorageDeletesLeftoversOnlyUnderTheWarehousePrefix() throws Exception {
    try (LocalS3 s3 = LocalS3.start(root.resolve("s3"))) {
      String warehouse = s3.createBucket("plant") + "/lake";
      Path objects = s3.folderOf("plant");
      Map<String, String> properties = new java.util.HashMap<>(s3.properties());
      properties.put("uri", "jdbc:sqlite:" + root.resolve("catalog.db"));
      properties.put(LakeFileIO.CACHE_DIRECTORY, root.resolve("cache").toString());
      try (Lake lake = Lake.open(warehouse, properties)) {
        lake.createTable(readings("iot.gone").build());
        Path leftover = write(objects.resolve("lake/iot/gone/staging/left.csv"));
        org.apache.iceberg.catalog.Catalog iceberg =
            Catalogs.openWarehouse(Warehouse.parse(warehouse), properties);
        try {
          iceberg
              .buildTable(
                  TableIdentifier.of("iot", "foreign"),
                  new Schema(Types.NestedField.optional(1, "tag", Types.StringType.get())))
              .withLocation("s3://plant/elsewhere")
              .create();
        } finally {
          ((AutoCloseable) iceberg).close();
        }
        Path canary = write(objects.resolve("elsewhere/staging/canary.csv"));

        assertThat(lake.dropTable(TableName.parse("iot.foreign"))).isTrue();
        assertThat(lake.dropTable(TableName.parse("iot.gone"))).isTrue();

        assertThat(canary).isRegularFile();
        assertThat(leftover).doesNotExist();
      }
    }
  }

  /** Creates a table through Iceberg's own catalog API, at {@code location}. */
  private static void createIcebergTable(Path warehouse, TableIdentifier id, Path location)
      throws Exception {
    org.apache.iceberg.catalog.Catalog iceberg = Catalogs.openEmbedded(warehouse);
    try {
      iceberg
          .buildTable(id, new Schema(Types.NestedField.optional(1, "tag", Types.StringType.get())))
          .withLocation(location.toString())
          .create();
    } finally {
      ((AutoCloseable) iceberg).close();
    }
  }

  private static Path write(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, "canary");
  }

  @Test
  void lakesOnOneWarehouseSeeEachOthersCommits() {
    try (Lake writer = Lake.open(root.resolve("warehouse"));
        Lake reader = Lake.open(root.resolve("warehouse"))) {
      Table table = writer.createTable(readings("iot.shared").build());
      assertThat(query(reader, "SELECT count(*) FROM iot.shared")).containsExactly(List.of(0L));

      table.newAppend().row("a", T1, 1.0).commit();

      assertThat(query(reader, "SELECT count(*) FROM iot.shared")).containsExactly(List.of(1L));
    }
  }

  @Test
  void keepsTheEmbeddedCatalogInsideTheWarehouse() {
    try (Lake lake = Lake.open(root.resolve("warehouse"))) {
      lake.createTable(readings("iot.readings").build());
    }

    assertThat(root.resolve("warehouse").resolve(Catalogs.EMBEDDED_CATALOG_FILE)).isRegularFile();
    assertThat(Files.isDirectory(root.resolve("warehouse/iot/readings/metadata"))).isTrue();
  }

  @Test
  void rejectsInvalidTableNames() {
    assertThatThrownBy(() -> TableName.parse("a.b.c"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid table name 'a.b.c': expected namespace.table or table");
    assertThatThrownBy(() -> TableName.parse("iot.1st"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Invalid table name '1st' in 'iot.1st': use letters, digits and _, starting with a"
                + " letter or _");
  }
}
