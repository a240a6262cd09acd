package dev.timelake.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.timelake.Lake;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * InfluxDB line protocol over HTTP, so Telegraf and the InfluxDB and QuestDB clients can send
 * readings: {@code POST /api/v2/write?bucket=NAMESPACE&precision=ns|us|ms|s} (InfluxDB 2) and
 * {@code POST /write?db=NAMESPACE&precision=n|u|ms|s|m|h} (InfluxDB 1, QuestDB), each request
 * appended by {@link LineProtocolWriter}; {@code /ping} and {@code /health} for clients that check
 * the server first. Logins are the PostgreSQL server's {@link Credentials}: {@code Authorization:
 * Token PASSWORD} (or {@code Token USER:PASSWORD}), {@code Bearer}, HTTP Basic, or v1's {@code u}
 * and {@code p} parameters. Answers follow InfluxDB: 204 when written, 400 with a JSON {@code
 * message} naming the line and field when refused (nothing of the request written), 401, 404, 405,
 * 413.
 */
public final class LineProtocolServer implements AutoCloseable {
  /**
   * Requests handled at once. Most of them wait for a commit, which takes every request queued
   * behind the one running: more requests in flight make bigger commits, not more CPU work.
   */
  static final int REQUEST_THREADS = 64;

  /**
   * Request bytes held at once by all requests (bodies being read, parsed and written): beyond it a
   * request is answered 503 and sent again by the client, so many large requests cannot exhaust the
   * heap.
   */
  static final int MAX_BYTES_IN_FLIGHT = 512 << 20;

  /**
   * How long a client may take to send its request's headers, and then its body: a client that
   * sends slowly (or stops) must not hold one of the request threads for longer.
   */
  static final Duration REQUEST_DEADLINE = Duration.ofSeconds(120);

  private final java.util.concurrent.Semaphore inFlight;

  /** The largest request body accepted, after decompression. */
  static final int MAX_BODY_BYTES = 256 << 20;

  private final HttpServer http;
  private final ExecutorService workers;
  private final BufferAllocator allocator = new RootAllocator();
  private final Credentials credentials;
  private final LineProtocolWriter writer;
  private final Clock clock;
  private final java.util.concurrent.ScheduledExecutorService deadlines =
      Executors.newSingleThreadScheduledExecutor(
          LineProtocolWriter.daemons("timelake-http-deadline"));
  private final Duration bodyDeadline;

  private LineProtocolServer(
      HttpServer http,
      Lake lake,
      Credentials credentials,
      int threads,
      int bytesInFlight,
      Duration bodyDeadline) {
    this.bodyDeadline = bodyDeadline;
    this.inFlight = new java.util.concurrent.Semaphore(bytesInFlight >> 10);
    this.http = http;
    this.credentials = credentials;
    this.writer = new LineProtocolWriter(lake, allocator);
    this.clock = Clock.systemUTC();
    this.workers =
        Executors.newFixedThreadPool(threads, LineProtocolWriter.daemons("timelake-http"));
    http.setExecutor(workers);
    http.createContext("/", this::handle);
  }

  /**
   * Listens on {@code address} (port 0: any free port) and appends what clients send to {@code
   * lake} until closed.
   *
   * @throws IOException when the address cannot be bound
   * @throws IllegalArgumentException without credentials
   */
  public static LineProtocolServer start(
      Lake lake, InetSocketAddress address, Credentials credentials) throws IOException {
    return start(lake, address, credentials, Optional.empty());
  }

  /** Like {@link #start(Lake, InetSocketAddress, Credentials)}, over HTTPS with {@code tls}. */
  public static LineProtocolServer start(
      Lake lake, InetSocketAddress address, Credentials credentials, Optional<Tls> tls)
      throws IOException {
    return start(lake, address, credentials, tls, MAX_BYTES_IN_FLIGHT, REQUEST_DEADLINE);
  }

  /**
   * Like the others, holding at most {@code bytesInFlight} request bytes at once and waiting at
   * most {@code bodyDeadline} for a body (tests).
   */
  static LineProtocolServer start(
      Lake lake,
      InetSocketAddress address,
      Credentials credentials,
      Optional<Tls> tls,
      int bytesInFlight,
      Duration bodyDeadline)
      throws IOException {
    if (credentials == null) {
      throw new IllegalArgumentException(
          "A server admits nobody without a password: set " + Credentials.PASSWORD_VARIABLE);
    }
    // The JDK's server closes connections whose headers take longer; read once, when the first
    // server of the process starts, so a value the user set for the JVM wins.
    if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
      System.setProperty(
          "sun.net.httpserver.maxReqTime", Long.toString(REQUEST_DEADLINE.toSeconds()));
    }
    HttpServer http;
    try {
      if (tls.isPresent()) {
        com.sun.net.httpserver.HttpsServer https =
            com.sun.net.httpserver.HttpsServer.create(address, 64);
        https.setHttpsConfigurator(
            new com.sun.net.httpserver.HttpsConfigurator(tls.get().context()));
        http = https;
      } else {
        http = HttpServer.create(address, 64);
      }
    } catch (IOException e) {
      throw new IOException(
          "Cannot listen on " + address.getHostString() + ":" + address.getPort() + ": " + e, e);
    }
    LineProtocolServer server =
        new LineProtocolServer(
            http, lake, credentials, REQUEST_THREADS, bytesInFlight, bodyDeadline);
    http.start();
    return server;
  }

  /** The port the server listens on. */
  public int port() {
    return http.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      Map<String, String> query;
      try {
        query = query(exchange.getRequestURI().getRawQuery());
      } catch (IllegalArgumentException e) {
        respond(exchange, 400, error("invalid", "Malformed query string: " + e.getMessage()));
        return;
      }
      switch (path) {
        case "/ping" -> {
          exchange.getResponseHeaders().set("X-Influxdb-Version", "Timelake");
          exchange.sendResponseHeaders(204, -1);
        }
        case "/health" -> respond(exchange, 200, "{\"status\":\"pass\",\"name\":\"timelake\"}");
        case "/api/v2/write", "/write" -> {
          if (!method.equals("POST")) {
            respond(exchange, 405, error("method not allowed", method + " " + path + "; use POST"));
            return;
          }
          InetAddress client = exchange.getRemoteAddress().getAddress();
          Optional<Duration> blocked = credentials.throttle().blocked(client);
          if (blocked.isPresent()) {
            exchange
                .getResponseHeaders()
                .set("Retry-After", Long.toString(Math.max(1, blocked.get().toSeconds() + 1)));
            respond(
                exchange,
                429,
                error("too many requests", LoginThrottle.refusal(client, blocked.get())));
            return;
          }
          if (!HttpAuth.authorized(credentials, exchange, query)) {
            if (HttpAuth.presentsCredentials(exchange, query)) {
              credentials.throttle().failed(client);
            }
            exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"timelake\"");
            respond(exchange, 401, error("unauthorized", "Wrong or missing credentials"));
            return;
          }
          credentials.throttle().succeeded(client);
          write(exchange, query, path.equals("/write"));
        }
        default -> respond(exchange, 404, error("not found", "No endpoint " + path));
      }
    } catch (RuntimeException e) {
      respond(exchange, 500, error("internal error", String.valueOf(e.getMessage())));
    }
  }

  private void write(HttpExchange exchange, Map<String, String> query, boolean v1)
      throws IOException {
    String namespace =
        Optional.ofNullable(query.get(v1 ? "db" : "bucket"))
            .filter(name -> !name.isBlank())
            .orElse(TableName.DEFAULT_NAMESPACE);
    LineProtocol.Precision precision;
    try {
      precision = LineProtocol.Precision.parse(query.get("precision"));
    } catch (IllegalArgumentException e) {
      respond(exchange, 400, error("invalid", e.getMessage()));
      return;
    }
    Held held = new Held();
    try {
      write(exchange, namespace, precision, held);
    } finally {
      inFlight.release(held.kib);
    }
  }

  /** The KiB of the in-flight budget one request holds. */
  private static final class Held {
    int kib;
  }

  private void write(
      HttpExchange exchange, String namespace, LineProtocol.Precision precision, Held held)
      throws IOException {
    Optional<byte[]> body;
    // A body that does not arrive in time: closing the exchange ends the blocked read.
    java.util.concurrent.ScheduledFuture<?> deadline =
        deadlines.schedule(
            exchange::close, bodyDeadline.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    try {
      body = body(exchange, held);
    } catch (java.util.zip.ZipException | java.io.EOFException e) {
      respond(exchange, 400, error("invalid", "The gzip body cannot be read: " + e.getMessage()));
      return;
    } catch (Busy e) {
      respond(
          exchange,
          503,
          error("unavailable", "The server holds too much request data right now; send it again"));
      return;
    } finally {
      deadline.cancel(false);
    }
    if (body.isEmpty()) {
      respond(
          exchange,
          413,
          error("request too large", "The body is over " + (MAX_BODY_BYTES >> 20) + " MiB"));
      return;
    }
    try {
      long now = micros(clock.instant());
      List<LineProtocol.Point> points = LineProtocol.parse(body.get(), precision, now);
      if (!points.isEmpty()) {
        // A resent body is the same points, unless some lines take the time they arrive.
        boolean untimed = points.stream().anyMatch(point -> point.micros() == now);
        Optional<String> requestKey =
            untimed
                ? Optional.empty()
                : Optional.of(
                    precision + "\u0000" + java.util.HexFormat.of().formatHex(sha256(body.get())));
        writer.write(namespace, points, requestKey);
      }
      exchange.sendResponseHeaders(204, -1);
    } catch (LineProtocol.ParseException | LineProtocolWriter.Rejected e) {
      respond(exchange, 400, error("invalid", e.getMessage()));
    } catch (TimelakeException e) {
      // The client's mistake is a 400 (not to be resent); a conflict or a failed commit is the
      // server's, and a client such as Telegraf sends the request again after a 5xx.
      boolean clients =
          switch (e.code()) {
            case VALIDATION,
                NOT_FOUND,
                ALREADY_EXISTS,
                DUPLICATE_INDEX_INTERVAL,
                INDEX_INTERVAL_OVERLAP ->
                true;
            default -> false;
          };
      respond(
          exchange,
          clients ? 400 : 503,
          error(clients ? "invalid" : "unavailable", e.getMessage()));
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  private static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  /** The in-flight budget is spent. */
  private static final class Busy extends RuntimeException {
    Busy() {
      super(null, null, false, false);
    }
  }

  /** The request body, gunzipped when sent so; empty when it is over the limit. */
  private Optional<byte[]> body(HttpExchange exchange, Held held) throws IOException {
    InputStream in = exchange.getRequestBody();
    String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
    if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("gzip")) {
      in = new GZIPInputStream(in);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[64 << 10];
    int read;
    while ((read = in.read(buffer)) > 0) {
      if (out.size() + read > MAX_BODY_BYTES) {
        return Optional.empty();
      }
      int kib = (out.size() + read + 1023) / 1024 - held.kib;
      if (kib > 0) {
        if (!inFlight.tryAcquire(kib)) {
          throw new Busy();
        }
        held.kib += kib;
      }
      out.write(buffer, 0, read);
    }
    return Optional.of(out.toByteArray());
  }

  /** A request without any credentials guesses no password: it is not counted as a failure. */
  private static Map<String, String> query(String raw) {
    Map<String, String> parameters = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return parameters;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      parameters.put(
          URLDecoder.decode(name, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return parameters;
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** An InfluxDB-style error body. */
  private static String error(String code, String message) {
    java.util.Map<String, String> body = new java.util.LinkedHashMap<>();
    body.put("code", code);
    body.put("message", message == null ? "" : message);
    try {
      return JSON.writeValueAsString(body);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("A map of two strings is always JSON", e);
    }
  }

  private static void respond(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Stops listening; requests in flight get up to a second to finish. */
  @Override
  public void close() {
    http.stop(1);
    deadlines.shutdownNow();
    workers.shutdownNow();
    writer.close();
    allocator.close();
  }
}
