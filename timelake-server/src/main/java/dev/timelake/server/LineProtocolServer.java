package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.timelake.Lake;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.io.IOException;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * InfluxDB line protocol over HTTP, so Telegraf and the InfluxDB and QuestDB clients can send
 * readings: {@code POST /api/v2/write?bucket=NAMESPACE&precision=ns|us|ms|s} (InfluxDB 2) and
 * {@code POST /write?db=NAMESPACE&precision=n|u|ms|s|m|h} (InfluxDB 1, QuestDB), each request
 * appended by {@link LineProtocolWriter} (with a hot tier, answered once in its log; {@code
 * sync=commit} answers once committed); {@code /ping} and {@code /health} for clients that check
 * the server first. Logins are the PostgreSQL server's {@link Credentials}: {@code Authorization:
 * Token PASSWORD} (or {@code Token USER:PASSWORD}), {@code Bearer}, HTTP Basic, or v1's {@code u}
 * and {@code p} parameters.
 *
 * <p>Answers follow InfluxDB, each with a JSON {@code code} and {@code message}: 204 when written;
 * 400 naming the line and field when refused (nothing of the request written); 401; 404; 405; 413
 * for a body over {@link Limits#maxBodyBytes}; 429 with {@code Retry-After} for an address that
 * keeps guessing passwords; 503 (with {@code Retry-After}) when the server is overloaded, holds too
 * much request data, has a commit conflict or is stopping, so the client sends the request again;
 * 500 for anything unexpected, which the server logs.
 *
 * <p>Each request has a thread of its own from the moment its first byte arrives (up to {@link
 * Limits#requestThreads}), and deadlines counted from that byte: a client that sends its headers or
 * its body slowly is cut off when they pass, and holds only its own thread until then, so slow
 * clients cannot keep others waiting. The deadlines are this server's own (no JVM-wide setting).
 */
public final class LineProtocolServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(LineProtocolServer.class.getName());

  /**
   * What one server allows: {@code requestThreads} requests read or handled at once (a request
   * beyond them is answered 503 by a few spare threads), {@code bytesInFlight} bytes of request
   * bodies held at once by all requests (beyond it a request is answered 503, so many large
   * requests cannot exhaust the heap), bodies of at most {@code maxBodyBytes} after decompression
   * (413), the headers within {@code headerDeadline} of a request's first byte and its body within
   * {@code requestDeadline} of it. The answer, too, must be taken by the client within {@code
   * headerDeadline}.
   */
  record Limits(
      int requestThreads,
      int bytesInFlight,
      int maxBodyBytes,
      Duration headerDeadline,
      Duration requestDeadline) {
    /**
     * 1024 requests at once (most of them wait for a commit, which takes every request queued
     * behind the one running: more requests in flight make bigger commits, not more CPU work), 512
     * MiB in flight, 256 MiB bodies, headers within 10 seconds and the request within 2 minutes.
     */
    static final Limits DEFAULT =
        new Limits(1024, 512 << 20, 256 << 20, Duration.ofSeconds(10), Duration.ofSeconds(120));

    Limits {
      requireNonNull(headerDeadline, "headerDeadline is null");
      requireNonNull(requestDeadline, "requestDeadline is null");
      if (requestThreads < 1 || bytesInFlight < 1024 || maxBodyBytes < 1) {
        throw new IllegalArgumentException(
            "Limits must allow a request: "
                + requestThreads
                + " threads, "
                + bytesInFlight
                + " bytes in flight, bodies of "
                + maxBodyBytes
                + " bytes");
      }
    }

    Limits withRequestThreads(int threads) {
      return new Limits(threads, bytesInFlight, maxBodyBytes, headerDeadline, requestDeadline);
    }

    Limits withBytesInFlight(int bytes) {
      return new Limits(requestThreads, bytes, maxBodyBytes, headerDeadline, requestDeadline);
    }

    Limits withMaxBodyBytes(int bytes) {
      return new Limits(requestThreads, bytesInFlight, bytes, headerDeadline, requestDeadline);
    }

    Limits withDeadlines(Duration headers, Duration request) {
      return new Limits(requestThreads, bytesInFlight, maxBodyBytes, headers, request);
    }
  }

  /** Where Prometheus remote write goes when the request names no {@code db}. */
  static final String PROMETHEUS_NAMESPACE = "prometheus";

  /** Where OpenTelemetry metrics go when the request names no {@code db}. */
  static final String OTLP_NAMESPACE = "otel";

  private final HttpServer http;
  private final Limits limits;

  /** Cuts slow clients off: each request sets a deadline or two and mostly cancels them. */
  private final ScheduledExecutorService timers = ServerThreads.timer("timelake-http-timer");

  private final LineProtocolRequestThreads threads;

  /** Guards {@link #exchanges}, and is notified when the last one ends. */
  private final Object exchangesLock = new Object();

  /** How many exchanges the request threads have taken and not finished. */
  private int exchanges;

  private final LineProtocolBodies bodies;
  private final BufferAllocator allocator = new RootAllocator();
  private final Credentials credentials;
  private final LineProtocolWriter writer;
  private final Clock clock = Clock.systemUTC();

  private final Console console;

  /** What clients wrote and what was refused, for the web console's ingest view. */
  private final IngestMonitor monitor;

  private LineProtocolServer(
      HttpServer http,
      Lake lake,
      Credentials credentials,
      Limits limits,
      Optional<HotTierSettings> hotTier)
      throws IOException {
    this.http = http;
    this.monitor = IngestMonitor.of(lake);
    this.console =
        new Console(
            lake,
            credentials,
            http instanceof com.sun.net.httpserver.HttpsServer,
            Console.confined(lake),
            Clock.systemUTC());
    this.limits = limits;
    this.credentials = credentials;
    this.bodies = new LineProtocolBodies(limits.maxBodyBytes(), limits.bytesInFlight());
    this.writer = new LineProtocolWriter(lake, allocator, hotTier);
    this.threads =
        new LineProtocolRequestThreads(limits.requestThreads(), limits.headerDeadline(), timers);
    http.setExecutor(this::dispatch);
    http.createContext("/", this::handle);
  }

  /** Hands an exchange to the request threads, counted until it ends. */
  private void dispatch(Runnable exchange) {
    synchronized (exchangesLock) {
      exchanges++;
    }
    try {
      threads.execute(
          () -> {
            try {
              exchange.run();
            } finally {
              ended();
            }
          });
    } catch (RuntimeException | Error e) {
      ended();
      throw e;
    }
  }

  private void ended() {
    synchronized (exchangesLock) {
      if (--exchanges == 0) {
        exchangesLock.notifyAll();
      }
    }
  }

  /** Waits until no exchange is in progress, for at most {@code timeout}. */
  private void awaitExchanges(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (exchangesLock) {
      try {
        for (long left = timeout.toNanos(); exchanges > 0 && left > 0; ) {
          TimeUnit.NANOSECONDS.timedWait(exchangesLock, left);
          left = deadline - System.nanoTime();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
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
    return start(lake, address, credentials, tls, Limits.DEFAULT);
  }

  /** Like the others, within {@code limits}. */
  static LineProtocolServer start(
      Lake lake,
      InetSocketAddress address,
      Credentials credentials,
      Optional<Tls> tls,
      Limits limits)
      throws IOException {
    return start(lake, address, credentials, tls, limits, Optional.empty());
  }

  /**
   * Like {@link #start(Lake, InetSocketAddress, Credentials, Optional)}, with a hot tier when
   * {@code hotTier} is given: writes are answered once in its log in the lake's work folder and
   * committed by {@code hotTier}'s rules; what an earlier server left in the log is committed
   * first.
   *
   * @throws IOException when the address cannot be bound or the log cannot be read or begun
   */
  public static LineProtocolServer start(
      Lake lake,
      InetSocketAddress address,
      Credentials credentials,
      Optional<Tls> tls,
      Optional<HotTierSettings> hotTier)
      throws IOException {
    return start(lake, address, credentials, tls, Limits.DEFAULT, hotTier);
  }

  static LineProtocolServer start(
      Lake lake,
      InetSocketAddress address,
      Credentials credentials,
      Optional<Tls> tls,
      Limits limits,
      Optional<HotTierSettings> hotTier)
      throws IOException {
    if (credentials == null) {
      throw new IllegalArgumentException(
          "A server admits nobody without a password: set " + Credentials.PASSWORD_VARIABLE);
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
    LineProtocolServer server;
    try {
      server = new LineProtocolServer(http, lake, credentials, limits, hotTier);
    } catch (IOException | RuntimeException e) {
      http.stop(0);
      throw e;
    }
    http.start();
    return server;
  }

  /** Lets the web console run {@code statements} at once, each waiting {@code wait} for a turn. */
  void consoleStatements(int statements, Duration wait) {
    console.limitStatements(statements, wait);
  }

  /**
   * Cancels a web-console statement that runs longer than {@code timeout} (zero: no limit), as the
   * PostgreSQL server's {@code --statement-timeout} does; returns this server.
   */
  public LineProtocolServer consoleStatementTimeout(Duration timeout) {
    console.statementTimeout(new StatementTimeout(timeout, timers));
    return this;
  }

  /** The port the server listens on. */
  public int port() {
    return http.getAddress().getPort();
  }

  /**
   * Answers one request. An {@link IOException} (the connection failed, or a deadline passed and
   * closed it) leaves this method, so the JDK's server closes and forgets the connection; anything
   * else is answered, and the exchange closed only after the answer.
   */
  private void handle(HttpExchange exchange) throws IOException {
    LineProtocolDeadline deadline = LineProtocolDeadline.current();
    try {
      // The headers are in: the body may take until the request's deadline.
      deadline.read(limits.requestDeadline());
      if (deadline.isSpare()) {
        String busy = "The server is handling " + limits.requestThreads() + " requests already";
        LineProtocolAnswer.error(503, "unavailable", busy + "; send it again").send(exchange);
        return;
      }
      route(exchange, deadline);
    } catch (RuntimeException | OutOfMemoryError e) {
      String incident = logged(exchange, e);
      deadline.answer(limits.headerDeadline());
      if (exchange.getResponseCode() == -1) {
        LineProtocolAnswer.error(
                500,
                "internal error",
                "The server failed on this request unexpectedly (incident "
                    + incident
                    + " in its log); some of its tables may have been written, send it again to"
                    + " complete it")
            .send(exchange);
      }
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange, LineProtocolDeadline deadline) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    Map<String, String> query;
    try {
      query = query(exchange.getRequestURI().getRawQuery());
    } catch (IllegalArgumentException e) {
      LineProtocolAnswer.error(
              400, "invalid", "Malformed query string: a '%' must start two hexadecimal digits")
          .send(exchange);
      return;
    }
    if (Console.serves(path)) {
      console.handle(exchange, deadline::work);
      return;
    }
    switch (path) {
      case "/ping" -> {
        exchange.getResponseHeaders().set("X-Influxdb-Version", "Timelake");
        exchange.sendResponseHeaders(204, -1);
      }
      case "/health" ->
          new LineProtocolAnswer(200, "{\"status\":\"pass\",\"name\":\"timelake\"}").send(exchange);
      case "/api/v2/write", "/write", "/api/v1/write", "/v1/metrics" -> {
        if (!method.equals("POST")) {
          LineProtocolAnswer.error(405, "method not allowed", method + " " + path + "; use POST")
              .send(exchange);
          return;
        }
        Optional<LineProtocolRequest.Format> format = format(path, exchange);
        if (format.isEmpty()) {
          return; // refused as an unsupported media type
        }
        Optional<dev.timelake.ClientAccess> access = admitted(exchange, query);
        if (access.isPresent()) {
          String namespace = path.equals("/api/v2/write") ? "bucket" : "db";
          write(exchange, query, namespace, format.get(), deadline, access.get());
        }
      }
      default -> LineProtocolAnswer.error(404, "not found", "No endpoint " + path).send(exchange);
    }
  }

  /**
   * What a write path's body is written in; for OTLP metrics from its Content-Type (protobuf when
   * none), empty (and 415 answered) for another type.
   */
  private static Optional<LineProtocolRequest.Format> format(String path, HttpExchange exchange)
      throws IOException {
    switch (path) {
      case "/api/v1/write" -> {
        return Optional.of(LineProtocolRequest.Format.PROMETHEUS_REMOTE_WRITE);
      }
      case "/v1/metrics" -> {
        String type =
            Optional.ofNullable(exchange.getRequestHeaders().getFirst("Content-Type"))
                .orElse("application/x-protobuf")
                .toLowerCase(java.util.Locale.ROOT);
        if (type.startsWith("application/x-protobuf")) {
          return Optional.of(LineProtocolRequest.Format.OTLP_PROTOBUF);
        }
        if (type.startsWith("application/json")) {
          return Optional.of(LineProtocolRequest.Format.OTLP_JSON);
        }
        LineProtocolAnswer.error(
                415,
                "unsupported media type",
                "OTLP metrics are application/x-protobuf or application/json, not " + type)
            .send(exchange);
        return Optional.empty();
      }
      default -> {
        return Optional.of(LineProtocolRequest.Format.LINE_PROTOCOL);
      }
    }
  }

  /**
   * The user the request's credentials admit, who may write (the write or admin role); when not,
   * the refusal is sent.
   */
  private Optional<dev.timelake.ClientAccess> admitted(
      HttpExchange exchange, Map<String, String> query) throws IOException {
    InetAddress client = exchange.getRemoteAddress().getAddress();
    HttpAuth.Login login = HttpAuth.login(credentials, exchange, query, client);
    if (login instanceof HttpAuth.Login.Throttled throttled) {
      exchange
          .getResponseHeaders()
          .set("Retry-After", Long.toString(Math.max(1, throttled.left().toSeconds() + 1)));
      refused(429, "too many requests", throttled.message()).send(exchange);
      return Optional.empty();
    }
    if (!(login instanceof HttpAuth.Login.Admitted admitted)) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"timelake\"");
      refused(
              401,
              "unauthorized",
              "Wrong or missing credentials from " + exchange.getRemoteAddress().getAddress())
          .send(exchange);
      return Optional.empty();
    }
    return Optional.of(admitted.access());
  }

  private void write(
      HttpExchange exchange,
      Map<String, String> query,
      String namespaceParameter,
      LineProtocolRequest.Format format,
      LineProtocolDeadline deadline,
      dev.timelake.ClientAccess access)
      throws IOException {
    String namespace =
        Optional.ofNullable(query.get(namespaceParameter))
            .filter(name -> !name.isBlank())
            .orElse(
                format == LineProtocolRequest.Format.PROMETHEUS_REMOTE_WRITE
                    ? PROMETHEUS_NAMESPACE
                    : format.isOtlp() ? OTLP_NAMESPACE : TableName.DEFAULT_NAMESPACE);
    LineProtocol.Precision precision;
    try {
      precision = LineProtocol.Precision.parse(query.get("precision"));
    } catch (IllegalArgumentException e) {
      LineProtocolAnswer.error(400, "invalid", e.getMessage()).send(exchange);
      return;
    }
    String sync = query.getOrDefault("sync", "tier");
    if (!sync.equals("tier") && !sync.equals("commit")) {
      LineProtocolAnswer.error(
              400,
              "invalid",
              "sync must be 'commit' (answer once committed) or 'tier' (once in the hot tier's"
                  + " log, the default), not '"
                  + sync
                  + "'")
          .send(exchange);
      return;
    }
    if (declaredLength(exchange) > limits.maxBodyBytes()) {
      // Refused before a byte of the body is read.
      tooLarge().send(exchange);
      return;
    }
    try (LineProtocolBodies.Held held = bodies.hold()) {
      Optional<byte[]> body;
      try {
        body = bodies.read(exchange, held);
      } catch (java.util.zip.ZipException e) {
        LineProtocolAnswer.error(400, "invalid", "The body is not gzip data, or corrupt gzip data")
            .send(exchange);
        return;
      } catch (java.io.EOFException e) {
        LineProtocolAnswer.error(400, "invalid", "The gzip body ends before its compressed data")
            .send(exchange);
        return;
      } catch (LineProtocolBodies.Busy e) {
        LineProtocolAnswer.error(
                503,
                "unavailable",
                "The server holds too much request data right now; send it again")
            .send(exchange);
        return;
      }
      if (body.isEmpty()) {
        tooLarge().send(exchange);
        return;
      }
      deadline.work();
      LineProtocolAnswer answer =
          write(
              access,
              new LineProtocolRequest(
                  namespace, format, precision, micros(clock.instant()), body.get()),
              sync.equals("commit"));
      deadline.answer(limits.headerDeadline());
      answer.send(exchange);
    }
  }

  /**
   * Parses and writes {@code body}; the answer once its points are committed or refused. What no
   * answer here expects (a failure inside the engine, a bug) is thrown, to be answered 500.
   */
  private LineProtocolAnswer write(
      dev.timelake.ClientAccess access, LineProtocolRequest request, boolean commitNow) {
    String namespace = request.namespace();
    byte[] body = request.body();
    long now = request.receivedMicros();
    try {
      access.require(
          dev.timelake.Role.WRITE,
          namespace,
          "write " + source(request.format()) + " into namespace " + namespace);
      if (!commitNow) {
        writer.hotTier().ifPresent(HotTier::awaitRoomToParse);
      }
      List<LineProtocol.Point> points = request.points();
      if (!points.isEmpty()) {
        // A resent body is the same points, unless some lines take the time they arrive.
        boolean untimed = points.stream().anyMatch(point -> point.micros() == now);
        Optional<String> requestKey =
            untimed
                ? Optional.empty()
                : Optional.of(
                    request.format()
                        + "\u0000"
                        + request.precision()
                        + "\u0000"
                        + java.util.HexFormat.of().formatHex(sha256(body)));
        LineProtocolAnswer written =
            LineProtocolAnswer.written(
                writer.write(access, request, points, requestKey, commitNow));
        points.stream()
            .collect(
                java.util.stream.Collectors.groupingBy(
                    LineProtocol.Point::measurement, java.util.stream.Collectors.counting()))
            .forEach(
                (measurement, count) ->
                    monitor.written(
                        new TableName(namespace, measurement), count, source(request.format())));
        return written(request.format(), written);
      }
      return written(request.format(), LineProtocolAnswer.WRITTEN);
    } catch (LineProtocol.ParseException
        | PrometheusRemoteWrite.Malformed
        | OtlpMetrics.Malformed
        | LineProtocolWriter.Rejected e) {
      return refused(400, "invalid", e.getMessage());
    } catch (dev.timelake.AccessDeniedException e) {
      return refused(403, "forbidden", e.getMessage());
    } catch (LineProtocolWriter.Stopping e) {
      return refused(503, "unavailable", e.getMessage());
    } catch (TimelakeException e) {
      // The client's mistake is a 400 (not to be resent); a conflict or a failed commit is the
      // server's, and a client such as Telegraf sends the request again after a 5xx.
      return switch (e.code()) {
        case VALIDATION,
            NOT_FOUND,
            ALREADY_EXISTS,
            DUPLICATE_INDEX_INTERVAL,
            INDEX_INTERVAL_OVERLAP ->
            refused(400, "invalid", e.getMessage());
        case CONFLICT, COMMIT_FAILED, COMMIT_STATE_UNKNOWN ->
            refused(503, "unavailable", e.getMessage());
        case QUERY_FAILED, INTERNAL -> throw e;
      };
    }
  }

  /** The answer to a written request: OTLP clients expect 200 and an export response. */
  private static LineProtocolAnswer written(
      LineProtocolRequest.Format format, LineProtocolAnswer answer) {
    return switch (format) {
      case OTLP_PROTOBUF -> LineProtocolAnswer.OTLP_PROTOBUF_WRITTEN;
      case OTLP_JSON -> LineProtocolAnswer.OTLP_JSON_WRITTEN;
      default -> answer;
    };
  }

  /** What the ingest view and refusals call a format. */
  private static String source(LineProtocolRequest.Format format) {
    return switch (format) {
      case LINE_PROTOCOL -> "line protocol";
      case PROMETHEUS_REMOTE_WRITE -> "Prometheus remote write";
      case OTLP_PROTOBUF, OTLP_JSON -> "OpenTelemetry metrics";
      case ARROW_IPC -> "PostgreSQL";
    };
  }

  /** An error answer, counted among the ingest view's refusals. */
  private LineProtocolAnswer refused(int status, String code, String message) {
    monitor.refused("line protocol", message);
    return LineProtocolAnswer.error(status, code, message);
  }

  private LineProtocolAnswer tooLarge() {
    return LineProtocolAnswer.error(
        413,
        "request too large",
        "The body is over "
            + limits.maxBodyBytes()
            + " bytes (after decompression); send fewer lines per request");
  }

  /** The Content-Length the client sent; -1 without one (or a chunked body). */
  private static long declaredLength(HttpExchange exchange) {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    try {
      return length == null ? -1 : Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1; // the JDK's server refuses such a request before it gets here
    }
  }

  /** Logs what nobody expected under a new incident id, for the answer to name; the id. */
  private static String logged(HttpExchange exchange, Throwable e) {
    String incident = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
    LOG.log(
        System.Logger.Level.ERROR,
        "Line protocol: "
            + exchange.getRequestMethod()
            + " "
            + exchange.getRequestURI().getPath()
            + " failed unexpectedly (incident "
            + incident
            + ")",
        e);
    return incident;
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

  /**
   * Stops listening; requests in flight get up to a second to finish. (Java 17's {@code
   * HttpServer.stop(1)} waits the whole second even when no request is in flight, so the server
   * waits for its own count of them and then stops at once.)
   */
  @Override
  public void close() {
    awaitExchanges(Duration.ofSeconds(1));
    http.stop(0);
    threads.close();
    timers.shutdownNow();
    console.close();
    writer.close();
    allocator.close();
  }
}
