package dev.timelake.server;

import static java.util.Objects.requireNonNull;

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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
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

  private final HttpServer http;
  private final Limits limits;
  private final ScheduledExecutorService timers = timers();
  private final RequestThreads threads;
  private final Semaphore inFlight;
  private final BufferAllocator allocator = new RootAllocator();
  private final Credentials credentials;
  private final LineProtocolWriter writer;
  private final Clock clock = Clock.systemUTC();

  private LineProtocolServer(HttpServer http, Lake lake, Credentials credentials, Limits limits) {
    this.http = http;
    this.limits = limits;
    this.credentials = credentials;
    this.inFlight = new Semaphore(limits.bytesInFlight() >> 10);
    this.writer = new LineProtocolWriter(lake, allocator);
    this.threads = new RequestThreads(limits.requestThreads(), limits.headerDeadline(), timers);
    http.setExecutor(threads);
    http.createContext("/", this::handle);
  }

  /**
   * The one thread that cuts slow clients off. Each request sets a deadline or two and cancels
   * them; cancelled ones leave the queue at once, rather than minutes later when they were due.
   */
  private static ScheduledExecutorService timers() {
    java.util.concurrent.ScheduledThreadPoolExecutor timers =
        new java.util.concurrent.ScheduledThreadPoolExecutor(
            1, LineProtocolWriter.daemons("timelake-http-timer"));
    timers.setRemoveOnCancelPolicy(true);
    return timers;
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
    LineProtocolServer server = new LineProtocolServer(http, lake, credentials, limits);
    http.start();
    return server;
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
    Deadline deadline = Deadline.current();
    try {
      // The headers are in: the body may take until the request's deadline.
      deadline.read(limits.requestDeadline());
      if (deadline.isSpare()) {
        String busy = "The server is handling " + limits.requestThreads() + " requests already";
        new Answer(503, error("unavailable", busy + "; send it again")).send(exchange);
        return;
      }
      route(exchange, deadline);
    } catch (RuntimeException | OutOfMemoryError e) {
      String incident = logged(exchange, e);
      deadline.answer(limits.headerDeadline());
      if (exchange.getResponseCode() == -1) {
        respond(
            exchange,
            500,
            error(
                "internal error",
                "The server failed on this request unexpectedly (incident "
                    + incident
                    + " in its log); some of its tables may have been written, send it again to"
                    + " complete it"));
      }
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange, Deadline deadline) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    Map<String, String> query;
    try {
      query = query(exchange.getRequestURI().getRawQuery());
    } catch (IllegalArgumentException e) {
      respond(
          exchange,
          400,
          error("invalid", "Malformed query string: a '%' must start two hexadecimal digits"));
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
        } else {
          Optional<dev.timelake.ClientAccess> access = admitted(exchange, query);
          if (access.isPresent()) {
            write(exchange, query, path.equals("/write"), deadline, access.get());
          }
        }
      }
      default -> respond(exchange, 404, error("not found", "No endpoint " + path));
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
      respond(exchange, 429, error("too many requests", throttled.message()));
      return Optional.empty();
    }
    if (!(login instanceof HttpAuth.Login.Admitted admitted)) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"timelake\"");
      respond(exchange, 401, error("unauthorized", "Wrong or missing credentials"));
      return Optional.empty();
    }
    return Optional.of(admitted.access());
  }

  private void write(
      HttpExchange exchange,
      Map<String, String> query,
      boolean v1,
      Deadline deadline,
      dev.timelake.ClientAccess access)
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
    if (declaredLength(exchange) > limits.maxBodyBytes()) {
      // Refused before a byte of the body is read.
      respond(exchange, 413, tooLarge());
      return;
    }
    Held held = new Held();
    try {
      Optional<byte[]> body;
      try {
        body = body(exchange, held);
      } catch (java.util.zip.ZipException e) {
        respond(exchange, 400, error("invalid", "The body is not gzip data, or corrupt gzip data"));
        return;
      } catch (java.io.EOFException e) {
        respond(exchange, 400, error("invalid", "The gzip body ends before its compressed data"));
        return;
      } catch (Busy e) {
        new Answer(
                503,
                error(
                    "unavailable",
                    "The server holds too much request data right now; send it again"))
            .send(exchange);
        return;
      }
      if (body.isEmpty()) {
        respond(exchange, 413, tooLarge());
        return;
      }
      deadline.work();
      Answer answer = write(access, namespace, precision, body.get());
      deadline.answer(limits.headerDeadline());
      answer.send(exchange);
    } finally {
      inFlight.release(held.kib);
    }
  }

  /** How a write request is answered: 204, or a status with an error body. */
  private record Answer(int status, String body) {
    static final Answer WRITTEN = new Answer(204, "");

    void send(HttpExchange exchange) throws IOException {
      if (status == 204) {
        exchange.sendResponseHeaders(204, -1);
        return;
      }
      if (status == 503) {
        exchange.getResponseHeaders().set("Retry-After", "1");
      }
      respond(exchange, status, body);
    }
  }

  /**
   * Parses and writes {@code body}; the answer once its points are committed or refused. What no
   * answer here expects (a failure inside the engine, a bug) is thrown, to be answered 500.
   */
  private Answer write(
      dev.timelake.ClientAccess access,
      String namespace,
      LineProtocol.Precision precision,
      byte[] body) {
    try {
      access.require(
          dev.timelake.Role.WRITE, namespace, "write line protocol into namespace " + namespace);
      long now = micros(clock.instant());
      List<LineProtocol.Point> points = LineProtocol.parse(body, precision, now);
      if (!points.isEmpty()) {
        // A resent body is the same points, unless some lines take the time they arrive.
        boolean untimed = points.stream().anyMatch(point -> point.micros() == now);
        Optional<String> requestKey =
            untimed
                ? Optional.empty()
                : Optional.of(
                    precision + "\u0000" + java.util.HexFormat.of().formatHex(sha256(body)));
        writer.write(access, namespace, points, requestKey);
      }
      return Answer.WRITTEN;
    } catch (LineProtocol.ParseException | LineProtocolWriter.Rejected e) {
      return new Answer(400, error("invalid", e.getMessage()));
    } catch (dev.timelake.AccessDeniedException e) {
      return new Answer(403, error("forbidden", e.getMessage()));
    } catch (LineProtocolWriter.Stopping e) {
      return new Answer(503, error("unavailable", e.getMessage()));
    } catch (TimelakeException e) {
      // The client's mistake is a 400 (not to be resent); a conflict or a failed commit is the
      // server's, and a client such as Telegraf sends the request again after a 5xx.
      return switch (e.code()) {
        case VALIDATION,
            NOT_FOUND,
            ALREADY_EXISTS,
            DUPLICATE_INDEX_INTERVAL,
            INDEX_INTERVAL_OVERLAP ->
            new Answer(400, error("invalid", e.getMessage()));
        case CONFLICT, COMMIT_FAILED, COMMIT_STATE_UNKNOWN ->
            new Answer(503, error("unavailable", e.getMessage()));
        case QUERY_FAILED, INTERNAL -> throw e;
      };
    }
  }

  private String tooLarge() {
    return error(
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

  /** The KiB of the in-flight budget one request holds. */
  private static final class Held {
    int kib;
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
      if (out.size() + read > limits.maxBodyBytes()) {
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

  /**
   * The threads of one server. The JDK's server hands a connection over as soon as a request's
   * first byte arrives, and the thread it runs on reads the headers itself: so each request gets a
   * thread of its own (up to a limit) and a {@link Deadline} from that moment, and a client that
   * sends slowly holds only its own thread until the deadline cuts it off. A request beyond the
   * limit runs on one of a few spare threads, only to be answered 503; beyond those, the JDK's
   * server closes its connection.
   */
  static final class RequestThreads implements java.util.concurrent.Executor, AutoCloseable {
    static final int SPARE_THREADS = 4;

    private final java.util.concurrent.ThreadPoolExecutor threads;
    private final java.util.concurrent.ThreadPoolExecutor spares;
    private final Duration headerDeadline;
    private final ScheduledExecutorService timers;

    RequestThreads(int limit, Duration headerDeadline, ScheduledExecutorService timers) {
      this.threads = pool(limit, "timelake-http");
      this.spares = pool(SPARE_THREADS, "timelake-http-spare");
      this.headerDeadline = headerDeadline;
      this.timers = timers;
    }

    /** Up to {@code size} threads, started as needed and none kept waiting in a queue. */
    private static java.util.concurrent.ThreadPoolExecutor pool(int size, String name) {
      return new java.util.concurrent.ThreadPoolExecutor(
          0,
          size,
          30,
          java.util.concurrent.TimeUnit.SECONDS,
          new java.util.concurrent.SynchronousQueue<>(),
          LineProtocolWriter.daemons(name));
    }

    @Override
    public void execute(Runnable exchange) {
      long firstByte = System.nanoTime();
      try {
        threads.execute(() -> run(exchange, firstByte, false));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // When the spares are busy too, this throws, and the JDK's server closes the connection.
        spares.execute(() -> run(exchange, firstByte, true));
      }
    }

    private void run(Runnable exchange, long firstByte, boolean spare) {
      Deadline deadline = new Deadline(firstByte, spare, timers);
      Deadline.CURRENT.set(deadline);
      try {
        deadline.start(headerDeadline);
        exchange.run();
      } finally {
        Deadline.CURRENT.remove();
        deadline.finish();
      }
    }

    @Override
    public void close() {
      threads.shutdownNow();
      spares.shutdownNow();
    }
  }

  /**
   * The deadlines of one request, counted from its first byte, on the thread handling it. While the
   * thread reads from the client (the headers, the body) or writes the answer, a deadline that
   * passes interrupts the thread, which closes the connection's channel and ends a blocked read or
   * write with an {@link IOException}; while it works (parses, writes to the lake) nothing
   * interrupts it. Only the request's own thread calls its methods but {@link #fire}.
   */
  static final class Deadline {
    static final ThreadLocal<Deadline> CURRENT = new ThreadLocal<>();

    private final Thread thread = Thread.currentThread();
    private final long firstByte;
    private final boolean spare;
    private final ScheduledExecutorService timers;
    // Guarded by this: the timer thread interrupts only while the request thread reads.
    private java.util.concurrent.ScheduledFuture<?> timer;
    private long generation;
    private boolean reading;
    private boolean expired;
    private boolean finished;

    Deadline(long firstByte, boolean spare, ScheduledExecutorService timers) {
      this.firstByte = firstByte;
      this.spare = spare;
      this.timers = timers;
    }

    /** The deadline of the request running on this thread. */
    static Deadline current() {
      Deadline deadline = CURRENT.get();
      if (deadline == null) {
        throw new IllegalStateException("Not a request thread of a line-protocol server");
      }
      return deadline;
    }

    /** Whether the request runs on a spare thread, beyond the server's limit. */
    boolean isSpare() {
      return spare;
    }

    /**
     * Reads the headers until {@code afterFirstByte} after the request's first byte. When that has
     * passed already, the thread is interrupted at once: the exchange's first read fails, and the
     * JDK's server closes the connection.
     */
    synchronized void start(Duration afterFirstByte) {
      try {
        read(afterFirstByte);
      } catch (IOException e) {
        thread.interrupt();
      }
    }

    /**
     * Reads from the client until {@code afterFirstByte} after the request's first byte.
     *
     * @throws IOException when that time has passed, or an earlier deadline did
     */
    synchronized void read(Duration afterFirstByte) throws IOException {
      readUntil(firstByte + afterFirstByte.toNanos());
    }

    /**
     * Writes the answer, until {@code fromNow} from now.
     *
     * @throws IOException when an earlier deadline passed
     */
    synchronized void answer(Duration fromNow) throws IOException {
      readUntil(System.nanoTime() + fromNow.toNanos());
    }

    /**
     * Works without any deadline.
     *
     * @throws IOException when an earlier deadline passed (the connection is closed or closing)
     */
    synchronized void work() throws IOException {
      requireOpen();
      stopTimer();
      reading = false;
    }

    private void readUntil(long nanoTime) throws IOException {
      requireOpen();
      stopTimer();
      reading = true;
      long delay = nanoTime - System.nanoTime();
      if (delay <= 0) {
        expired = true;
        throw new IOException("The request's deadline has passed");
      }
      long expected = generation;
      try {
        timer =
            timers.schedule(() -> fire(expected), delay, java.util.concurrent.TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        expired = true;
        throw new IOException("The server is stopping", e);
      }
    }

    private void requireOpen() throws IOException {
      if (expired) {
        throw new IOException("The request's deadline has passed");
      }
    }

    private void stopTimer() {
      generation++;
      if (timer != null) {
        timer.cancel(false);
        timer = null;
      }
    }

    /** The timer: cuts the client off when the thread still reads under this deadline. */
    private synchronized void fire(long expected) {
      if (expected == generation && reading && !expired && !finished) {
        expired = true;
        thread.interrupt();
      }
    }

    /** The request is done: no interrupt comes after this, and none is left pending. */
    synchronized void finish() {
      stopTimer();
      finished = true;
      Thread.interrupted();
    }
  }

  /** Stops listening; requests in flight get up to a second to finish. */
  @Override
  public void close() {
    http.stop(1);
    threads.close();
    timers.shutdownNow();
    writer.close();
    allocator.close();
  }
}
