package dev.timelake.catalog;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.timelake.ColumnType;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.testkit.LocalPostgres;
import dev.timelake.testkit.LocalS3;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * The same table operations against each catalog and storage a lake may live in: the embedded
 * SQLite catalog and Iceberg's JDBC catalog on a real PostgreSQL server (started here on loopback;
 * skipped where none is installed, which {@code .ci/run} installs), with the tables in a local
 * folder or on a real S3 API server (S3Proxy on loopback; the catalog then a SQLite file or
 * PostgreSQL). Every lake below is a separate instance, as a separate process or machine would be,
 * sharing the catalog and the warehouse, each with its own local cache.
 *
 * <p>The catalogs are split between two test classes, {@link CatalogConformanceTest} (a local
 * folder) and {@link CatalogConformanceS3Test} (a bucket), which name theirs with {@link
 * TestedCatalogs}, so that each stays short and the two can run in different test processes.
 */
abstract class CatalogConformance {
  /** The catalogs a subclass runs every test on: embedded, postgres, s3-sqlite, s3-postgres. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  @interface TestedCatalogs {
    String[] value();
  }

  /** The catalogs of the test class's {@link TestedCatalogs}. */
  static final class CatalogsOfTheClass implements ArgumentsProvider {
    @Override
    public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
      return Stream.of(catalogsOf(context.getRequiredTestClass())).map(Arguments::of);
    }
  }

  private static String[] catalogsOf(Class<?> testClass) {
    return testClass.getAnnotation(TestedCatalogs.class).value();
  }

  private static LocalPostgres postgres;
  private static LocalS3 s3;
  private static int databases;
  private static int buckets;

  @TempDir static Path s3Folder;
  @TempDir Path warehouse;

  private String bucketWarehouse;
  private int lakes;

  private static String unavailable = "no PostgreSQL server installed";

  /** The S3 API server, for a class with an {@code s3-*} catalog. */
  @BeforeAll
  static void startS3(TestInfo info) throws Exception {
    s3 = null;
    if (Stream.of(catalogsOf(info.getTestClass().orElseThrow()))
        .anyMatch(c -> c.startsWith("s3-"))) {
      s3 = LocalS3.start(s3Folder);
    }
  }

  @AfterAll
  static void stopS3() throws Exception {
    if (s3 != null) {
      s3.close();
    }
  }

  @BeforeAll
  static void startPostgres() {
    postgres = null;
    var bin = LocalPostgres.find();
    if (bin.isPresent()) {
      try {
        postgres = LocalPostgres.start(bin.get());
      } catch (Exception e) {
        // The machine's server cannot run here (user, shared memory): the PostgreSQL cases skip.
        unavailable = "PostgreSQL at " + bin.get() + " did not start: " + e.getMessage();
        System.err.println(unavailable);
      }
    }
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    if (postgres != null) {
      postgres.close();
      postgres = null;
    }
  }

  /**
   * A new lake on the catalog: the properties file names PostgreSQL, or nothing (embedded); for
   * {@code s3-*} the file lies in a bucket, and each lake names the server and its own cache.
   */
  private Lake open(String catalog) throws Exception {
    if (catalog.startsWith("s3-")) {
      Map<String, String> storage = new java.util.HashMap<>(s3.properties());
      storage.put(LakeFileIO.CACHE_DIRECTORY, warehouse.resolve("cache-" + ++lakes).toString());
      return Lake.open(s3Warehouse(catalog), storage);
    }
    if (catalog.equals("postgres")) {
      Path file = warehouse.resolve(Catalogs.CATALOG_PROPERTIES_FILE);
      if (!Files.exists(file)) {
        Files.writeString(file, catalogProperties(catalog));
      }
    }
    return Lake.open(warehouse);
  }

  /** The catalog's lines of a properties file: one new database (or SQLite file) per test. */
  private String catalogProperties(String catalog) throws Exception {
    if (catalog.endsWith("postgres")) {
      assumeTrue(postgres != null, unavailable);
      return "uri=" + postgres.newDatabase("lake" + ++databases) + "\njdbc.user=lake\n";
    }
    return "uri=jdbc:sqlite:" + warehouse.resolve("catalog.db") + "\n";
  }

  /**
   * This test's warehouse in a new bucket, its properties file naming the catalog (the server and
   * credentials are given by each lake, as they would be by the AWS environment variables).
   */
  private String s3Warehouse(String catalog) throws Exception {
    if (bucketWarehouse == null) {
      String bucket = "conformance" + ++buckets;
      String properties = catalogProperties(catalog);
      properties += LakeFileIO.CACHE_DIRECTORY + "=" + warehouse.resolve("cache") + "\n";
      bucketWarehouse = s3.createBucket(bucket) + "/lake";
      Path file = s3.folderOf(bucket).resolve("lake").resolve(Catalogs.CATALOG_PROPERTIES_FILE);
      Files.createDirectories(file.getParent());
      Files.writeString(file, properties);
    }
    return bucketWarehouse;
  }

  private static TableDefinition readings(String name) {
    return TableDefinition.builder(name)
        .column("tag", ColumnType.VARCHAR)
        .column("time", ColumnType.TIMESTAMPTZ)
        .column("value", ColumnType.DOUBLE)
        .timeColumn("time")
        .seriesKey("tag")
        .option("auto-maintain", "false")
        .build();
  }

  private static void append(Lake lake, String table, int from, int count, double value) {
    var append = lake.table(table).newAppend();
    for (int i = from; i < from + count; i++) {
      append.row(
          "t" + (i % 3),
          Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i).atOffset(ZoneOffset.UTC),
          value);
    }
    append.commit();
  }

  @ParameterizedTest
  @ArgumentsSource(CatalogsOfTheClass.class)
  void tablesAppendsMaintenanceAndDropWorkAcrossLakes(String catalog) throws Exception {
    try (Lake writer = open(catalog);
        Lake reader = open(catalog)) {
      writer.createTable(readings("iot.r"));
      append(writer, "iot.r", 0, 100, 1.0);
      append(writer, "iot.r", 50, 100, 2.0); // 50 copies with newer values

      assertThat(reader.tables()).contains(TableName.parse("iot.r"));
      assertThat(query(reader, "SELECT count(*), sum(value) FROM iot.r"))
          .containsExactly(List.of(150L, 250.0));
      reader.table("iot.r").newMaintenance().run();
      assertThat(query(writer, "SELECT count(*), sum(value) FROM iot.r"))
          .containsExactly(List.of(150L, 250.0));
      assertThat(writer.table("iot.r").refresh().info().partitions().get(0).files()).isEqualTo(1);

      assertThat(reader.dropTable(TableName.parse("iot.r"))).isTrue();
      assertThat(writer.findTable(TableName.parse("iot.r"))).isEmpty();
    }
  }

  @ParameterizedTest
  @ArgumentsSource(CatalogsOfTheClass.class)
  void concurrentAppendsFromTwoLakesBothCommit(String catalog) throws Exception {
    try (Lake a = open(catalog);
        Lake b = open(catalog)) {
      a.createTable(readings("iot.c"));
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<?>> writes = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
          Lake lake = w == 0 ? a : b;
          int offset = w * 10_000;
          writes.add(
              pool.submit(
                  () -> {
                    for (int k = 0; k < 5; k++) {
                      append(lake, "iot.c", offset + k * 100, 100, 1.0);
                    }
                  }));
        }
        for (Future<?> write : writes) {
          write.get(120, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(query(b, "SELECT count(*) FROM iot.c")).containsExactly(List.of(1_000L));
      assertThat(a.table("iot.c").refresh().info().snapshots()).hasSize(10);
    }
  }

  @ParameterizedTest
  @ArgumentsSource(CatalogsOfTheClass.class)
  void rollupsRefreshAndTheOrderedIndexRefusesAcrossLakes(String catalog) throws Exception {
    try (Lake a = open(catalog);
        Lake b = open(catalog);
        Session session = a.newSession()) {
      a.createTable(readings("iot.r"));
      append(a, "iot.r", 0, 600, 1.0);
      sql(
          session,
          "CREATE MATERIALIZED ROLLUP iot.r_1m AS SELECT tag, time_bucket(INTERVAL '1 minute',"
              + " time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY tag,"
              + " bucket WITH (refresh_interval = 'off')");
      append(b, "iot.r", 300, 600, 2.0);
      b.refreshRollup(TableName.parse("iot.r_1m"));
      assertThat(query(a, "SELECT sum(n)::BIGINT, sum(total) FROM iot.r_1m"))
          .containsExactly(List.of(900L, 1500.0));

      a.createTable(
          TableDefinition.builder("market.bars")
              .column("symbol", ColumnType.VARCHAR)
              .column("ts", ColumnType.TIMESTAMPTZ)
              .indexColumn("ts")
              .entityColumns("symbol")
              .indexGranularity("1m")
              .build());
      a.table("market.bars").newAppend().row("A", Instant.EPOCH.atOffset(ZoneOffset.UTC)).commit();
      assertThatThrownBy(
              () ->
                  b.table("market.bars")
                      .newAppend()
                      .row("A", Instant.EPOCH.plusSeconds(30).atOffset(ZoneOffset.UTC))
                      .commit())
          .isInstanceOf(IndexIntervalOverlapException.class);
    }
  }

  @ParameterizedTest
  @ArgumentsSource(CatalogsOfTheClass.class)
  void ofTwoWriterProcessesInOneSeriesAndMinuteTheSecondFails(String catalog) throws Exception {
    try (Lake lake = open(catalog)) {
      lake.createTable(
          TableDefinition.builder("market.bars")
              .column("symbol", ColumnType.VARCHAR)
              .column("ts", ColumnType.TIMESTAMPTZ)
              .column("price", ColumnType.DOUBLE)
              .indexColumn("ts")
              .entityColumns("symbol")
              .indexGranularity("1m")
              .option("auto-maintain", "false")
              .build());
    }
    // Each process opens the warehouse, and through its properties file the same catalog.
    String location = catalog.startsWith("s3-") ? s3Warehouse(catalog) : warehouse.toString();
    // The processes reach the server through the AWS SDK's standard environment variables.
    var outcome =
        dev.timelake.index.ConcurrentIndexAppendTest.IndexAppender.race(
            location,
            Files.createDirectories(warehouse.resolve("barrier")),
            s3 == null
                ? Map.of()
                : Map.of(
                    "AWS_ACCESS_KEY_ID", LocalS3.ACCESS_KEY,
                    "AWS_SECRET_ACCESS_KEY", LocalS3.SECRET_KEY,
                    "AWS_ENDPOINT_URL_S3", s3.endpoint()));
    List<Integer> statuses = outcome.statuses();
    List<String> outputs = outcome.outputs();
    assertThat(statuses).as(outputs.toString()).containsExactlyInAnyOrder(0, 5);
    try (Lake lake = open(catalog)) {
      assertThat(query(lake, "SELECT count(*) FROM market.bars")).containsExactly(List.of(1L));
    }
  }

  private static void sql(Session session, String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // no rows
    }
  }
}
