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
