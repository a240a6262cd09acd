package dev.timelake.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTSerializers;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The lake's catalog served over the Iceberg REST catalog protocol, so that other processes and
 * engines (another Timelake with {@code --catalog type=rest --catalog uri=http://host:port}, Spark,
 * Trino, PyIceberg) share it: namespaces, tables, commits, renames and drops, each answered by
 * Iceberg's own {@link CatalogHandlers} on the wrapped catalog, whose commits stay atomic. Clients
 * read and write the data and metadata files themselves, so they need the warehouse's storage.
 * Plain HTTP on the address given (bind to loopback or a private network). With credentials, every
 * request must present them ({@code token=USER:PASSWORD} in the client's catalog properties, sent
 * as a Bearer token, or HTTP Basic), failed logins throttled as the other servers do.
 */
public final class IcebergRestServer implements AutoCloseable {
  private static final String NAMESPACE_SEPARATOR = "\u001f";

  private final Catalog catalog;
  private final SupportsNamespaces namespaces;
  private final HttpServer http;
  private final ObjectMapper json;
  private final java.util.Optional<Credentials> credentials;

  private IcebergRestServer(
      Catalog catalog, HttpServer http, java.util.Optional<Credentials> credentials) {
    this.catalog = catalog;
    this.credentials = credentials;
    this.namespaces = (SupportsNamespaces) catalog;
    this.http = http;
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
    return start(catalog, address, java.util.Optional.empty());
  }

  /** Serves {@code catalog} on {@code address} to clients presenting {@code credentials}. */
  public static IcebergRestServer start(
      Catalog catalog, InetSocketAddress address, java.util.Optional<Credentials> credentials)
      throws IOException {
    if (!(catalog instanceof SupportsNamespaces)) {
      throw new IllegalArgumentException("the catalog does not support namespaces: " + catalog);
    }
    HttpServer http = HttpServer.create(address, 64);
    IcebergRestServer server = new IcebergRestServer(catalog, http, credentials);
    http.createContext("/v1/", server::handle);
    http.setExecutor(Executors.newFixedThreadPool(4));
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
    ((java.util.concurrent.ExecutorService) http.getExecutor()).shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      try {
        if (credentials.isPresent() && !admitted(exchange, credentials.get())) {
          return;
        }
        Object response = route(exchange);
        if (response == null) {
          exchange.sendResponseHeaders(204, -1);
        } else {
          send(exchange, 200, json.writeValueAsBytes(response));
        }
      } catch (RuntimeException e) {
        sendError(
            exchange, status(e), e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
      }
    }
  }

  /** Answers 401 or 429 and returns false unless the request presents the credentials. */
  private boolean admitted(HttpExchange exchange, Credentials users) throws IOException {
    java.net.InetAddress client = exchange.getRemoteAddress().getAddress();
    java.util.Optional<java.time.Duration> blocked = users.throttle().blocked(client);
    if (blocked.isPresent()) {
      exchange
          .getResponseHeaders()
          .set("Retry-After", Long.toString(Math.max(1, blocked.get().toSeconds() + 1)));
      sendError(exchange, 429, "TooManyRequests", LoginThrottle.refusal(client, blocked.get()));
      return false;
    }
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    if (!HttpAuth.authorized(users, exchange, query)) {
      if (HttpAuth.presentsCredentials(exchange, query)) {
        users.throttle().failed(client);
      }
      sendError(
          exchange,
          401,
          "NotAuthorizedException",
          "Wrong or missing credentials: give the catalog property token=USER:PASSWORD");
      return false;
    }
    users.throttle().succeeded(client);
    return true;
  }

  private void sendError(HttpExchange exchange, int status, String type, String message)
      throws IOException {
    ErrorResponse error =
        ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
    send(exchange, status, json.writeValueAsBytes(error));
  }

  private Object route(HttpExchange exchange) throws IOException {
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
          return CatalogHandlers.createNamespace(
              namespaces, body(exchange, CreateNamespaceRequest.class));
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
        return CatalogHandlers.updateNamespaceProperties(
            namespaces, namespace, body(exchange, UpdateNamespacePropertiesRequest.class));
      }
      if (path.size() == 3 && path.get(2).equals("tables")) {
        if (method.equals("POST")) {
          CreateTableRequest request = body(exchange, CreateTableRequest.class);
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
              CatalogHandlers.purgeTable(catalog, table);
            } else {
              CatalogHandlers.dropTable(catalog, table);
            }
            return null;
          }
          case "POST" -> {
            return CatalogHandlers.updateTable(
                catalog, table, body(exchange, UpdateTableRequest.class));
          }
          default -> {
            return CatalogHandlers.loadTable(
                catalog, table, RESTCatalogProperties.SnapshotMode.ALL);
          }
        }
      }
    }
    if (path.equals(List.of("tables", "rename")) && method.equals("POST")) {
      CatalogHandlers.renameTable(catalog, body(exchange, RenameTableRequest.class));
      return null;
    }
    throw new NotFoundException("No route for %s /v1/%s", method, String.join("/", path));
  }

  private <T> T body(HttpExchange exchange, Class<T> type) throws IOException {
    return json.readValue(exchange.getRequestBody(), type);
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
    if (e instanceof IllegalArgumentException
        || e instanceof org.apache.iceberg.exceptions.ValidationException
        || e instanceof UnsupportedOperationException) {
      return 400;
    }
    return 500;
  }

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
