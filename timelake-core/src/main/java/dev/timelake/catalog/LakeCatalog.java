package dev.timelake.catalog;

import dev.timelake.NotFoundException;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.engine.Engine;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.storage.LocalFileIO;
import dev.timelake.storage.Warehouse;
import dev.timelake.table.Level;
import dev.timelake.table.Setting;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import dev.timelake.table.TableCreator;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileInfo;

/**
 * The lake's catalog as the implementation sees it: loads tables with their contract, lists,
 * creates, alters and drops them, and keeps views. The engine, its temporary folder and the query
 * heat are the {@link LakeContext}'s, reached through {@link #context()} (and, for the callers that
 * take the catalog, through the delegates here). Thread-safe.
 */
public final class LakeCatalog implements AutoCloseable {
  private final Catalog catalog;
  private final String description;
  private final LakeContext context;
  private final java.util.concurrent.ConcurrentMap<TableName, Table> tables =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final Optional<Warehouse> warehouse;

  /**
   * The lake of {@code catalog}, whose drops delete leftover files only inside the warehouse the
   * catalog was configured with (its {@code warehouse} property; none known: no leftovers deleted).
   */
  public LakeCatalog(Catalog catalog, String description, Path tempDirectory) {
    this(catalog, description, tempDirectory, Optional.empty());
  }

  /**
   * The lake of {@code catalog} whose tables live in {@code warehouse}: drops delete leftover files
   * only in table folders inside it, whatever the catalog (or a REST catalog's server) says.
   */
  public LakeCatalog(Catalog catalog, String description, Path tempDirectory, Warehouse warehouse) {
    this(catalog, description, tempDirectory, Optional.of(warehouse));
  }

  private LakeCatalog(
      Catalog catalog, String description, Path tempDirectory, Optional<Warehouse> warehouse) {
    this.catalog = catalog;
    this.description = description;
    this.context = new LakeContext(tempDirectory);
    this.warehouse = warehouse;
  }

  /** The engine, its temporary folder and the query heat of this process. */
  public LakeContext context() {
    return context;
  }

  /** The engine's temporary folder (the context's). */
  public Path tempDirectory() {
    return context.tempDirectory();
  }

  /** Where the lake lives, for messages. */
  public String description() {
    return description;
  }

  /** How often this process's queries read each partition (the context's). */
  public QueryHeat heat() {
    return context.heat();
  }

  /** The DuckDB engine, started on first use (the context's). */
  public Engine engine() {
    return context.engine();
  }

  /** Confines DuckDB's file access for good (see {@link LakeContext#confineFileAccess}). */
  public void confineFileAccess(List<Path> directories) {
    context.confineFileAccess(directories);
  }

  /**
   * The table's current state, if it exists. Loaded tables are kept and refreshed, which costs one
   * catalog lookup and re-reads metadata only when the table changed.
   */
  public Optional<LoadedTable> load(TableName name) {
    try {
      Table table = tables.get(name);
      if (table == null) {
        table = catalog.loadTable(identifier(name));
        tables.put(name, table);
      } else {
        table = refreshed(name, table);
      }
      return Optional.of(new LoadedTable(name, table, TableContract.of(name, table)));
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      tables.remove(name);
      return Optional.empty();
    }
  }

  /**
   * Refreshes the shared handle, one refresh at a time: two refreshes that interleave could leave
   * the handle at the older of the two metadata versions they read, and a session would then miss
   * its own commit.
   */
  private Table refreshed(TableName name, Table table) {
    try {
      synchronized (table) {
        table.refresh();
      }
      return table;
    } catch (NoSuchTableException e) {
      throw e;
    } catch (RuntimeException e) {
      // Dropped and created again under the same name: load the new table.
      Table reloaded = catalog.loadTable(identifier(name));
      tables.put(name, reloaded);
      return reloaded;
    }
  }

  /** The table's current state; throws naming the table when it does not exist. */
  public LoadedTable require(TableName name) {
    return load(name).orElseThrow(() -> missing(name));
  }

  /**
   * The error for a table that does not exist, with the tables the user may have meant: those of
   * its namespace, else every table.
   */
  public NotFoundException missing(TableName name) {
    List<TableName> all = tables();
    List<String> sameNamespace =
        all.stream()
            .filter(table -> table.namespace().equals(name.namespace()))
            .map(TableName::toString)
            .toList();
    String hint;
    if (!sameNamespace.isEmpty()) {
      hint = "tables in " + name.namespace() + ": " + String.join(", ", sameNamespace);
    } else if (all.isEmpty()) {
      hint = "the lake has no tables yet";
    } else {
      hint =
          "no table in "
              + name.namespace()
              + "; tables: "
              + String.join(", ", all.stream().map(TableName::toString).toList());
    }
    return new NotFoundException(
        "Table " + name + " does not exist in " + description + " (" + hint + ")");
  }

  /** True when the namespace exists in the catalog (it may hold no table). */
  public boolean hasNamespace(String namespace) {
    return namespaces().contains(Namespace.of(namespace));
  }

  /** True when the table exists. */
  public boolean exists(TableName name) {
    return catalog.tableExists(identifier(name));
  }

  /** Every table of every namespace, sorted. */
  public List<TableName> tables() {
    List<TableName> names = new ArrayList<>();
    for (Namespace namespace : namespaces()) {
      for (TableIdentifier id : catalog.listTables(namespace)) {
        names.add(new TableName(namespace.toString(), id.name()));
      }
    }
    names.sort(null);
    return names;
  }

  private List<Namespace> namespaces() {
    if (catalog instanceof SupportsNamespaces namespaces) {
      return namespaces.listNamespaces();
    }
    return List.of(Namespace.of(TableName.DEFAULT_NAMESPACE));
  }

  /** Creates a table; see {@link TableCreator}. */
  public LoadedTable create(TableDefinition definition) {
    Table table = TableCreator.create(catalog, definition, ownFolder(definition.name()));
    return new LoadedTable(definition.name(), table, TableContract.of(definition.name(), table));
  }

  /**
   * Drops a table and deletes its files: those its metadata names, and what Timelake left in its
   * folders (last-value indexes, staged files, files of failed writes); on a local disk also the
   * folders that are then empty. Leftovers are deleted only when the table's location is a table
   * folder inside the lake's warehouse (see {@link #leftoverFolder}): a table someone placed
   * elsewhere keeps whatever else lies there. False when it did not exist.
   */
  public boolean drop(TableName name) {
    Optional<Table> table = load(name).map(LoadedTable::iceberg);
    tables.remove(name);
    long started = System.currentTimeMillis();
    boolean dropped = catalog.dropTable(identifier(name), true);
    if (dropped && table.isPresent()) {
      Optional<String> folder = leftoverFolder(table.get());
      if (folder.isPresent()) {
        deleteLeftovers(LakeFileIO.of(table.get().io()), folder.get(), started);
      }
    }
    return dropped;
  }

  /**
   * Deletes what Iceberg's purge leaves of a dropped table in the folders Timelake writes ({@code
   * data}, {@code metadata}, {@code staging}) under {@code folder}: files older than the drop, so
   * that a table created again at the same location meanwhile keeps its own. On a local disk the
   * empty folders go too.
   */
  private static void deleteLeftovers(LakeFileIO io, String folder, long droppedAtMillis) {
    for (String subfolder : List.of("data", "metadata", "staging")) {
      try {
        List<String> left = new ArrayList<>();
        for (FileInfo file : io.listPrefix(folder + "/" + subfolder + "/")) {
          if (file.createdAtMillis() <= droppedAtMillis && !file.location().endsWith("/")) {
            left.add(file.location());
          }
        }
        io.deleteFiles(left);
      } catch (RuntimeException e) {
        // The table is dropped; files left behind are untidy, not wrong.
      }
    }
    io.deleteEmptyFolders(folder);
  }

  /**
   * The dropped table's folder, when its leftovers may be deleted: its location must lie at least
   * two levels inside the warehouse ({@code <warehouse>/<namespace>/<table>}, never the warehouse
   * or a namespace folder, whose {@code data}, {@code metadata} and {@code staging} are other
   * tables), with no {@code .} or {@code ..} part, on the warehouse's own storage and, on a local
   * disk, also once symbolic links are resolved. Empty otherwise, and when the warehouse is
   * unknown.
   */
  private Optional<String> leftoverFolder(Table table) {
    Optional<Warehouse> root = warehouse.or(() -> configuredWarehouse(table));
    String location = table.location().replaceAll("/+$", "");
    if (root.isEmpty() || root.get().isRemote() != LakeFileIO.isRemote(location)) {
      return Optional.empty();
    }
    if (root.get().isRemote()) {
      String prefix = root.get().location() + "/";
      if (!location.startsWith(prefix)) {
        return Optional.empty();
      }
      List<String> parts = List.of(location.substring(prefix.length()).split("/", -1));
      boolean plain =
          parts.stream().noneMatch(part -> part.isEmpty() || part.equals(".") || part.equals(".."));
      return plain && parts.size() >= 2 ? Optional.of(location) : Optional.empty();
    }
    try {
      Path folder = LocalFileIO.path(location);
      Path base = root.get().folder().orElseThrow();
      if (!folder.isAbsolute()
          || !folder.normalize().equals(folder)
          || !inTableFolder(base, folder)
          || (Files.exists(folder) && !inTableFolder(base.toRealPath(), folder.toRealPath()))) {
        return Optional.empty();
      }
      return Optional.of(folder.toString());
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty(); // a location this disk cannot resolve is not the lake's
    }
  }

  private static boolean inTableFolder(Path base, Path folder) {
    return folder.startsWith(base) && base.relativize(folder).getNameCount() >= 2;
  }

  /**
   * The warehouse the table's catalog was configured with, if it says and names a supported one.
   */
  private static Optional<Warehouse> configuredWarehouse(Table table) {
    try {
      String configured = table.io().properties().get(CatalogProperties.WAREHOUSE_LOCATION);
      return configured == null || configured.isBlank()
          ? Optional.empty()
          : Optional.of(Warehouse.parse(configured));
    } catch (UnsupportedOperationException | TimelakeException e) {
      return Optional.empty(); // no properties, or a warehouse Timelake cannot store tables in
    }
  }

  /**
   * Sets table-level settings in one metadata commit; an empty value resets a setting to its
   * default. Unknown names, settings not allowed at table level and bad values are rejected.
   */
  public LoadedTable setProperties(TableName name, Map<String, String> values) {
    LoadedTable loaded = require(name);
    UpdateProperties update = loaded.iceberg().updateProperties();
    for (Map.Entry<String, String> entry : values.entrySet()) {
      Setting setting = Settings.require(entry.getKey());
      if (!setting.allows(Level.TABLE)) {
        throw TimelakeException.validation(
            "Cannot alter %s: setting '%s' cannot be changed after creation (allowed: %s)",
            name, setting.name(), setting.levelNames());
      }
      String value = entry.getValue();
      if (value == null || value.isEmpty()) {
        update.remove(setting.propertyKey());
      } else {
        update.set(setting.propertyKey(), setting.canonical(value));
      }
    }
    update.commit();
    return require(name);
  }

  /**
   * Adds nullable columns at the end of a table's schema in one commit (Iceberg schema evolution):
   * rows written before read them as NULL; keys, dedup and rollups are unaffected.
   *
   * @throws dev.timelake.ValidationException naming the table and column when a column exists
   *     already, is NOT NULL, or its type is not supported; nothing is changed then
   */
  public LoadedTable addColumns(TableName name, List<dev.timelake.Column> columns) {
    // Iceberg commits a schema change once, against the metadata it read: a concurrent commit of
    // the table (an append, a maintenance run after one) fails it. The change is made again on
    // the new metadata, as Iceberg retries an append.
    for (int attempt = 1; ; attempt++) {
      try {
        return addColumnsOnce(name, columns);
      } catch (dev.timelake.ConflictException e) {
        if (attempt == SCHEMA_CHANGE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** How often a schema change is tried against a table other commits keep changing. */
  private static final int SCHEMA_CHANGE_ATTEMPTS = 5;

  private LoadedTable addColumnsOnce(TableName name, List<dev.timelake.Column> columns) {
    LoadedTable loaded = require(name);
    java.util.Set<String> names = new java.util.HashSet<>();
    loaded
        .contract()
        .columns()
        .forEach(c -> names.add(c.name().toLowerCase(java.util.Locale.ROOT)));
    org.apache.iceberg.UpdateSchema update = loaded.iceberg().updateSchema();
    for (dev.timelake.Column column : columns) {
      if (!column.isNullable()) {
        throw TimelakeException.validation(
            "Cannot add column '%s' to %s: a column added to a table must allow NULL (the rows"
                + " written before have no value for it)",
            column.name(), name);
      }
      if (!names.add(column.name().toLowerCase(java.util.Locale.ROOT))) {
        throw TimelakeException.validation(
            "Cannot add column '%s' to %s: it has a column of that name already",
            column.name(), name);
      }
      int[] placeholder = {1};
      // Iceberg gives the column (and any nested field) fresh ids.
      update.addColumn(
          column.name(),
          dev.timelake.table.TypeMapping.toIceberg(column.type(), () -> placeholder[0]++));
    }
    IcebergCommits.commit(
        IcebergCommits.Operation.onTable("adding columns to " + name, "retry"), update::commit);
    return require(name);
  }

  /**
   * Renames a column in one metadata commit (Iceberg schema evolution by field id: files written
   * before read under the new name), and its name in {@code timelake.unsigned-columns}.
   *
   * @throws dev.timelake.ValidationException naming the table and column when the column does not
   *     exist or the new name is taken; nothing is changed then
   */
  public LoadedTable renameColumn(TableName name, String column, String newName) {
    LoadedTable loaded = require(name);
    String existing = existingColumn(loaded, column, "rename");
    if (loaded.contract().columnNames().stream().anyMatch(newName::equalsIgnoreCase)) {
      throw TimelakeException.validation(
          "Cannot rename column '%s' of %s to '%s': it has a column of that name already",
          existing, name, newName);
    }
    org.apache.iceberg.Transaction change = loaded.iceberg().newTransaction();
    change.updateSchema().renameColumn(existing, newName).commit();
    replaceUnsigned(loaded, change, existing, List.of(newName));
    commitSchemaChange(name, change, "the renaming of column " + existing);
    return require(name);
  }

  /**
   * Drops a column in one metadata commit: its values stay in the files written before and are no
   * longer read (a column added later under the same name gets a new field id and reads NULL
   * there).
   */
  public LoadedTable dropColumn(TableName name, String column) {
    LoadedTable loaded = require(name);
    String existing = existingColumn(loaded, column, "drop");
    if (loaded.contract().columns().size() == 1) {
      throw TimelakeException.validation(
          "Cannot drop column '%s' of %s: it is the table's only column; drop the table instead",
          existing, name);
    }
    org.apache.iceberg.Transaction change = loaded.iceberg().newTransaction();
    change.updateSchema().deleteColumn(existing).commit();
    replaceUnsigned(loaded, change, existing, List.of());
    commitSchemaChange(name, change, "the dropping of column " + existing);
    return require(name);
  }

  private static String existingColumn(LoadedTable table, String column, String what) {
    return table.contract().columnNames().stream()
        .filter(column::equalsIgnoreCase)
        .findFirst()
        .orElseThrow(
            () ->
                TimelakeException.validation(
                    "Cannot %s column '%s' of %s: it has no such column (columns: %s)",
                    what, column, table.name(), String.join(", ", table.contract().columnNames())));
  }

  /** Keeps {@code timelake.unsigned-columns} naming the unsigned columns after a change. */
  private static void replaceUnsigned(
      LoadedTable table,
      org.apache.iceberg.Transaction change,
      String column,
      List<String> replacement) {
    if (!table.contract().isUnsigned(column)) {
      return;
    }
    List<String> unsigned = new ArrayList<>();
    for (String name :
        Settings.splitList(table.contract().settings().get(Settings.UNSIGNED_COLUMNS.name()))) {
      if (name.equals(column)) {
        unsigned.addAll(replacement);
      } else {
        unsigned.add(name);
      }
    }
    var properties = change.updateProperties();
    if (unsigned.isEmpty()) {
      properties.remove(Settings.UNSIGNED_COLUMNS.propertyKey());
    } else {
      properties.set(Settings.UNSIGNED_COLUMNS.propertyKey(), String.join(",", unsigned));
    }
    properties.commit();
  }

  private static void commitSchemaChange(
      TableName name, org.apache.iceberg.Transaction change, String what) {
    IcebergCommits.commit(
        IcebergCommits.Operation.onTable(what + " of " + name, "retry"), change::commitTransaction);
  }

  /**
   * Renames a table within its namespace. Its files stay in its folder, which is marked as taken in
   * the namespace's properties, so that a table created later under the old name gets a folder of
   * its own (two tables sharing a folder would delete each other's files on drop or cleanup).
   */
  public LoadedTable renameTable(TableName name, TableName newName) {
    require(name);
    newName.requireCreatable();
    if (exists(newName)) {
      throw new dev.timelake.AlreadyExistsException(
          "Cannot rename " + name + " to " + newName + ": " + newName + " exists already");
    }
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      throw TimelakeException.validation(
          "Cannot rename %s: the catalog %s keeps no namespace properties, where Timelake records"
              + " the folder the table keeps; create %s and INSERT INTO it SELECT * FROM %s",
          name, description, newName, name);
    }
    String folder = require(name).iceberg().location().replaceAll("/+$", "");
    try {
      // Recorded first: a mark left by a rename that then fails only costs a suffix later.
      namespaces.setProperties(
          Namespace.of(name.namespace()), Map.of(TAKEN_FOLDER_PREFIX + name.name(), folder));
      catalog.renameTable(identifier(name), identifier(newName));
    } catch (UnsupportedOperationException e) {
      throw TimelakeException.validation(
          "Cannot rename %s: the catalog %s does not rename tables; create %s and INSERT INTO it"
              + " SELECT * FROM %s",
          name, description, newName, name);
    }
    tables.remove(name);
    return require(newName);
  }

  /**
   * Removes every row of a table in one commit (by metadata: no file is read or written) and
   * returns how many rows the live files held, copies included. The files go with snapshot expiry.
   */
  public long truncate(TableName name) {
    LoadedTable loaded = require(name);
    if (loaded.iceberg().currentSnapshot() == null) {
      return 0;
    }
    var delete = loaded.deleteEveryRow("truncate");
    IcebergCommits.commit(
        IcebergCommits.Operation.onTable("truncate of " + name, "retry the TRUNCATE"),
        delete::commit);
    Map<String, String> summary = require(name).iceberg().currentSnapshot().summary();
    return Long.parseLong(summary.getOrDefault("deleted-records", "0"));
  }

  /** Namespace property holding a view's query, by the view's name. */
  private static final String VIEW_PREFIX = "timelake.view.";

  /**
   * The query of view {@code name}, if the lake has one. A view is kept in its namespace's
   * properties (no data, no files) and read by expanding its query where it is named.
   */
  public Optional<String> view(TableName name) {
    return Optional.ofNullable(views(name.namespace()).get(name.name()));
  }

  /** The views of {@code namespace}, by name, with their queries. */
  public Map<String, String> views(String namespace) {
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return Map.of();
    }
    Map<String, String> views = new java.util.TreeMap<>();
    try {
      namespaces
          .loadNamespaceMetadata(Namespace.of(namespace))
          .forEach(
              (key, value) -> {
                if (key.startsWith(VIEW_PREFIX)) {
                  views.put(key.substring(VIEW_PREFIX.length()), value);
                }
              });
    } catch (NoSuchNamespaceException | UnsupportedOperationException e) {
      return Map.of();
    }
    return views;
  }

  /** Stores view {@code name} with {@code query}, replacing one of that name. */
  public void putView(TableName name, String query) {
    name.requireCreatable();
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      throw TimelakeException.validation(
          "Cannot create view %s: the catalog %s keeps no namespace properties, where Timelake"
              + " keeps views; use CREATE TEMP VIEW (this session's)",
          name, description);
    }
    TableCreator.ensureNamespace(catalog, Namespace.of(name.namespace()));
    namespaces.setProperties(
        Namespace.of(name.namespace()), Map.of(VIEW_PREFIX + name.name(), query));
  }

  /** Removes view {@code name}; false when there was none. */
  public boolean dropView(TableName name) {
    if (view(name).isEmpty()) {
      return false;
    }
    ((SupportsNamespaces) catalog)
        .removeProperties(
            Namespace.of(name.namespace()), java.util.Set.of(VIEW_PREFIX + name.name()));
    return true;
  }

  /** Namespace property naming the folder a renamed table keeps, by its former name. */
  private static final String TAKEN_FOLDER_PREFIX = "timelake.folder-taken.";

  /**
   * A folder of its own for a new table whose default folder a renamed table kept: the kept one
   * with a short random suffix. Empty when the default folder is free.
   */
  private Optional<String> ownFolder(TableName name) {
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return Optional.empty();
    }
    String taken;
    try {
      taken =
          namespaces
              .loadNamespaceMetadata(Namespace.of(name.namespace()))
              .get(TAKEN_FOLDER_PREFIX + name.name());
    } catch (NoSuchNamespaceException | UnsupportedOperationException e) {
      return Optional.empty(); // a new namespace, or a catalog without properties: nothing taken
    }
    return Optional.ofNullable(taken)
        .map(folder -> folder + "-" + java.util.UUID.randomUUID().toString().substring(0, 8));
  }

  private static TableIdentifier identifier(TableName name) {
    return TableIdentifier.of(name.namespace(), name.name());
  }

  @Override
  public synchronized void close() {
    context.close();
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new TimelakeException(
            dev.timelake.ErrorCode.INTERNAL, "Cannot close catalog: " + e.getMessage(), e);
      }
    }
  }
}
