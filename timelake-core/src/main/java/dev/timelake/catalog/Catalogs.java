package dev.timelake.catalog;

import dev.timelake.TimelakeException;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.storage.Warehouse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * Opens the Iceberg catalog a lake lives in: by default an embedded {@link JdbcCatalog} on a SQLite
 * file inside the warehouse folder, or any Iceberg catalog (JDBC on PostgreSQL, REST, Hadoop)
 * described by Iceberg catalog properties.
 */
public final class Catalogs {
  /** The SQLite file of the embedded catalog, inside the warehouse folder. */
  public static final String EMBEDDED_CATALOG_FILE = "timelake-catalog.db";

  private static final String CATALOG_NAME = "timelake";

  static {
    // Iceberg plans scans on a worker pool whose iterator polls with 10 ms sleeps; for the small
    // manifests of time-series tables planning in the calling thread is several times faster.
    if (System.getProperty("iceberg.scan.plan-in-worker-pool") == null) {
      System.setProperty("iceberg.scan.plan-in-worker-pool", "false");
    }
  }

  private Catalogs() {}

  /**
   * The file in a warehouse that names a shared catalog instead of the embedded one: Iceberg
   * catalog properties ({@code uri=jdbc:postgresql://host/db}, {@code jdbc.user}, {@code
   * jdbc.password}, or {@code type=rest} and its {@code uri}; for object storage also S3FileIO's
   * {@code s3.*} properties), the warehouse staying where the tables are stored.
   */
  public static final String CATALOG_PROPERTIES_FILE = "timelake-catalog.properties";

  /**
   * Opens the catalog of a warehouse: the one its {@value #CATALOG_PROPERTIES_FILE} and {@code
   * overrides} describe (the overrides win), else, for a local folder, the embedded one; copies of
   * remote files go to its usual local folder ({@link Warehouse#localWorkFolder}).
   */
  public static Catalog openWarehouse(Warehouse warehouse, Map<String, String> overrides) {
    Map<String, String> configured = configured(warehouse, overrides);
    return openConfigured(
        warehouse, configured, warehouse.localWorkFolder(System.getenv(), configured));
  }

  /**
   * The catalog and storage properties of a warehouse: its {@value #CATALOG_PROPERTIES_FILE} with
   * {@code overrides} over it; empty (or storage settings only) for the embedded catalog.
   */
  public static Map<String, String> configured(Warehouse warehouse, Map<String, String> overrides) {
    Map<String, String> configured = new HashMap<>(propertiesFile(warehouse, overrides));
    configured.putAll(overrides);
    return configured;
  }

  /**
   * Opens the catalog {@link #configured} describes for {@code warehouse}: the embedded catalog
   * when they name none (local folders only; object storage needs a shared catalog).
   */
  public static Catalog openConfigured(
      Warehouse warehouse, Map<String, String> configured, Path workFolder) {
    if (!namesCatalog(configured)) {
      if (warehouse.isRemote()) {
        throw TimelakeException.validation(
            "Cannot open warehouse %s: a warehouse on object storage needs a shared catalog; put"
                + " its Iceberg properties (uri=jdbc:postgresql://host/db, or type=rest and uri,"
                + " or uri=jdbc:sqlite:/local/file.db for one machine) in %s/%s or give them with"
                + " --catalog",
            warehouse, warehouse, CATALOG_PROPERTIES_FILE);
      }
      return openEmbedded(warehouse.folder().orElseThrow(), configured);
    }
    Map<String, String> properties = new HashMap<>(withLakeStorage(Map.of(), workFolder));
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse.location());
    properties.put(CatalogProperties.IO_MANIFEST_CACHE_ENABLED, "true");
    if (!configured.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE)
        && !configured.containsKey(CatalogProperties.CATALOG_IMPL)) {
      properties.put(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
      properties.put("jdbc.schema-version", "V1");
    }
    properties.putAll(configured);
    return open(properties);
  }

  /** True when the properties name a catalog rather than only storage settings. */
  private static boolean namesCatalog(Map<String, String> configured) {
    return configured.containsKey(CatalogProperties.URI)
        || configured.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE)
        || configured.containsKey(CatalogProperties.CATALOG_IMPL);
  }

  /** The shared catalog's properties a warehouse names; empty for the embedded one. */
  private static Map<String, String> propertiesFile(
      Warehouse warehouse, Map<String, String> overrides) {
    String location = warehouse.resolve(CATALOG_PROPERTIES_FILE);
    java.util.Properties properties = new java.util.Properties();
    if (warehouse.isRemote()) {
      // Read with the storage settings given, so that credentials may come from the overrides.
      try (LakeFileIO io = new LakeFileIO()) {
        io.initialize(overrides);
        InputFile file = io.newInputFile(location);
        if (!file.exists()) {
          return Map.of();
        }
        try (java.io.InputStream in = file.newStream()) {
          properties.load(
              new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
        }
      } catch (IOException | RuntimeException e) {
        throw TimelakeException.validation(
            "Cannot read %s: %s", location, LakeFileIO.describeFailure(e));
      }
    } else {
      Path file = Path.of(location);
      if (!Files.isRegularFile(file)) {
        return Map.of();
      }
      try (java.io.Reader reader = Files.newBufferedReader(file)) {
        properties.load(reader);
      } catch (IOException e) {
        throw TimelakeException.validation("Cannot read %s: %s", file, e.getMessage());
      }
    }
    Map<String, String> map = new HashMap<>();
    properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
    return map;
  }

  /** Opens (creating when missing) the embedded catalog of a warehouse folder. */
  public static Catalog openEmbedded(Path warehouse) {
    return openEmbedded(warehouse, Map.of());
  }

  /**
   * Opens (creating when missing) the embedded catalog of a warehouse folder, with extra properties
   * (a cache size, say) over its own.
   */
  private static Catalog openEmbedded(Path warehouse, Map<String, String> extra) {
    Path root = warehouse.toAbsolutePath().normalize();
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new TimelakeException(
          dev.timelake.ErrorCode.INTERNAL,
          "Cannot create warehouse folder " + root + ": " + e.getMessage(),
          e);
    }
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    properties.put(CatalogProperties.URI, "jdbc:sqlite:" + root.resolve(EMBEDDED_CATALOG_FILE));
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, root.toString());
    properties.put("jdbc.schema-version", "V1");
    properties.put("jdbc.busy_timeout", "30000");
    properties.put(CatalogProperties.CLIENT_POOL_SIZE, "1");
    properties.put(CatalogProperties.IO_MANIFEST_CACHE_ENABLED, "true");
    properties.putAll(withLakeStorage(extra, Warehouse.of(root).localWorkFolder(Map.of(), extra)));
    return LazyCatalog.of(() -> open(properties));
  }

  /**
   * Catalog properties with Timelake's file IO (local folders and S3, copies for DuckDB in {@code
   * workFolder}) unless they name another.
   */
  public static Map<String, String> withLakeStorage(
      Map<String, String> catalogProperties, Path workFolder) {
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.FILE_IO_IMPL, LakeFileIO.class.getName());
    properties.put(LakeFileIO.CACHE_DIRECTORY, workFolder.toString());
    properties.putAll(catalogProperties);
    return properties;
  }

  /**
   * Opens a catalog from Iceberg catalog properties: {@code type} ({@code jdbc}, {@code rest},
   * {@code hadoop}, …) or {@code catalog-impl}, plus {@code uri} and {@code warehouse} as the
   * catalog needs.
   */
  public static Catalog open(Map<String, String> properties) {
    Object hadoopConfiguration = hadoopConfiguration(properties);
    try {
      return CatalogUtil.buildIcebergCatalog(CATALOG_NAME, properties, hadoopConfiguration);
    } catch (RuntimeException e) {
      throw new TimelakeException(
          dev.timelake.ErrorCode.INTERNAL,
          "Cannot open catalog " + describe(properties) + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * A Hadoop configuration for the catalogs built on Hadoop ({@code type=hadoop}, {@code hive}, or
   * a {@code catalog-impl} when Hadoop is present), else null: the embedded, JDBC and REST catalogs
   * do not need one, and Hadoop (50 MB of classes, 0.1 s to load) is left out of {@code
   * timelake.jar}.
   */
  private static Object hadoopConfiguration(Map<String, String> properties) {
    String type = properties.getOrDefault(CatalogUtil.ICEBERG_CATALOG_TYPE, "");
    boolean needsHadoop =
        type.equalsIgnoreCase(CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP)
            || type.equalsIgnoreCase(CatalogUtil.ICEBERG_CATALOG_TYPE_HIVE);
    boolean mayUseHadoop = properties.containsKey(CatalogProperties.CATALOG_IMPL);
    if (!needsHadoop && !mayUseHadoop) {
      return null;
    }
    try {
      return Class.forName(HADOOP_CONFIGURATION).getConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      if (!needsHadoop) {
        return null;
      }
      throw TimelakeException.validation(
          "Cannot open catalog %s: a %s catalog needs Hadoop's client classes, which are not on"
              + " the class path (timelake.jar leaves them out): add"
              + " org.apache.hadoop:hadoop-client-api and hadoop-client-runtime 3.4 to it (java -cp"
              + " timelake.jar:… dev.timelake.cli.Main), or use the embedded, jdbc or rest catalog",
          describe(properties), type);
    }
  }

  private static final String HADOOP_CONFIGURATION = "org.apache.hadoop.conf.Configuration";

  private static String describe(Map<String, String> properties) {
    String kind =
        properties.getOrDefault(
            CatalogUtil.ICEBERG_CATALOG_TYPE,
            properties.getOrDefault(CatalogProperties.CATALOG_IMPL, "(no type)"));
    return kind
        + " at "
        + properties.getOrDefault(
            CatalogProperties.URI,
            properties.getOrDefault(CatalogProperties.WAREHOUSE_LOCATION, "(no location)"));
  }
}
