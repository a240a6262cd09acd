package dev.timelake.server;

import dev.timelake.storage.LakeFileIO;
import dev.timelake.storage.LocalFileIO;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * What REST clients may create and change, so that nothing they ask makes this server, or a lake
 * dropping their tables, write or delete files outside the warehouse. The warehouse is where the
 * catalog places new tables ({@code <warehouse>/<namespace>/<table>}), learnt once by asking it
 * where it would put one; when it does not answer so, no location or path is accepted.
 *
 * <ul>
 *   <li>New namespaces, tables (created, staged, committed as created, registered) and rename
 *       targets: one-level namespace, names by {@link dev.timelake.TableName}'s rule, not reserved.
 *   <li>A table's location (created, staged, {@code SetLocation}, registered): its own folder,
 *       {@code <warehouse>/<namespace>/<table>}; a namespace's {@code location}: none.
 *   <li>Properties that move files ({@link #PATH_PROPERTIES}): inside the table's folder; a
 *       location provider class, which may put files anywhere: none.
 *   <li>Files a commit names (manifest lists, statistics): inside the warehouse; a registered
 *       metadata file and every file its metadata names: inside the table's folder.
 *   <li>A purge deletes only files inside the warehouse, whatever the table's metadata lists.
 * </ul>
 *
 * Locations are compared by their parts, as the lake's file IO reads them ({@code file:} URIs
 * decoded); a location with an empty, {@code .} or {@code ..} part is never inside anything.
 */
final class RestConfinement {
  /** Properties that move where Iceberg writes a table's data or metadata files. */
  static final java.util.Set<String> PATH_PROPERTIES =
      java.util.Set.of(
          TableProperties.WRITE_DATA_LOCATION,
          TableProperties.WRITE_METADATA_LOCATION,
          TableProperties.OBJECT_STORE_PATH,
          TableProperties.WRITE_FOLDER_STORAGE_LOCATION);

  /** A name no client may create (tl_ is reserved), asked for where the catalog puts tables. */
  private static final TableIdentifier PROBE = TableIdentifier.of("tl_probe", "tl_probe");

  private final Catalog catalog;
  private final Optional<String> warehouse;
  private final Optional<FileIO> io;
  private final String unknown;

  private RestConfinement(
      Catalog catalog, Optional<String> warehouse, Optional<FileIO> io, String unknown) {
    this.catalog = catalog;
    this.warehouse = warehouse;
    this.io = io;
    this.unknown = unknown;
  }

  /**
   * The confinement of {@code catalog}'s clients: its warehouse is the folder it would create
   * {@code tl_probe.tl_probe} in, two levels up (nothing is created to find out).
   */
  static RestConfinement of(Catalog catalog) {
    String location;
    FileIO io;
    try {
      org.apache.iceberg.Table staged =
          catalog.buildTable(PROBE, new Schema()).createTransaction().table();
      location = staged.location();
      io = staged.io();
    } catch (RuntimeException e) {
      return new RestConfinement(
          catalog, Optional.empty(), Optional.empty(), "the catalog answered " + e);
    }
    String suffix = "/" + PROBE.namespace().level(0) + "/" + PROBE.name();
    if (!location.endsWith(suffix) || parts(location).isEmpty()) {
      return new RestConfinement(
          catalog,
          Optional.empty(),
          Optional.empty(),
          "the catalog would put " + PROBE + " at " + location);
    }
    String root = location.substring(0, location.length() - suffix.length());
    return new RestConfinement(catalog, Optional.of(root), Optional.of(io), "");
  }

  void checkNewNamespace(Namespace namespace, Map<String, String> properties) {
    String shown = String.join(".", namespace.levels());
    dev.timelake.TableName placeholder;
    try {
      // Levels joined by dots fail the name rule as well.
      placeholder = new dev.timelake.TableName(shown, "t");
    } catch (dev.timelake.ValidationException e) {
      throw new BadRequestException(
          e,
          "Cannot create namespace '%s': a namespace is one name of letters, digits and _,"
              + " starting with a letter or _",
          shown);
    }
    try {
      placeholder.requireCreatable();
    } catch (dev.timelake.ValidationException e) {
      throw new BadRequestException(
          e,
          "Cannot create namespace '%s': the name is reserved (DuckDB's and PostgreSQL's"
              + " catalog names such as system, main, temp or pg_catalog, and names starting"
              + " with tl_ or __tl); choose another",
          shown);
    }
    checkNamespaceLocation("create namespace", namespace, properties);
  }

  void checkNamespaceProperties(Namespace namespace, Map<String, String> updates) {
    checkNamespaceLocation("set properties of namespace", namespace, updates);
  }

  private static void checkNamespaceLocation(
      String action, Namespace namespace, Map<String, String> properties) {
    for (Map.Entry<String, String> property : properties.entrySet()) {
      if (property.getKey().equalsIgnoreCase("location")) {
        throw new BadRequestException(
            "Cannot %s '%s': property '%s' is '%s'; the catalog places namespaces in the"
                + " warehouse itself (allowed: no location)",
            action, String.join(".", namespace.levels()), property.getKey(), property.getValue());
      }
    }
  }

  void checkNewTable(TableIdentifier table, CreateTableRequest request) {
    checkTableName(table, "");
    if (request.location() != null) {
      requireOwnFolder("create table", table, request.location());
    }
    checkProperties("create table", table, request.properties());
  }

  void checkUpdate(TableIdentifier table, UpdateTableRequest request) {
    boolean creates =
        request.requirements().stream()
            .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance);
    String action = creates ? "create table" : "update table";
    if (creates) {
      checkTableName(table, "");
    }
    for (MetadataUpdate update : request.updates()) {
      if (update instanceof MetadataUpdate.SetLocation set) {
        requireOwnFolder(action, table, set.location());
      } else if (update instanceof MetadataUpdate.SetProperties set) {
        checkProperties(action, table, set.updated());
      } else if (update instanceof MetadataUpdate.AddSnapshot add
          && add.snapshot().manifestListLocation() != null) {
        requireInWarehouse(
            action,
            table,
            "the manifest list of snapshot " + add.snapshot().snapshotId(),
            add.snapshot().manifestListLocation());
      } else if (update instanceof MetadataUpdate.SetStatistics set) {
        requireInWarehouse(action, table, "the statistics file", set.statisticsFile().path());
      } else if (update instanceof MetadataUpdate.SetPartitionStatistics set) {
        requireInWarehouse(
            action, table, "the partition statistics file", set.partitionStatisticsFile().path());
      }
    }
  }

  void checkRegister(TableIdentifier table, RegisterTableRequest request) {
    String action = "register table";
    checkTableName(table, "Cannot register table " + table + ": ");
    if (request.overwrite()) {
      throw new BadRequestException(
          "Cannot register table %s over the table of that name: drop it first", table);
    }
    String folder = folderOf(action, table);
    requireInside(
        action, table, "the metadata file", request.metadataLocation(), folder, "its folder");
    TableMetadata metadata = TableMetadataParser.read(io.orElseThrow(), request.metadataLocation());
    requireOwnFolder(action, table, metadata.location());
    checkProperties(action, table, metadata.properties());
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      requireInside(action, table, "a previous metadata file", entry.file(), folder, "its folder");
    }
    for (Snapshot snapshot : metadata.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        requireInside(
            action,
            table,
            "the manifest list of snapshot " + snapshot.snapshotId(),
            snapshot.manifestListLocation(),
            folder,
            "its folder");
      }
    }
    for (StatisticsFile file : metadata.statisticsFiles()) {
      requireInside(action, table, "a statistics file", file.path(), folder, "its folder");
    }
    for (PartitionStatisticsFile file : metadata.partitionStatisticsFiles()) {
      requireInside(
          action, table, "a partition statistics file", file.path(), folder, "its folder");
    }
  }

  void checkRename(RenameTableRequest request) {
    checkTableName(
        request.destination(),
        "Cannot rename " + request.source() + " to " + request.destination() + ": ");
  }

  /**
   * Drops the table and deletes the files its metadata lists that lie inside the warehouse (none
   * when the warehouse is unknown): a table placed elsewhere, or a file listed from elsewhere,
   * keeps what is outside.
   */
  void purge(TableIdentifier table) {
    org.apache.iceberg.Table loaded = catalog.loadTable(table);
    if (!(loaded instanceof HasTableOperations operations)) {
      throw new BadRequestException(
          "Cannot purge %s: the catalog gives no metadata to purge by; drop it without purging",
          table);
    }
    TableMetadata metadata = operations.operations().current();
    if (!catalog.dropTable(table, false)) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    CatalogUtil.dropTableData(new WarehouseDeletes(loaded.io(), warehouse), metadata);
  }

  /** Refuses a name a new table may not have, the message starting with {@code context}. */
  private static void checkTableName(TableIdentifier table, String context) {
    if (table.namespace().length() != 1) {
      throw new BadRequestException(
          "%sCannot create %s: a namespace is one name of letters, digits and _, starting with a"
              + " letter or _",
          context, table);
    }
    try {
      new dev.timelake.TableName(table.namespace().level(0), table.name()).requireCreatable();
    } catch (dev.timelake.ValidationException e) {
      throw new BadRequestException(e, "%s%s", context, e.getMessage());
    }
  }

  private void checkProperties(
      String action, TableIdentifier table, Map<String, String> properties) {
    for (Map.Entry<String, String> property : new java.util.TreeMap<>(properties).entrySet()) {
      String key = property.getKey().toLowerCase(java.util.Locale.ROOT);
      if (key.equals(TableProperties.WRITE_LOCATION_PROVIDER_IMPL)) {
        throw new BadRequestException(
            "Cannot %s %s: property '%s' is '%s'; a location provider may put files anywhere, so"
                + " clients cannot choose one (allowed: none)",
            action, table, property.getKey(), property.getValue());
      }
      if (PATH_PROPERTIES.contains(key)) {
        requireInside(
            action,
            table,
            "property '" + property.getKey() + "'",
            property.getValue(),
            folderOf(action, table),
            "the table's folder");
      }
    }
  }

  private void requireOwnFolder(String action, TableIdentifier table, String location) {
    String folder = folderOf(action, table);
    Optional<List<String>> own = parts(folder); // empty for a table named '..', say
    if (own.isEmpty() || !own.equals(parts(location))) {
      throw new BadRequestException(
          "Cannot %s %s at '%s': a table's location is its folder in the warehouse (allowed:"
              + " '%s', or none)",
          action, table, location, folder);
    }
  }

  private void requireInWarehouse(
      String action, TableIdentifier table, String what, String location) {
    String root =
        warehouse.orElseThrow(
            () ->
                new BadRequestException(
                    "Cannot %s %s: %s is '%s', and the server cannot tell where the warehouse is"
                        + " (%s)",
                    action, table, what, location, unknown));
    requireInside(action, table, what, location, root, "the warehouse");
  }

  private static void requireInside(
      String action,
      TableIdentifier table,
      String what,
      String location,
      String folder,
      String folderName) {
    if (location == null || !within(location, folder)) {
      throw new BadRequestException(
          "Cannot %s %s: %s is '%s', outside %s (allowed: '%s' or a path inside it)",
          action, table, what, location, folderName, folder);
    }
  }

  /** The table's own folder, {@code <warehouse>/<namespace>/<table>}. */
  private String folderOf(String action, TableIdentifier table) {
    String root =
        warehouse.orElseThrow(
            () ->
                new BadRequestException(
                    "Cannot %s %s: the server cannot tell where the warehouse is (%s), so it"
                        + " accepts no location or path from clients (give none)",
                    action, table, unknown));
    return root + "/" + String.join("/", table.namespace().levels()) + "/" + table.name();
  }

  /** True when {@code location} is {@code folder} or lies inside it. */
  static boolean within(String location, String folder) {
    Optional<List<String>> inner = parts(location);
    Optional<List<String>> outer = parts(folder);
    return inner.isPresent()
        && outer.isPresent()
        && inner.get().size() >= outer.get().size()
        && inner.get().subList(0, outer.get().size()).equals(outer.get());
  }

  /**
   * A location's storage and path parts ({@code file} and the folder names of a local path or
   * {@code file:} URI; the scheme, bucket and key parts of an object store's), or empty when it is
   * relative, unreadable, or has an empty, {@code .} or {@code ..} part, a backslash, or (on an
   * object store, whose file IO would cut it there) a query or fragment.
   */
  static Optional<List<String>> parts(String location) {
    if (location == null || location.isBlank() || location.indexOf('\\') >= 0) {
      return Optional.empty();
    }
    List<String> parts = new java.util.ArrayList<>();
    if (LakeFileIO.isRemote(location)) {
      int scheme = location.indexOf("://");
      String rest = location.substring(scheme + 3).replaceAll("/+$", "");
      if (rest.indexOf('?') >= 0 || rest.indexOf('#') >= 0) {
        return Optional.empty();
      }
      parts.add(location.substring(0, scheme).toLowerCase(java.util.Locale.ROOT));
      parts.addAll(List.of(rest.split("/", -1)));
    } else {
      try {
        java.nio.file.Path path = LocalFileIO.path(location);
        if (!path.isAbsolute()) {
          return Optional.empty();
        }
        parts.add("file");
        path.forEach(name -> parts.add(name.toString()));
      } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
        return Optional.empty(); // not a path this machine reads: inside nothing
      }
    }
    boolean plain =
        parts.stream()
            .skip(1)
            .noneMatch(part -> part.isEmpty() || part.equals(".") || part.equals(".."));
    return plain ? Optional.of(List.copyOf(parts)) : Optional.empty();
  }
}
