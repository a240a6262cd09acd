package dev.timelake.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTSerializers;
import org.apache.iceberg.rest.RESTUtil;
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
 * <p>Clients stay inside the warehouse (see {@link RestConfinement}): new namespaces and tables
 * have valid, unreserved one-level names, tables live in their folder of the warehouse, no property
 * or file of theirs points elsewhere, and a purge deletes only files inside the warehouse. Requests
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

  private final HttpServer http;
  private final ObjectMapper json;
  private final IcebergRestRoutes routes;
  private final Optional<Credentials> credentials;
  private final ExecutorService workers =
      Executors.newFixedThreadPool(REQUEST_THREADS, ServerThreads.daemons("timelake-rest"));
  private final ScheduledExecutorService timer = ServerThreads.timer("timelake-rest-deadline");
  private final Duration requestDeadline;

  private IcebergRestServer(
      Catalog catalog,
      HttpServer http,
      Optional<Credentials> credentials,
      Duration requestDeadline) {
    this.credentials = credentials;
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
    this.routes = new IcebergRestRoutes(catalog, json);
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
   * Runs one exchange of the JDK's server on a worker, under the request deadline: it interrupts
   * the worker, which ends a blocked read and closes the connection.
   */
  private void execute(Runnable exchange) {
    workers.execute(() -> RestRequestDeadline.run(exchange, timer, requestDeadline));
  }

  private void handle(HttpExchange exchange) throws IOException {
    RestRequestDeadline deadline = RestRequestDeadline.current();
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
      Object response =
          routes.route(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              query(exchange.getRequestURI().getRawQuery()),
              body);
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
}
