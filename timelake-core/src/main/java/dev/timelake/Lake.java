package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.Catalogs;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.engine.EngineConnection;
import dev.timelake.refresh.RefreshScheduler;
import dev.timelake.rollup.RollupStore;
import dev.timelake.storage.Warehouse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A lake: the Iceberg catalog and storage that hold Timelake tables, plus the embedded DuckDB
 * engine that queries them. Open one per process and share it; it is thread-safe. Close it to stop
 * the engine.
 *
 * <pre>{@code
 * try (Lake lake = Lake.open(Path.of("warehouse"))) {
 *   Table readings = lake.table("iot.readings");
 *   readings.newAppend().batchId("2026-01-01T10").fromCsv(Path.of("readings.csv")).commit();
 *   try (Session session = lake.newSession()) {
 *     session.sql("SELECT device, avg(value) FROM iot.readings GROUP BY device").print();
 *   }
 * }
 * }</pre>
 */
public final class Lake implements AutoCloseable {
  private final LakeCatalog catalog;
  private final java.util.Optional<Path> localRoot;

  private Lake(LakeCatalog catalog, java.util.Optional<Path> localRoot) {
    this.catalog = catalog;
    this.localRoot = localRoot;
  }

  /**
   * Opens the embedded lake in a warehouse folder, creating it when missing: an Iceberg JDBC
   * catalog on a SQLite file plus one folder per table.
   */
  public static Lake open(Path warehouse) {
    return open(warehouse, Map.of());
  }

  /**
   * Opens the lake of a warehouse folder whose catalog is shared: Iceberg catalog properties such
   * as {@code uri=jdbc:postgresql://host/lake}, {@code jdbc.user}, {@code jdbc.password}, over
   * those of the folder's {@code timelake-catalog.properties}; with neither, the embedded catalog.
   * The folder holds the tables' files either way.
   */
  public static Lake open(Path warehouse, Map<String, String> catalogProperties) {
    requireNonNull(warehouse, "warehouse is null");
    return open(Warehouse.of(warehouse), catalogProperties);
  }

  /**
   * Opens the lake of a warehouse folder or of a prefix on object storage ({@code
   * s3://bucket/prefix}, also S3-compatible stores such as MinIO, R2 or Ceph), with catalog and
   * storage properties over those of the warehouse's {@code timelake-catalog.properties}.
   *
   * <p>A warehouse on object storage needs a shared catalog ({@code uri=jdbc:postgresql://…},
   * {@code type=rest}, or {@code uri=jdbc:sqlite:/local/catalog.db} for one machine), and takes
   * S3FileIO's properties ({@code s3.endpoint}, {@code s3.access-key-id}, {@code
   * s3.secret-access-key}, {@code client.region}, …) or the AWS SDK's standard settings. DuckDB
   * reads local copies of its files, kept in {@code timelake.cache-dir} (default: under {@code
   * $TIMELAKE_CACHE_DIR}, else {@code ~/.cache/timelake}) up to {@code timelake.cache-max-size}
   * (default 10GB).
   *
   * <pre>{@code
   * Lake lake = Lake.open("s3://plant-lake/history", Map.of(
   *     "uri", "jdbc:postgresql://db.example/lake", "jdbc.user", "lake",
   *     "s3.endpoint", "http://minio.example:9000"));
   * }</pre>
   */
  public static Lake open(String warehouse, Map<String, String> catalogProperties) {
    return open(Warehouse.parse(warehouse), catalogProperties);
  }

  private static Lake open(Warehouse warehouse, Map<String, String> catalogProperties) {
    requireNonNull(catalogProperties, "catalogProperties is null");
    Map<String, String> configured = Catalogs.configured(warehouse, catalogProperties);
    Path work = warehouse.localWorkFolder(System.getenv(), configured);
    String catalogUri = configured.get("uri");
    String description =
        catalogUri == null
            ? "warehouse " + warehouse
            : "warehouse " + warehouse + " (catalog " + catalogUri.replaceAll("\\?.*", "") + ")";
    return new Lake(
        new LakeCatalog(
            Catalogs.openConfigured(warehouse, configured, work),
            description,
            work.resolve(warehouse.isRemote() ? "tmp" : ""),
            warehouse),
        java.util.Optional.of(warehouse.folder().orElse(work)));
  }

  /**
   * Opens a lake on any Iceberg catalog described by Iceberg catalog properties, e.g. {@code
   * type=jdbc, uri=jdbc:postgresql://…, warehouse=s3://…} or {@code type=hadoop, warehouse=/data}.
   * The engine spills to {@code tempDirectory}.
   */
  public static Lake open(Map<String, String> catalogProperties, Path tempDirectory) {
    requireNonNull(catalogProperties, "catalogProperties is null");
    String where = catalogProperties.getOrDefault("warehouse", catalogProperties.get("uri"));
    return new Lake(
        new LakeCatalog(
            Catalogs.open(Catalogs.withLakeStorage(catalogProperties, tempDirectory)),
            "catalog " + where,
            tempDirectory),
        java.util.Optional.empty());
  }

  /** Creates a table; throws {@link AlreadyExistsException} if it exists. */
  public Table createTable(TableDefinition definition) {
    return new Table(catalog, catalog.create(definition));
  }

  /** The table {@code name} ({@code ns.table}, or {@code table} in namespace default). */
  public Table table(String name) {
    return table(TableName.parse(name));
  }

  /** The table {@code name}; throws {@link NotFoundException} if it does not exist. */
  public Table table(TableName name) {
    return new Table(catalog, catalog.require(name));
  }

  /** The table {@code name}, if it exists. */
  public Optional<Table> findTable(TableName name) {
    return catalog.load(name).map(loaded -> new Table(catalog, loaded));
  }

  /** Every table of the lake, sorted by name. */
  public List<TableName> tables() {
    return catalog.tables();
  }

  /**
   * Drops a table and deletes its files; returns false if it did not exist. A rollup is dropped as
   * a rollup; a table with rollups is refused (see {@link #dropTableWithRollups}).
   *
   * @throws ValidationException naming the rollups computed from the table
   */
  public boolean dropTable(TableName name) {
    return dev.timelake.rollup.TableDrops.drop(
        catalog, name, dev.timelake.rollup.TableDrops.Rollups.REFUSE);
  }

  /** Drops a table together with the rollups computed from it; false if it did not exist. */
  public boolean dropTableWithRollups(TableName name) {
    return dev.timelake.rollup.TableDrops.drop(
        catalog, name, dev.timelake.rollup.TableDrops.Rollups.CASCADE);
  }

  /** Starts building the rollup {@code name} ({@code ns.rollup}); see {@link RollupCreation}. */
  public RollupCreation newRollup(String name) {
    return new RollupCreation(catalog, TableName.parse(name));
  }

  /** The rollup {@code name}; throws {@link NotFoundException} if there is none. */
  public RollupInfo rollup(TableName name) {
    return Rollups.info(catalog, RollupStore.require(catalog, name));
  }

  /** The rollups of the raw table {@code table}. */
  public List<RollupInfo> rollups(TableName table) {
    return RollupStore.rollupsOf(catalog, catalog.require(table)).stream()
        .map(rollup -> Rollups.info(catalog, rollup))
        .toList();
  }

  /** Brings the rollup {@code name} up to date with its raw table now. */
  public RefreshReport refreshRollup(TableName name) {
    try (EngineConnection connection = catalog.engine().connect()) {
      java.time.Instant now = java.time.Instant.now();
      RefreshReport report =
          new RefreshScheduler(catalog, connection, message -> {}).refresh(name, now);
      dev.timelake.maintain.InlineMaintenance.afterRefresh(
          catalog, name, connection, now, message -> {});
      return report;
    }
  }

  /**
   * Checks that the rollup {@code name} holds what its raw table gives: its cells recomputed from
   * raw data alone at the raw snapshot it records, compared with its stored rows (see {@link
   * RollupVerification}). Changes nothing.
   *
   * <pre>{@code
   * RollupVerification check = lake.verifyRollup(
   *     TableName.parse("iot.readings_1h"), RollupVerification.Options.sample(24, 42));
   * if (!check.isExact()) {
   *   check.examples().forEach(System.out::println);
   * }
   * }</pre>
   *
   * @throws NotFoundException when there is no rollup {@code name}, or the raw snapshot it records
   *     has expired
   * @throws ValidationException when the rollup reflects no raw snapshot yet (refresh it first)
   * @throws ConflictException when a refresh of the rollup has not finished
   */
  public RollupVerification verifyRollup(TableName name, RollupVerification.Options options) {
    requireNonNull(name, "name is null");
    requireNonNull(options, "options is null");
    try (EngineConnection connection = catalog.engine().connect()) {
      return new dev.timelake.refresh.RollupVerifier(catalog, connection).verify(name, options);
    }
  }

  /**
   * Plans a refresh of the rollup {@code name} whose windows other processes compute; see {@link
   * DistributedRefresh}. Nothing changes until its {@code commit}.
   */
  public DistributedRefresh distributeRefresh(TableName name) {
    return new DistributedRefresh(catalog, name);
  }

  /** What a refresh of the rollup {@code name} would do now, one line per decision. */
  public List<String> refreshPlan(TableName name) {
    try (EngineConnection connection = catalog.engine().connect()) {
      return new RefreshScheduler(catalog, connection, message -> {}).plan(name).explanation();
    }
  }

  /** Drops the rollup {@code name}; returns false if it did not exist. */
  public boolean dropRollup(TableName name) {
    return RollupStore.drop(catalog, name);
  }

  /**
   * Confines the engine's file access to the warehouse folder (and its temporary folder) for the
   * rest of this lake's life: SQL reading or writing any other file (read_csv('/etc/passwd'), COPY
   * … TO '../x'), ATTACH and INSTALL fail with a permission error. For servers, whose clients must
   * not touch other files. Only for a warehouse folder opened with {@link #open(Path)}.
   *
   * @throws ValidationException for a lake on another catalog or storage
   */
  public void confineFileAccess() {
    Path root =
        localRoot.orElseThrow(
            () ->
                TimelakeException.validation(
                    "Cannot confine file access of %s: only a warehouse folder opened with"
                        + " Lake.open(Path) can be confined",
                    catalog.description()));
    catalog.confineFileAccess(java.util.List.of(root));
  }

  /**
   * A folder of this lake for files a caller stages to append (a server's COPY data): the engine
   * reads it even when its file access is confined. Created on demand; the caller deletes its
   * files.
   */
  public Path stagingDirectory() {
    return workFolder("staging");
  }

  /**
   * A folder of this lake's local work folder for a component's own files (a server's hot-tier
   * log): on this machine, kept across runs, never read as part of the lake. Created on demand.
   *
   * @param name the folder's name: letters, digits, dashes
   */
  public Path workFolder(String name) {
    if (!name.matches("[A-Za-z0-9-]+")) {
      throw TimelakeException.validation(
          "A work folder's name is letters, digits and dashes, not '%s'", name);
    }
    Path folder = catalog.tempDirectory().resolve(name);
    try {
      java.nio.file.Files.createDirectories(folder);
    } catch (java.io.IOException e) {
      throw TimelakeException.validation(
          "Cannot create the work folder %s: %s", folder, e.getMessage());
    }
    return folder;
  }

  /**
   * A new SQL session of the local user, with its own settings and the full power of DuckDB (any
   * statement, files, extensions). Sessions are not thread-safe; use one per thread.
   */
  public Session newSession() {
    return new Session(catalog, java.util.Optional.empty());
  }

  /**
   * A new SQL session for a server's client: what it may do is {@code access}'s role in its
   * namespaces, and it never runs what would reach beyond its own session (see {@link
   * ClientAccess}). What a server opens for every connection.
   */
  public Session newSession(ClientAccess access) {
    return new Session(catalog, java.util.Optional.of(access));
  }

  /** The implementation's view of the lake, for the API's own classes. */
  LakeCatalog catalog() {
    return catalog;
  }

  /** Where the lake lives, for messages. */
  public String description() {
    return catalog.description();
  }

  @Override
  public void close() {
    catalog.close();
  }
}
