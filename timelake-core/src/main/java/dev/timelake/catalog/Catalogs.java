package dev.timelake.catalog;

import dev.timelake.TimelakeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
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
   * The file in a warehouse folder that names a shared catalog instead of the embedded one: Iceberg
   * catalog properties ({@code uri=jdbc:postgresql://host/db}, {@code jdbc.user}, {@code
   * jdbc.password}, or {@code type=rest} and its {@code uri}), the folder staying the warehouse.
   */
  public static final String CATALOG_PROPERTIES_FILE = "timelake-catalog.properties";

  /**
   * Opens the catalog of a warehouse folder: the one {@value #CATALOG_PROPERTIES_FILE} and {@code
   * overrides} describe (the overrides win), else the embedded one.
   */
  public static Catalog openWarehouse(Path warehouse, Map<String, String> overrides) {
    Path root = warehouse.toAbsolutePath().normalize();
    return openConfigured(root, configured(root, overrides));
  }

  /**
   * The shared catalog's properties of a warehouse folder: its {@value #CATALOG_PROPERTIES_FILE}
   * with {@code overrides} over it; empty for the embedded catalog.
   */
  public static Map<String, String> configured(Path root, Map<String, String> overrides) {
    Map<String, String> configured = new HashMap<>(propertiesFile(root));
    configured.putAll(overrides);
    return configured;
  }

  /** Opens the catalog {@link #configured} describes for the warehouse folder {@code root}. */
  public static Catalog openConfigured(Path root, Map<String, String> configured) {
    if (configured.isEmpty()) {
      return openEmbedded(root);
    }
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, root.toString());
    properties.put(CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName());
    properties.put(CatalogProperties.IO_MANIFEST_CACHE_ENABLED, "true");
    if (!configured.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE)
        && !configured.containsKey(CatalogProperties.CATALOG_IMPL)) {
      properties.put(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
      properties.put("jdbc.schema-version", "V1");
    }
    properties.putAll(configured);
    return open(properties);
  }

  /** The shared catalog's properties a warehouse folder names; empty for the embedded one. */
  private static Map<String, String> propertiesFile(Path root) {
    Path file = root.resolve(CATALOG_PROPERTIES_FILE);
    if (!Files.isRegularFile(file)) {
      return Map.of();
    }
    java.util.Properties properties = new java.util.Properties();
    try (java.io.Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (IOException e) {
      throw TimelakeException.validation("Cannot read %s: %s", file, e.getMessage());
    }
    Map<String, String> map = new HashMap<>();
    properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
    return map;
  }

  /** Opens (creating when missing) the embedded catalog of a warehouse folder. */
  public static Catalog openEmbedded(Path warehouse) {
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
    properties.put(CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName());
    properties.put(CatalogProperties.IO_MANIFEST_CACHE_ENABLED, "true");
    return open(properties);
  }

  /**
   * Opens a catalog from Iceberg catalog properties: {@code type} ({@code jdbc}, {@code rest},
   * {@code hadoop}, …) or {@code catalog-impl}, plus {@code uri} and {@code warehouse} as the
   * catalog needs.
   */
  public static Catalog open(Map<String, String> properties) {
    try {
      return CatalogUtil.buildIcebergCatalog(CATALOG_NAME, properties, new Configuration());
    } catch (RuntimeException e) {
      throw new TimelakeException(
          dev.timelake.ErrorCode.INTERNAL,
          "Cannot open catalog " + describe(properties) + ": " + e.getMessage(),
          e);
    }
  }

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
