package dev.timelake.storage;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.TableName;
import dev.timelake.TestTables;
import dev.timelake.ValidationException;
import dev.timelake.testkit.LocalS3;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A warehouse on a real S3 API server (S3Proxy on loopback): every table operation works there as
 * on a local folder, DuckDB reading local copies of the objects.
 */
class ObjectStorageTest {
  @TempDir static Path serverFolder;
  private static LocalS3 s3;
  private static int buckets;

  @TempDir Path local;

  @BeforeAll
  static void startServer() throws Exception {
    s3 = LocalS3.start(serverFolder);
  }

  @AfterAll
  static void stopServer() throws Exception {
    s3.close();
  }

  /** Properties of a lake on a new bucket: the server, a SQLite catalog file, a cache folder. */
  private Map<String, String> lakeProperties(String cache) {
    Map<String, String> properties = new HashMap<>(s3.properties());
    properties.put("uri", "jdbc:sqlite:" + local.resolve("catalog.db"));
    properties.put(LakeFileIO.CACHE_DIRECTORY, local.resolve(cache).toString());
    return properties;
  }

  private String newBucket() {
    return s3.createBucket("lake" + ++buckets) + "/warehouse";
  }

  private static void append(Lake lake, String table, int from, int count, double value) {
    var append = lake.table(table).newAppend();
    for (int i = from; i < from + count; i++) {
      append.row(
          "d" + (i % 3),
          Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i).atOffset(ZoneOffset.UTC),
          value);
    }
    append.commit();
  }

  private List<Path> objects(String bucket) throws Exception {
    Path folder = s3.folderOf(bucket);
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void appendsCopiesMaintenanceAndDropWorkOnObjectStorage() throws Exception {
    String warehouse = newBucket();
    try (Lake lake = Lake.open(warehouse, lakeProperties("cache-a"))) {
      lake.createTable(TestTables.readings("iot.r").build());
      append(lake, "iot.r", 0, 100, 1.0);
      append(lake, "iot.r", 50, 100, 2.0); // 50 copies with newer values
      assertThat(lake.table("iot.r").info().location()).startsWith(warehouse + "/iot/r");
      assertThat(query(lake, "SELECT count(*), sum(value) FROM iot.r"))
          .containsExactly(List.of(150L, 250.0));
      assertThat(objects("lake" + buckets)).anyMatch(f -> f.toString().endsWith(".parquet"));

      lake.table("iot.r").newMaintenance().run();
      assertThat(lake.table("iot.r").refresh().info().partitions().get(0).files()).isEqualTo(1);
      assertThat(query(lake, "SELECT count(*), sum(value) FROM iot.r"))
          .containsExactly(List.of(150L, 250.0));
      assertThat(query(lake, "SELECT device, value FROM iot.r LATEST ON time PARTITION BY device"))
          .containsExactlyInAnyOrder(List.of("d0", 2.0), List.of("d1", 2.0), List.of("d2", 2.0));
    }
    // A second lake with its own, empty cache reads the same rows from the server.
    try (Lake other = Lake.open(warehouse, lakeProperties("cache-b"))) {
      assertThat(query(other, "SELECT count(*), sum(value) FROM iot.r"))
          .containsExactly(List.of(150L, 250.0));
      assertThat(other.dropTable(TableName.parse("iot.r"))).isTrue();
    }
    assertThat(objects("lake" + buckets)).isEmpty();
  }

  @Test
  void orphanCleanupDeletesStrayObjectsAndKeepsLiveOnes() throws Exception {
    String warehouse = newBucket();
    try (Lake lake = Lake.open(warehouse, lakeProperties("cache"))) {
      lake.createTable(TestTables.readings("iot.o").build());
      append(lake, "iot.o", 0, 10, 1.0);
      query(lake, "SELECT * FROM iot.o LATEST ON time PARTITION BY device");
      Path table = s3.folderOf("lake" + buckets).resolve("warehouse/iot/o");
      Path stray =
          Files.writeString(table.resolve("data/stray.parquet"), "left by a killed writer");
      int before = objects("lake" + buckets).size();

      var report =
          lake.table("iot.o")
              .newMaintenance()
              .clock(
                  java.time.Clock.offset(
                      java.time.Clock.systemUTC(), java.time.Duration.ofDays(30)))
              .run();

      assertThat(report.orphanFilesDeleted()).isEqualTo(1);
      assertThat(stray).doesNotExist();
      assertThat(objects("lake" + buckets)).hasSize(before - 1);
      assertThat(query(lake, "SELECT count(*) FROM iot.o")).containsExactly(List.of(10L));
    }
  }

  @Test
  void compactionsAndRefreshWindowsRunElsewhereOnObjectStorage() throws Exception {
    String warehouse = newBucket();
    try (Lake driver = Lake.open(warehouse, lakeProperties("cache-driver"));
        Lake executor = Lake.open(warehouse, lakeProperties("cache-executor"))) {
      driver.createTable(TestTables.readings("iot.d").build());
      for (int a = 0; a < 4; a++) {
        append(driver, "iot.d", a * 20, 60, a);
      }
      try (var session = driver.newSession();
          var ignored =
              session.sql(
                  "CREATE MATERIALIZED ROLLUP iot.d_1m AS SELECT device, time_bucket(INTERVAL"
                      + " '1 minute', time) AS bucket, count(*) AS n, sum(value) AS total FROM"
                      + " iot.d GROUP BY device, bucket WITH (refresh_interval = 'off')")) {
        // filled
      }
      append(driver, "iot.d", 0, 30, 9.0);
      List<List<Object>> before =
          query(driver, "SELECT device, time, value FROM iot.d ORDER BY 1, 2");

      var refresh = driver.distributeRefresh(TableName.parse("iot.d_1m"));
      assertThat(refresh.tasks()).isNotEmpty();
      var windows = new java.util.ArrayList<dev.timelake.RefreshResult>();
      refresh.tasks().forEach(task -> windows.add(task.run(executor)));
      refresh.commit(windows);
      try (var session = driver.newSession().set("rollup-routing", "false");
          var raw =
              session.sql(
                  "SELECT device, time_bucket(INTERVAL '1 minute', time), count(*), sum(value)"
                      + " FROM iot.d GROUP BY ALL ORDER BY 1, 2")) {
        assertThat(query(driver, "SELECT device, bucket, n, total FROM iot.d_1m ORDER BY 1, 2"))
            .isEqualTo(raw.rows());
      }

      var distributed = driver.table("iot.d").newMaintenance().distribute();
      assertThat(distributed.tasks()).isNotEmpty();
      var compacted = new java.util.ArrayList<dev.timelake.CompactionResult>();
      distributed.tasks().forEach(task -> compacted.add(task.run(executor)));
      distributed.commit(compacted);
      assertThat(query(driver, "SELECT device, time, value FROM iot.d ORDER BY 1, 2"))
          .isEqualTo(before);
      assertThat(objects("lake" + buckets)).noneMatch(f -> f.toString().contains("/staging/"));
    }
  }

  @Test
  void aWarehouseOnObjectStorageWithoutACatalogIsRefused() {
    String warehouse = newBucket();
    Map<String, String> properties = new HashMap<>(s3.properties());
    assertThatThrownBy(() -> Lake.open(warehouse, properties))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Cannot open warehouse " + warehouse)
        .hasMessageContaining("needs a shared catalog")
        .hasMessageContaining("timelake-catalog.properties");
  }

  @Test
  void theCatalogIsNamedByAPropertiesFileInTheBucket() throws Exception {
    String warehouse = newBucket();
    String bucket = "lake" + buckets;
    Path file = s3.folderOf(bucket).resolve("warehouse").resolve("timelake-catalog.properties");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "uri=jdbc:sqlite:" + local.resolve("from-file.db") + "\n");
    Map<String, String> properties = new HashMap<>(s3.properties());
    properties.put(LakeFileIO.CACHE_DIRECTORY, local.resolve("cache").toString());
    try (Lake lake = Lake.open(warehouse, properties)) {
      lake.createTable(TestTables.readings("iot.p").build());
      append(lake, "iot.p", 0, 10, 1.0);
      assertThat(query(lake, "SELECT count(*) FROM iot.p")).containsExactly(List.of(10L));
    }
    assertThat(local.resolve("from-file.db")).exists();
  }

  @Test
  void otherSchemesAreRefusedNamingWhatIsSupported() {
    assertThatThrownBy(() -> Lake.open("gs://bucket/lake", Map.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Cannot use gs://bucket/lake: Timelake stores tables in local folders and on S3 or"
                + " S3-compatible stores (s3://bucket/prefix); gs:// is not supported");
    assertThatThrownBy(() -> Lake.open("s3://", Map.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid warehouse 's3://': expected s3://bucket or s3://bucket/prefix");
  }
}
