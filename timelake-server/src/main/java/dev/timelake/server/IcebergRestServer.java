package dev.timelake.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.storage.LocalFileIO;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTSerializers;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The lake's catalog served over the Iceberg REST catalog protocol, so that other processes and
 * engines (another Timelake with {@code --catalog type=rest --catalog uri=http://host:port}, Spark,
 * Trino, PyIceberg) share it: namespaces, tables, commits, registrations, renames and drops, each
 * answered by Iceberg's own {@link CatalogHandlers} on the wrapped catalog, whose commits stay
 * atomic. Clients read and write the data and metadata files themselves, so they need the
 * warehouse's storage. Plain HTTP on the address given (bind to loopback or a private network).
 * With credentials, every request must present them ({@code token=USER:PASSWORD} in the client's
 * catalog properties, sent as a Bearer token, or HTTP Basic), failed logins throttled as the other
 * servers do.
 *
 * <p>Clients stay inside the warehouse (see {@link Confinement}): new namespaces and tables have
 * valid, unreserved one-level names, tables live in their folder of the warehouse, no property or
 * file of theirs points elsewhere, and a purge deletes only files inside the warehouse. Requests
 * refused so are answered 400 with an {@link ErrorResponse} naming the table and the value, and
 * change nothing.
 *
 * <p>A client must send each request (headers and body) within {@link #REQUEST_DEADLINE} of the
 * server starting to read it, and take the answer as quickly, or its connection is closed; {@link
 * #REQUEST_THREADS} requests are read and answered at once, so slow clients cannot hold them all.
 * Nothing here changes the JVM-wide {@code sun.net.httpserver.*} settings.
 */
public final class IcebergRestServer implements AutoCloseable {
  /** Requests read and answered at once; a slow client holds one until its deadline at most. */
  static final int REQUEST_THREADS = 64;

  /** How long a client may take to send a request's headers and body, and to take the answer. */
  static final Duration REQUEST_DEADLINE = Duration.ofSeconds(30);

  /** The largest request body accepted (a commit or a schema is a few kilobytes). */
  static final int MAX_BODY_BYTES = 8 << 20;

  private static final String NAMESPACE_SEPARATOR = "\u001f";

  private final Catalog catalog;
  private final SupportsNamespaces namespaces;
  private final Confinement confinement;
  private final HttpServer http;
  private final ObjectMapper json;
  private final Optional<Credentials> credentials;
  private final ExecutorService workers =
      Executors.newFixedThreadPool(REQUEST_THREADS, LineProtocolWriter.daemons("timelake-rest"));
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          LineProtocolWriter.daemons("timelake-rest-deadline"));
  private final Duration requestDeadline;

  private IcebergRestServer(
      Catalog catalog,
      HttpServer http,
      Optional<Credentials> credentials,
      Duration requestDeadline) {
    this.catalog = catalog;
    this.credentials = credentials;
    this.namespaces = (SupportsNamespaces) catalog;
    this.confinement = Confinement.of(catalog);
    this.http = http;
    this.requestDeadline = requestDeadline;
    // Configured as Iceberg's own REST mapper is (its class is package-private).
    this.json =
        new ObjectMapper()
            .setVisibility(
                com.fasterxml.jackson.annotation.PropertyAccessor.FIELD,
                com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility.ANY)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
    RESTSerializers.registerAll(json);
  }

  /** Serves {@code catalog} (which must support namespaces) on {@code address} to anyone. */
  public static IcebergRestServer start(Catalog catalog, InetSocketAddress address)
      throws IOException {
    return start(catalog, address, Optional.empty());
  }

  /** Serves {@code catalog} on {@code address} to clients presenting {@code credentials}. */
  public static IcebergRestServer start(
      Catalog catalog, InetSocketAddress address, Optional<Credentials> credentials)
      throws IOException {
    return start(catalog, address, credentials, REQUEST_DEADLINE);
  }

  /** Like the others, closing connections whose request takes over {@code requestDeadline}. */
  static IcebergRestServer start(
      Catalog catalog,
      InetSocketAddress address,
      Optional<Credentials> credentials,
      Duration requestDeadline)
      throws IOException {
    if (!(catalog instanceof SupportsNamespaces)) {
      throw new IllegalArgumentException("the catalog does not support namespaces: " + catalog);
    }
    HttpServer http = HttpServer.create(address, 64);
    IcebergRestServer server = new IcebergRestServer(catalog, http, credentials, requestDeadline);
    http.createContext("/v1/", server::handle);
    http.setExecutor(server::execute);
    http.start();
    return server;
  }

  /** The URI clients give as the catalog's {@code uri}. */
  public URI uri() {
    InetSocketAddress address = http.getAddress();
    return URI.create("http://" + address.getHostString() + ":" + address.getPort());
  }

  @Override
  public void close() {
    http.stop(0);
    workers.shutdownNow();
    timer.shutdownNow();
  }

  /**
   * Runs one exchange of the JDK's server, which reads the request line and headers on the worker
   * (its first bytes have arrived by then) from a blocking channel: the deadline interrupts the
   * worker, which ends the read and closes the connection.
   */
  private void execute(Runnable exchange) {
    workers.execute(
        () -> {
          RequestDeadline deadline =
              new RequestDeadline(Thread.currentThread(), timer, requestDeadline);
          RequestDeadline.CURRENT.set(deadline);
          deadline.start();
          try {
            exchange.run();
          } finally {
            deadline.stop();
            RequestDeadline.CURRENT.remove();
            Thread.interrupted(); // an expiry's interrupt must not reach the next exchange
          }
        });
  }

  private void handle(HttpExchange exchange) throws IOException {
    RequestDeadline deadline = RequestDeadline.CURRENT.get();
    try (exchange) {
      Optional<Reply> reply =
          credentials.isPresent() ? refusal(exchange, credentials.get()) : Optional.empty();
      if (reply.isEmpty()) {
        byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
        deadline.stop(); // the request is in: the catalog's work takes the time it takes
        reply = Optional.of(answer(exchange, body));
        deadline.start();
      }
      reply.get().send(exchange);
    }
  }

  private Reply answer(HttpExchange exchange, byte[] body) {
    if (body.length > MAX_BODY_BYTES) {
      return error(
          413,
          "RequestTooLarge",
          "The request body is over " + (MAX_BODY_BYTES >> 20) + " MiB; the server takes no more");
    }
    try {
      Object response = route(exchange, body);
      return response == null
          ? new Reply(204, new byte[0], Map.of())
          : new Reply(200, json.writeValueAsBytes(response), Map.of());
    } catch (JsonProcessingException e) {
      return error(500, "InternalServerError", "Cannot write the answer: " + e.getMessage());
    } catch (RuntimeException e) {
      return error(status(e), e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
    }
  }

  /**
   * The 401, 403 or 429 answer, unless the request presents the credentials of an admin (the REST
   * catalog changes what every table is).
   */
  private Optional<Reply> refusal(HttpExchange exchange, Credentials users) {
    java.net.InetAddress client = exchange.getRemoteAddress().getAddress();
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    HttpAuth.Login login = HttpAuth.login(users, exchange, query, client);
    if (login instanceof HttpAuth.Login.Throttled throttled) {
      Reply reply = error(429, "TooManyRequests", throttled.message());
      return Optional.of(
          reply.with("Retry-After", Long.toString(Math.max(1, throttled.left().toSeconds() + 1))));
    }
    if (!(login instanceof HttpAuth.Login.Admitted admitted)) {
      return Optional.of(
          error(
              401,
              "NotAuthorizedException",
              "Wrong or missing credentials: give the catalog property token=USER:PASSWORD"));
    }
    try {
      admitted.access().require(dev.timelake.Role.ADMIN, null, "use the REST catalog");
    } catch (dev.timelake.AccessDeniedException e) {
      return Optional.of(error(403, "ForbiddenException", e.getMessage()));
    }
    return Optional.empty();
  }

  private Reply error(int status, String type, String message) {
    ErrorResponse error =
        ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
    try {
      return new Reply(status, json.writeValueAsBytes(error), Map.of());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write an error answer: " + e.getMessage(), e);
    }
  }

  private Object route(HttpExchange exchange, byte[] body) {
    String method = exchange.getRequestMethod();
    List<String> path =
        List.of(exchange.getRequestURI().getRawPath().substring("/v1/".length()).split("/"));
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    if (path.equals(List.of("config"))) {
      return ConfigResponse.builder().build();
    }
    if (path.get(0).equals("namespaces")) {
      if (path.size() == 1) {
        if (method.equals("POST")) {
          CreateNamespaceRequest request = body(body, CreateNamespaceRequest.class);
          confinement.checkNewNamespace(request.namespace(), request.properties());
          return CatalogHandlers.createNamespace(namespaces, request);
        }
        Namespace parent =
            query.containsKey("parent")
                ? RESTUtil.decodeNamespace(query.get("parent"), NAMESPACE_SEPARATOR)
                : Namespace.empty();
        return CatalogHandlers.listNamespaces(namespaces, parent);
      }
      Namespace namespace =
          RESTUtil.decodeNamespace(RESTUtil.decodeString(path.get(1)), NAMESPACE_SEPARATOR);
      if (path.size() == 2) {
        switch (method) {
          case "HEAD" -> {
            CatalogHandlers.namespaceExists(namespaces, namespace);
            return null;
          }
          case "DELETE" -> {
            CatalogHandlers.dropNamespace(namespaces, namespace);
            return null;
          }
          default -> {
            return CatalogHandlers.loadNamespace(namespaces, namespace);
          }
        }
      }
      if (path.size() == 3 && path.get(2).equals("properties")) {
        UpdateNamespacePropertiesRequest request =
            body(body, UpdateNamespacePropertiesRequest.class);
        confinement.checkNamespaceProperties(namespace, request.updates());
        return CatalogHandlers.updateNamespaceProperties(namespaces, namespace, request);
      }
      if (path.size() == 3 && path.get(2).equals("register") && method.equals("POST")) {
        RegisterTableRequest request = body(body, RegisterTableRequest.class);
        confinement.checkRegister(TableIdentifier.of(namespace, request.name()), request);
        return CatalogHandlers.registerTable(catalog, namespace, request);
      }
      if (path.size() == 3 && path.get(2).equals("tables")) {
        if (method.equals("POST")) {
          CreateTableRequest request = body(body, CreateTableRequest.class);
          confinement.checkNewTable(TableIdentifier.of(namespace, request.name()), request);
          return request.stageCreate()
              ? CatalogHandlers.stageTableCreate(catalog, namespace, request)
              : CatalogHandlers.createTable(catalog, namespace, request);
        }
        return CatalogHandlers.listTables(catalog, namespace);
      }
      if (path.size() == 4 && path.get(2).equals("tables")) {
        TableIdentifier table = TableIdentifier.of(namespace, RESTUtil.decodeString(path.get(3)));
        switch (method) {
          case "HEAD" -> {
            CatalogHandlers.tableExists(catalog, table);
            return null;
          }
          case "DELETE" -> {
            if (Boolean.parseBoolean(query.getOrDefault("purgeRequested", "false"))) {
              confinement.purge(table);
            } else {
              CatalogHandlers.dropTable(catalog, table);
            }
            return null;
          }
          case "POST" -> {
            UpdateTableRequest request = body(body, UpdateTableRequest.class);
            confinement.checkUpdate(table, request);
            return CatalogHandlers.updateTable(catalog, table, request);
          }
          default -> {
            return CatalogHandlers.loadTable(
                catalog, table, RESTCatalogProperties.SnapshotMode.ALL);
          }
        }
      }
    }
    if (path.equals(List.of("tables", "rename")) && method.equals("POST")) {
      RenameTableRequest request = body(body, RenameTableRequest.class);
      confinement.checkRename(request);
      CatalogHandlers.renameTable(catalog, request);
      return null;
    }
    throw new NotFoundException("No route for %s /v1/%s", method, String.join("/", path));
  }

  /** The request in {@code body}, checked for its required fields. */
  private <T extends RESTRequest> T body(byte[] body, Class<T> type) {
    T request;
    try {
      request = json.readValue(body, type);
    } catch (IOException e) {
      throw new BadRequestException(
          "Cannot read the request body as %s: %s", type.getSimpleName(), e.getMessage());
    }
    request.validate();
    return request;
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int equals = pair.indexOf('=');
        if (equals > 0) {
          query.put(
              RESTUtil.decodeString(pair.substring(0, equals)),
              RESTUtil.decodeString(pair.substring(equals + 1)));
        }
      }
    }
    return query;
  }

  /** The HTTP status Iceberg's REST client turns back into the same exception. */
  private static int status(RuntimeException e) {
    if (e instanceof NoSuchTableException
        || e instanceof NoSuchNamespaceException
        || e instanceof NotFoundException) {
      return 404;
    }
    if (e instanceof AlreadyExistsException
        || e instanceof CommitFailedException
        || e instanceof NamespaceNotEmptyException) {
      return 409;
    }
    if (e instanceof CommitStateUnknownException) {
      return 500;
    }
    if (e instanceof BadRequestException
        || e instanceof IllegalArgumentException
        || e instanceof org.apache.iceberg.exceptions.ValidationException
        || e instanceof UnsupportedOperationException) {
      return 400;
    }
    return 500;
  }

  /** An answer: its status, JSON body (none: empty) and extra headers. */
  private record Reply(int status, byte[] json, Map<String, String> headers) {
    Reply with(String header, String value) {
      Map<String, String> more = new HashMap<>(headers);
      more.put(header, value);
      return new Reply(status, json, Map.copyOf(more));
    }

    void send(HttpExchange exchange) throws IOException {
      headers.forEach(exchange.getResponseHeaders()::set);
      if (json.length == 0) {
        exchange.sendResponseHeaders(status, -1);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, json.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(json);
      }
    }
  }

  /**
   * Interrupts a worker whose client takes longer than the limit to send its request or take the
   * answer: the JDK's server reads and writes blocking channels, which an interrupt closes. Never
   * interrupts once stopped, so the catalog's work in between is not disturbed. Thread-safe.
   */
  private static final class RequestDeadline {
    static final ThreadLocal<RequestDeadline> CURRENT = new ThreadLocal<>();

    private final Thread worker;
    private final ScheduledExecutorService timer;
    private final Duration limit;
    private long started; // which start an expiry belongs to; guarded by this
    private ScheduledFuture<?> expiry; // guarded by this

    RequestDeadline(Thread worker, ScheduledExecutorService timer, Duration limit) {
      this.worker = worker;
      this.timer = timer;
      this.limit = limit;
    }

    synchronized void start() {
      stop();
      long start = ++started;
      expiry = timer.schedule(() -> expire(start), limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    synchronized void stop() {
      started++;
      if (expiry != null) {
        expiry.cancel(false);
        expiry = null;
      }
    }

    private synchronized void expire(long start) {
      if (start == started) {
        expiry = null;
        worker.interrupt();
      }
    }
  }

  /**
   * What REST clients may create and change, so that nothing they ask makes this server, or a lake
   * dropping their tables, write or delete files outside the warehouse. The warehouse is where the
   * catalog places new tables ({@code <warehouse>/<namespace>/<table>}), learnt once by asking it
   * where it would put one; when it does not answer so, no location or path is accepted.
   *
   * <ul>
   *   <li>New namespaces, tables (created, staged, committed as created, registered) and rename
   *       targets: one-level namespace, names by {@link dev.timelake.TableName}'s rule, not
   *       reserved.
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
  static final class Confinement {
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

    private Confinement(
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
    static Confinement of(Catalog catalog) {
      String location;
      FileIO io;
      try {
        org.apache.iceberg.Table staged =
            catalog.buildTable(PROBE, new Schema()).createTransaction().table();
        location = staged.location();
        io = staged.io();
      } catch (RuntimeException e) {
        return new Confinement(
            catalog, Optional.empty(), Optional.empty(), "the catalog answered " + e);
      }
      String suffix = "/" + PROBE.namespace().level(0) + "/" + PROBE.name();
      if (!location.endsWith(suffix) || parts(location).isEmpty()) {
        return new Confinement(
            catalog,
            Optional.empty(),
            Optional.empty(),
            "the catalog would put " + PROBE + " at " + location);
      }
      String root = location.substring(0, location.length() - suffix.length());
      return new Confinement(catalog, Optional.of(root), Optional.of(io), "");
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
      TableMetadata metadata =
          TableMetadataParser.read(io.orElseThrow(), request.metadataLocation());
      requireOwnFolder(action, table, metadata.location());
      checkProperties(action, table, metadata.properties());
      for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
        requireInside(
            action, table, "a previous metadata file", entry.file(), folder, "its folder");
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
     * {@code file:} URI; the scheme, bucket and key parts of an object store's), or empty when it
     * is relative, unreadable, or has an empty, {@code .} or {@code ..} part, a backslash, or (on
     * an object store, whose file IO would cut it there) a query or fragment.
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

  /**
   * A catalog's file IO for purges: reads as it does, deletes only files inside the warehouse
   * (local ones also once symbolic links are resolved), and nothing when the warehouse is unknown.
   */
  private record WarehouseDeletes(FileIO io, Optional<String> warehouse) implements FileIO {
    @Override
    public InputFile newInputFile(String location) {
      return io.newInputFile(location);
    }

    @Override
    public InputFile newInputFile(String location, long length) {
      return io.newInputFile(location, length);
    }

    @Override
    public OutputFile newOutputFile(String location) {
      return io.newOutputFile(location);
    }

    @Override
    public void deleteFile(String location) {
      if (warehouse.isPresent() && storedInside(location, warehouse.get())) {
        io.deleteFile(location);
      }
    }

    @Override
    public Map<String, String> properties() {
      return io.properties();
    }

    @Override
    public void close() {
      // The catalog's file IO: the catalog closes it.
    }

    private static boolean storedInside(String location, String root) {
      if (!Confinement.within(location, root)) {
        return false;
      }
      if (LakeFileIO.isRemote(location)) {
        return true;
      }
      try {
        java.nio.file.Path folder = LocalFileIO.path(location).getParent();
        return java.nio.file.Files.isDirectory(folder)
            && folder.toRealPath().startsWith(LocalFileIO.path(root).toRealPath());
      } catch (IOException | IllegalArgumentException e) {
        return false; // a file that cannot be resolved is not deleted
      }
    }
  }
}
