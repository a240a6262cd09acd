package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.TableName;
import dev.timelake.catalog.Catalogs;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * REST clients stay inside the warehouse: odd or reserved names, locations and properties that
 * point elsewhere, metadata registered from elsewhere are refused with a 400 that names the value
 * and what is allowed, and nothing changes; purges and drops delete nothing outside it.
 */
class IcebergRestConfinementTest extends WithRestCatalog {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.optional(1, "tag", Types.StringType.get()));
  private static final TableIdentifier READINGS = TableIdentifier.of("iot", "readings");

  @TempDir Path elsewhere;
  private RESTCatalog rest;

  /** A REST client of the server, its namespace iot created. */
  @BeforeEach
  void connectClient() throws Exception {
    rest =
        (RESTCatalog)
            Catalogs.open(
                Catalogs.withLakeStorage(
                    Map.of("type", "rest", "uri", server.uri().toString()),
                    warehouse.resolve(".client")));
    rest.createNamespace(Namespace.of("iot"));
  }

  @AfterEach
  void closeClient() throws Exception {
    rest.close();
  }

  /** Where the catalog places the table {@code iot.<name>}. */
  private String folder(String name) {
    return warehouse.toAbsolutePath().normalize().resolve("iot").resolve(name).toString();
  }

  private static String metadataFile(Table table) {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  private List<Path> filesElsewhere() throws Exception {
    try (Stream<Path> files = Files.walk(elsewhere)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  /** The server still serves: a table is created where it belongs and listed. */
  private void assertStillServes() {
    rest.createTable(TableIdentifier.of("iot", "after"), SCHEMA);
    assertThat(rest.listTables(Namespace.of("iot"))).contains(TableIdentifier.of("iot", "after"));
    assertThat(backing.loadTable(TableIdentifier.of("iot", "after")).location())
        .isEqualTo(folder("after"));
  }

  @Test
  void refusesNamespacesThatAreNotOneValidUnreservedNameWithAnErrorResponse() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    // The namespace's levels as JSON, and as the message shows them.
    Map<String, String> refused =
        Map.of(
            "\"..\"", "..",
            "\"a\", \"b\"", "a.b",
            "\"1st\"", "1st",
            "\"x/y\"", "x/y",
            "\"\"", "");
    for (Map.Entry<String, String> namespace : refused.entrySet()) {
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(server.uri().resolve("/v1/namespaces"))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"namespace\": [" + namespace.getKey() + "]}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      ErrorResponse error = ErrorResponseParser.fromJson(answer.body());
      assertThat(answer.statusCode()).as(namespace.getKey()).isEqualTo(400);
      assertThat(error.code()).isEqualTo(400);
      assertThat(error.type()).isEqualTo("BadRequestException");
      assertThat(error.message())
          .isEqualTo(
              "Cannot create namespace '%s': a namespace is one name of letters, digits and _,"
                  + " starting with a letter or _",
              namespace.getValue());
    }
    assertThatThrownBy(() -> rest.createNamespace(Namespace.of("..")))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot create namespace '..': a namespace is one name of letters,"
                + " digits and _, starting with a letter or _");
    for (String reserved : List.of("system", "pg_catalog", "tl_x", "__tl")) {
      assertThatThrownBy(() -> rest.createNamespace(Namespace.of(reserved)))
          .isInstanceOf(BadRequestException.class)
          .hasMessage(
              "Malformed request: Cannot create namespace '%s': the name is reserved (DuckDB's and"
                  + " PostgreSQL's catalog names such as system, main, temp or pg_catalog, and"
                  + " names starting with tl_ or __tl); choose another",
              reserved);
    }
    assertThatThrownBy(
            () ->
                rest.createNamespace(
                    // Iceberg's client asks the map for a null key, which Map.of refuses.
                    Namespace.of("ops"),
                    new java.util.HashMap<>(Map.of("location", elsewhere + "/ops"))))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot create namespace 'ops': property 'location' is '%s/ops';"
                + " the catalog places namespaces in the warehouse itself (allowed: no location)",
            elsewhere);
    assertThatThrownBy(
            () ->
                rest.setProperties(
                    Namespace.of("iot"),
                    new java.util.HashMap<>(Map.of("location", elsewhere.toString()))))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot set properties of namespace 'iot': property 'location' is"
                + " '%s'; the catalog places namespaces in the warehouse itself (allowed: no"
                + " location)",
            elsewhere);

    assertThat(((SupportsNamespaces) backing).listNamespaces())
        .containsExactly(Namespace.of("iot"));
    assertThat(((SupportsNamespaces) backing).loadNamespaceMetadata(Namespace.of("iot")))
        .containsEntry("location", warehouse.resolve("iot").toString());
    assertStillServes();
  }

  @Test
  void refusesTablesWithInvalidOrReservedNames() {
    assertThatThrownBy(() -> rest.createTable(TableIdentifier.of("iot", ".."), SCHEMA))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Invalid table name '..' in 'iot...': use letters, digits and _,"
                + " starting with a letter or _");
    assertThatThrownBy(() -> rest.createTable(TableIdentifier.of("iot", "tl_rollups"), SCHEMA))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith(
            "Malformed request: Cannot create iot.tl_rollups: 'tl_rollups' is a reserved name");
    rest.createTable(READINGS, SCHEMA);
    assertThatThrownBy(
            () -> rest.renameTable(READINGS, TableIdentifier.of("iot", "information_schema")))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith(
            "Malformed request: Cannot rename iot.readings to iot.information_schema: Cannot create"
                + " iot.information_schema: 'information_schema' is a reserved name");

    assertThat(backing.listTables(Namespace.of("iot"))).containsExactly(READINGS);
    assertStillServes();
  }

  @Test
  void createsTablesOnlyInTheirOwnFolder() throws Exception {
    String own = folder("readings");
    for (String location :
        List.of(
            elsewhere.toString(),
            "file:" + elsewhere,
            own + "/../../../" + elsewhere.getFileName(),
            own + "/../other",
            folder("other"),
            warehouse.toString(),
            own + "/data",
            "s3://bucket/lake/iot/readings",
            "relative/iot/readings")) {
      assertThatThrownBy(() -> rest.buildTable(READINGS, SCHEMA).withLocation(location).create())
          .as(location)
          .isInstanceOf(BadRequestException.class)
          .hasMessage(
              "Malformed request: Cannot create table iot.readings at '%s': a table's location is"
                  + " its folder in the warehouse (allowed: '%s', or none)",
              location, own);
      assertThatThrownBy(
              () -> rest.buildTable(READINGS, SCHEMA).withLocation(location).createTransaction())
          .as("staged at %s", location)
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("Cannot create table iot.readings at '%s'", location);
    }
    assertThat(backing.tableExists(READINGS)).isFalse();
    assertThat(filesElsewhere()).isEmpty();

    rest.buildTable(READINGS, SCHEMA).withLocation(own + "/").create();
    assertThat(backing.loadTable(READINGS).location()).isIn(own, own + "/");
    rest.buildTable(TableIdentifier.of("iot", "staged"), SCHEMA)
        .withLocation(folder("staged"))
        .createTransaction()
        .commitTransaction();
    assertThat(backing.loadTable(TableIdentifier.of("iot", "staged")).location())
        .isEqualTo(folder("staged"));
    assertStillServes();
  }

  @Test
  void refusesPropertiesThatMoveFilesOutOfTheTablesFolder() throws Exception {
    String own = folder("readings");
    Map<String, String> refused =
        Map.of(
            "write.data.path",
            elsewhere.toString(),
            "write.metadata.path",
            own + "/../other/metadata",
            "write.object-storage.path",
            "s3://bucket/anywhere",
            "write.folder-storage.path",
            folder("other"));
    for (Map.Entry<String, String> property : refused.entrySet()) {
      assertThatThrownBy(
              () ->
                  rest.buildTable(READINGS, SCHEMA)
                      .withProperty(property.getKey(), property.getValue())
                      .create())
          .as(property.getKey())
          .isInstanceOf(BadRequestException.class)
          .hasMessage(
              "Malformed request: Cannot create table iot.readings: property '%s' is '%s',"
                  + " outside the table's folder (allowed: '%s' or a path inside it)",
              property.getKey(), property.getValue(), own);
    }
    assertThatThrownBy(
            () ->
                rest.buildTable(READINGS, SCHEMA)
                    .withProperty("write.location-provider.impl", "com.example.Anywhere")
                    .create())
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot create table iot.readings: property"
                + " 'write.location-provider.impl' is 'com.example.Anywhere'; a location provider"
                + " may put files anywhere, so clients cannot choose one (allowed: none)");
    assertThat(backing.tableExists(READINGS)).isFalse();

    Table table =
        rest.buildTable(READINGS, SCHEMA).withProperty("write.data.path", own + "/hot").create();
    String before = metadataFile(backing.loadTable(READINGS));
    assertThatThrownBy(
            () -> table.updateProperties().set("write.data.path", elsewhere.toString()).commit())
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot update table iot.readings: property 'write.data.path' is"
                + " '%s', outside the table's folder (allowed: '%s' or a path inside it)",
            elsewhere, own);

    Table current = backing.loadTable(READINGS);
    assertThat(metadataFile(current)).isEqualTo(before);
    assertThat(current.properties()).containsEntry("write.data.path", own + "/hot");
    assertThat(filesElsewhere()).isEmpty();
    assertStillServes();
  }

  @Test
  void refusesMovingATableOutOfItsFolder() throws Exception {
    Table table = rest.createTable(READINGS, SCHEMA);
    String before = metadataFile(backing.loadTable(READINGS));

    assertThatThrownBy(() -> table.updateLocation().setLocation(elsewhere.toString()).commit())
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot update table iot.readings at '%s': a table's location is"
                + " its folder in the warehouse (allowed: '%s', or none)",
            elsewhere, folder("readings"));

    Table current = backing.loadTable(READINGS);
    assertThat(current.location()).isEqualTo(folder("readings"));
    assertThat(metadataFile(current)).isEqualTo(before);
    assertStillServes();
  }

  @Test
  void registersOnlyMetadataOfATableInItsOwnFolder() throws Exception {
    TableIdentifier copy = TableIdentifier.of("iot", "copy");
    // A table placed outside the warehouse, through Iceberg's API on the catalog itself.
    String foreign =
        metadataFile(
            backing
                .buildTable(TableIdentifier.of("iot", "foreign"), SCHEMA)
                .withLocation(elsewhere.toString())
                .create());

    assertThatThrownBy(() -> rest.registerTable(copy, foreign))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot register table iot.copy: the metadata file is '%s', outside"
                + " its folder (allowed: '%s' or a path inside it)",
            foreign, folder("copy"));
    // The same metadata copied into the folder still places the table outside.
    Path copied = Path.of(folder("copy"), "metadata", "v1.metadata.json");
    Files.createDirectories(copied.getParent());
    Files.copy(Path.of(foreign), copied);
    assertThatThrownBy(() -> rest.registerTable(copy, copied.toString()))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot register table iot.copy at '%s': a table's location is its"
                + " folder in the warehouse (allowed: '%s', or none)",
            elsewhere, folder("copy"));
    assertThat(backing.tableExists(copy)).isFalse();

    Table readings = rest.createTable(READINGS, SCHEMA);
    String metadata = metadataFile(backing.loadTable(READINGS));
    assertThatThrownBy(() -> rest.registerTable(READINGS, metadata, true))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(
            "Malformed request: Cannot register table iot.readings over the table of that name:"
                + " drop it first");
    assertThat(rest.dropTable(READINGS, false)).isTrue();
    assertThat(rest.registerTable(READINGS, metadata).location()).isEqualTo(readings.location());
    assertStillServes();
  }

  @Test
  void dropsOfATableOutsideTheWarehouseDeleteNothingThere() throws Exception {
    TableIdentifier foreign = TableIdentifier.of("iot", "foreign");
    Table outside = backing.buildTable(foreign, SCHEMA).withLocation(elsewhere.toString()).create();
    Path canary =
        Files.writeString(
            Files.createDirectories(elsewhere.resolve("data")).resolve("canary"), "x");
    List<Path> before = filesElsewhere();
    assertThat(before).contains(canary, Path.of(metadataFile(outside)));
    String inside = metadataFile(rest.createTable(READINGS, SCHEMA));

    assertThat(rest.dropTable(foreign, true)).isTrue();
    assertThat(rest.dropTable(READINGS, true)).isTrue();

    assertThat(filesElsewhere()).containsExactlyInAnyOrderElementsOf(before);
    assertThat(Path.of(inside)).as("purged inside the warehouse").doesNotExist();

    // A lake dropping such a table through the REST catalog: the server purges, the lake deletes
    // what Timelake leaves in the table's folders; neither outside the warehouse.
    backing.buildTable(foreign, SCHEMA).withLocation(elsewhere.toString()).create();
    List<Path> again = filesElsewhere();
    try (Lake lake = Lake.open(warehouse, Map.of("type", "rest", "uri", server.uri().toString()))) {
      assertThat(lake.dropTable(TableName.parse("iot.foreign"))).isTrue();
    }
    assertThat(filesElsewhere()).containsExactlyInAnyOrderElementsOf(again).contains(canary);
    assertThat(backing.tableExists(foreign)).isFalse();
    assertStillServes();
  }
}
