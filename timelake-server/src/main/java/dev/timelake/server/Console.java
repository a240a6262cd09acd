package dev.timelake.server;

import static dev.timelake.server.ConsoleJson.body;
import static dev.timelake.server.ConsoleJson.error;
import static dev.timelake.server.ConsoleJson.instant;
import static dev.timelake.server.ConsoleJson.json;
import static dev.timelake.server.ConsoleJson.send;
import static dev.timelake.server.ConsoleJson.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.timelake.AccessDeniedException;
import dev.timelake.Lake;
import dev.timelake.QueryPlan;
import dev.timelake.QueryResult;
import dev.timelake.RollupRoute;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The web console {@code timelake serve} answers on its HTTP port: a page under {@code /console/}
 * and its JSON API under {@code /console/api/}, for the users of the PostgreSQL server with their
 * passwords. A login sets a session cookie (HttpOnly, SameSite=Strict, Secure over TLS); every
 * other state-changing request carries the login's CSRF token in a header and, when the browser
 * sends one, an Origin of this server. SQL runs in the login's own Timelake session under the
 * user's access, so the console may do exactly what the user may do over PostgreSQL.
 */
final class Console implements AutoCloseable {
  static final String COOKIE = "timelake_console";
  static final String CSRF_HEADER = "X-Timelake-Csrf";

  /** The largest request body the console reads: a statement, not data. */
  static final int MAX_BODY = 256 << 10;

  /**
   * At most this many rows of a result go to the page with its answer (enough for a chart); the
   * page reads further rows a page at a time from the result the server keeps open.
   */
  static final int FIRST_ROWS = 10_000;

  private static final Map<String, String> ASSETS =
      Map.of(
          "/console/", "index.html",
          "/console/console.js", "console.js",
          "/console/console.css", "console.css");

  private final Credentials credentials;
  private final ConsoleSessions sessions;
  private final ConsoleLakeViews views;
  private final Lake lake;
  private final boolean tls;

  private final boolean runsSql;
  private volatile StatementTimeout timeout = StatementTimeout.none(null);

  /**
   * Console statements running at once (one per login at most), and how long one waits for its
   * turn: the console's users share the engine's cores, and must not hold the HTTP port's threads
   * that line-protocol writes need.
   */
  private volatile java.util.concurrent.Semaphore running =
      new java.util.concurrent.Semaphore(
          Math.max(2, Runtime.getRuntime().availableProcessors()), true);

  private volatile Duration turnWait = Duration.ofSeconds(30);

  /** Statements waiting for their turn; beyond {@link #MAX_WAITING} one is refused at once. */
  private final java.util.concurrent.atomic.AtomicInteger waiting =
      new java.util.concurrent.atomic.AtomicInteger();

  static final int MAX_WAITING = 64;

  /** Lets {@code statements} run at once, each waiting at most {@code wait} for its turn. */
  void limitStatements(int statements, Duration wait) {
    this.running = new java.util.concurrent.Semaphore(statements, true);
    this.turnWait = wait;
  }

  /** Cancels statements that outlast {@code timeout}. */
  void statementTimeout(StatementTimeout timeout) {
    this.timeout = timeout;
  }

  Console(Lake lake, Credentials credentials, boolean tls, boolean runsSql, Clock clock) {
    this.lake = lake;
    this.credentials = credentials;
    this.tls = tls;
    this.runsSql = runsSql;
    this.sessions = new ConsoleSessions(lake, credentials, clock);
    this.views = new ConsoleLakeViews(lake);
  }

  /**
   * Confines {@code lake}'s file access to its warehouse folder, as the PostgreSQL server does, so
   * that the console's SQL cannot read or write other files; false when it cannot be (a warehouse
   * on object storage or a shared catalog), and the console then runs no SQL.
   */
  static boolean confined(Lake lake) {
    try {
      lake.confineFileAccess();
      return true;
    } catch (TimelakeException e) {
      if (e.code() != dev.timelake.ErrorCode.VALIDATION) {
        throw e;
      }
      return false;
    }
  }

  /** True when {@code path} is the console's: {@code /} and everything under {@code /console}. */
  static boolean serves(String path) {
    return path.equals("/") || path.equals("/console") || path.startsWith("/console/");
  }

  /** What the server does once a request's body is read: lifts its read deadline. */
  interface BodyRead {
    void run() throws IOException;
  }

  /** Answers one console request; {@code work} lifts the read deadline once the body is in. */
  void handle(HttpExchange exchange, BodyRead work) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    if (path.equals("/") || path.equals("/console")) {
      exchange.getResponseHeaders().set("Location", "/console/");
      exchange.sendResponseHeaders(302, -1);
      return;
    }
    if (ASSETS.containsKey(path) || VENDOR.containsKey(path)) {
      if (!method.equals("GET")) {
        error(exchange, 405, method + " " + path + "; use GET");
        return;
      }
      asset(exchange, ASSETS.containsKey(path) ? ASSETS.get(path) : VENDOR.get(path));
      return;
    }
    switch (path) {
      case "/console/api/login" -> login(exchange, work);
      case "/console/api/session" -> session(exchange);
      case "/console/api/logout" -> logout(exchange);
      case "/console/api/cancel" -> cancel(exchange);
      case "/console/api/query" -> query(exchange, work);
      case "/console/api/rows" -> rows(exchange, work);
      case "/console/api/csv" -> csv(exchange, work);
      case "/console/api/tables" -> withLogin(exchange, views::tables);
      case "/console/api/ingest" -> withLogin(exchange, views::ingest);
      case "/console/api/table" -> withLogin(exchange, views::table);
      case "/console/api/maintain" -> {
        Optional<Posted> posted = posted(exchange);
        if (posted.isPresent()) {
          views.maintain(exchange, posted.get().login(), posted.get().body(), work);
        }
      }
      default -> error(exchange, 404, "No console page " + path);
    }
  }

  /** CodeMirror's files, from its WebJar: the editor's highlighting and bracket matching. */
  private static final String CODEMIRROR = "/META-INF/resources/webjars/codemirror/5.65.16/";

  private static final Map<String, String> VENDOR =
      Map.of(
          "/console/vendor/codemirror.js", CODEMIRROR + "lib/codemirror.js",
          "/console/vendor/codemirror.css", CODEMIRROR + "lib/codemirror.css",
          "/console/vendor/sql.js", CODEMIRROR + "mode/sql/sql.js",
          "/console/vendor/matchbrackets.js", CODEMIRROR + "addon/edit/matchbrackets.js");

  private void asset(HttpExchange exchange, String name) throws IOException {
    try (InputStream in =
        name.startsWith("/")
            ? Console.class.getResourceAsStream(name)
            : Console.class.getResourceAsStream("console/" + name)) {
      if (in == null) {
        error(exchange, 404, "The console's " + name + " is missing from this build");
        return;
      }
      byte[] bytes = in.readAllBytes();
      String type =
          name.endsWith(".html")
              ? "text/html; charset=utf-8"
              : name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange
          .getResponseHeaders()
          .set(
              "Content-Security-Policy",
              "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action"
                  + " 'self'");
      exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** {@code {"user": …, "password": …}}: checked through the login throttle. */
  private void login(HttpExchange exchange, BodyRead work) throws IOException {
    if (!post(exchange) || !sameOrigin(exchange)) {
      return;
    }
    Optional<JsonNode> body = body(exchange);
    if (body.isEmpty()) {
      return;
    }
    work.run();
    String user = text(body.get(), "user");
    String password = text(body.get(), "password");
    InetAddress client = exchange.getRemoteAddress().getAddress();
    Optional<Duration> blocked = credentials.throttle().reserve(client, user);
    if (blocked.isPresent()) {
      exchange
          .getResponseHeaders()
          .set("Retry-After", Long.toString(Math.max(1, blocked.get().toSeconds() + 1)));
      error(exchange, 429, LoginThrottle.refusal(client, user, blocked.get()));
      return;
    }
    if (user.isEmpty() || !credentials.admits(user, password)) {
      error(exchange, 401, "Wrong user or password");
      return;
    }
    credentials.throttle().succeeded(client, user);
    ConsoleSessions.Login login = sessions.start(user);
    exchange
        .getResponseHeaders()
        .add(
            "Set-Cookie",
            COOKIE
                + "="
                + login.token
                + "; Path=/console; HttpOnly; SameSite=Strict"
                + (tls ? "; Secure" : ""));
    send(exchange, 200, whoAmI(login));
  }

  private void session(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = loggedIn(exchange);
    if (login.isPresent()) {
      send(exchange, 200, whoAmI(login.get()));
    }
  }

  private void logout(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = changing(exchange);
    if (login.isEmpty()) {
      return;
    }
    sessions.end(login.get().token);
    exchange
        .getResponseHeaders()
        .add(
            "Set-Cookie",
            COOKIE
                + "=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0"
                + (tls ? "; Secure" : ""));
    send(exchange, 200, Map.of("loggedOut", true));
  }

  /** Cancels the statement the login runs, if any. */
  private void cancel(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = changing(exchange);
    if (login.isPresent()) {
      login.get().cancel();
      send(exchange, 200, Map.of("cancelled", true));
    }
  }

  /** {@code {"sql": …}}: runs one statement in the login's session. */
  private void query(HttpExchange exchange, BodyRead work) throws IOException {
    Optional<Posted> posted = posted(exchange);
    if (posted.isEmpty()) {
      return;
    }
    ConsoleSessions.Login login = posted.get().login();
    JsonNode body = posted.get().body();
    String sql = text(body, "sql");
    if (!runsSql) {
      error(
          exchange,
          403,
          "This server's console runs no SQL: its warehouse is not a local folder, whose file"
              + " access could be confined; use the PostgreSQL server");
      return;
    }
    if (sql.isBlank()) {
      error(exchange, 400, "The request has no statement: send {\"sql\": \"SELECT …\"}");
      return;
    }
    Optional<ConsoleZoom.Zoomed> zoomed = Optional.empty();
    JsonNode zoom = body.get("zoom");
    if (zoom != null) {
      try {
        zoomed =
            ConsoleZoom.of(
                sql,
                java.time.Instant.parse(zoom.path("from").asText()),
                java.time.Instant.parse(zoom.path("to").asText()),
                Math.min(zoom.path("points").asInt(500), 10_000));
      } catch (java.time.format.DateTimeParseException e) {
        error(exchange, 400, "zoom's from and to must be ISO-8601 instants: " + e.getMessage());
        return;
      }
      if (zoomed.isEmpty()) {
        error(
            exchange,
            400,
            "This statement cannot be zoomed by running it again: it is not one SELECT that"
                + " buckets a time column by an interval (time_bucket(INTERVAL …, time))");
        return;
      }
    }
    String statement = zoomed.map(ConsoleZoom.Zoomed::sql).orElse(sql);
    work.run();
    java.util.concurrent.Semaphore turns = running;
    if (!turn(exchange, turns)) {
      return;
    }
    try {
      run(exchange, login, sql, statement, zoomed);
    } finally {
      turns.release();
    }
  }

  /** Waits for a console statement's turn; false when the console is too busy, and the 503 sent. */
  private boolean turn(HttpExchange exchange, java.util.concurrent.Semaphore turns)
      throws IOException {
    boolean admitted = false;
    try {
      if (waiting.incrementAndGet() <= MAX_WAITING) {
        admitted =
            turns.tryAcquire(turnWait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      waiting.decrementAndGet();
    }
    if (!admitted) {
      exchange.getResponseHeaders().set("Retry-After", "5");
      error(
          exchange,
          503,
          "The console is running as many statements as this server lets it at once; run it"
              + " again in a moment");
    }
    return admitted;
  }

  /** Runs the login's statement and sends its answer or its error. */
  private void run(
      HttpExchange exchange,
      ConsoleSessions.Login login,
      String sql,
      String statement,
      Optional<ConsoleZoom.Zoomed> zoomed)
      throws IOException {
    long started = System.nanoTime();
    Map<String, Object> answer;
    try {
      answer = login.query(session -> answer(login, timeout.run(session, statement), started));
    } catch (AccessDeniedException e) {
      error(exchange, 403, forClient(e.getMessage()));
      return;
    } catch (TimelakeException e) {
      Map<String, Object> failure = new LinkedHashMap<>();
      failure.put("error", forClient(e.getMessage()));
      failure.put("code", e.code().name());
      // A zoomed statement is the console's rewrite: a place in it is not one in the editor.
      if (zoomed.isEmpty()) {
        StatementPosition.of(sql, e).ifPresent(at -> failure.put("position", at.asMap()));
      }
      send(exchange, 400, failure);
      return;
    }
    // A zoomed statement is zoomable again; only others are read once more to find out.
    answer.put(
        "zoomable",
        zoomed.isPresent()
            || ConsoleZoom.of(sql, java.time.Instant.EPOCH, java.time.Instant.ofEpochSecond(1), 1)
                .isPresent());
    zoomed.ifPresent(
        z -> answer.put("zoom", Map.of("sql", z.sql(), "width", z.width().toSeconds() + " s")));
    send(exchange, 200, answer);
  }

  /**
   * A query's answer for the page: columns, types, the first {@link #FIRST_ROWS} rows, the plan;
   * when more rows follow, the login keeps the result open as a cursor the page reads on.
   */
  private static Map<String, Object> answer(
      ConsoleSessions.Login login, QueryResult result, long started) {
    Map<String, Object> answer = new LinkedHashMap<>();
    List<List<Object>> rows = List.of();
    boolean kept = false;
    try {
      if (result.hasRows()) {
        ConsoleCursor cursor = ConsoleCursor.over(result);
        try {
          rows = cursor.rows(0, FIRST_ROWS);
        } catch (IOException e) {
          cursor.close();
          throw new java.io.UncheckedIOException(e);
        } catch (RuntimeException e) {
          cursor.close(); // its spool too, not only the result
          throw e;
        }
        boolean more = cursor.rowsRead() > FIRST_ROWS;
        answer.put("columns", result.columnNames());
        answer.put("types", result.columnTypes());
        answer.put("more", more);
        if (more) {
          answer.put("cursor", login.keep(cursor));
          kept = true;
        } else {
          cursor.close();
        }
      } else {
        answer.put("message", result.message());
      }
      answer.put("rows", rows);
      answer.put("pageRows", ConsoleCursor.PAGE);
      answer.put("elapsedMs", (System.nanoTime() - started) / 1e6);
      answer.put("routed", result.isRouted());
      answer.put("plan", plan(result.plan()));
      answer.put("explanation", result.explanation());
      answer.put("warnings", result.warnings());
      return answer;
    } finally {
      if (!kept) {
        result.close();
      }
    }
  }

  /**
   * A request about the result the login's last query left open: the login, its number, the body.
   */
  private record CursorRequest(ConsoleSessions.Login login, long cursor, JsonNode body) {}

  /**
   * The request's login, cursor number and body, with the read deadline lifted (reading on to a far
   * page or through a whole result is not a slow request); empty when refused, the refusal sent.
   * {@code usage} says how to ask, for a malformed body; with {@code paged}, the body names an
   * offset ≥ 0 too.
   */
  private Optional<CursorRequest> cursorRequest(
      HttpExchange exchange, BodyRead work, boolean paged, String usage) throws IOException {
    Optional<Posted> posted = posted(exchange);
    if (posted.isEmpty()) {
      return Optional.empty();
    }
    JsonNode body = posted.get().body();
    boolean offsetWrong =
        paged && (!body.path("offset").canConvertToLong() || body.path("offset").asLong() < 0);
    if (!body.path("cursor").canConvertToLong() || offsetWrong) {
      error(exchange, 400, usage);
      return Optional.empty();
    }
    work.run();
    return Optional.of(new CursorRequest(posted.get().login(), body.path("cursor").asLong(), body));
  }

  /**
   * {@code {"cursor": n}}: the whole result the login's last query left open, as a CSV download
   * streamed while it is read.
   */
  private void csv(HttpExchange exchange, BodyRead work) throws IOException {
    Optional<CursorRequest> request =
        cursorRequest(
            exchange,
            work,
            false,
            "Ask for a download as {\"cursor\": N} with the cursor a query gave");
    if (request.isEmpty()) {
      return;
    }
    Optional<Boolean> sent;
    try {
      sent =
          request
              .get()
              .login()
              .withCursor(
                  request.get().cursor(),
                  cursor -> {
                    exchange.getResponseHeaders().set("Content-Type", "text/csv; charset=utf-8");
                    exchange
                        .getResponseHeaders()
                        .set("Content-Disposition", "attachment; filename=\"result.csv\"");
                    exchange.sendResponseHeaders(200, 0);
                    OutputStream out =
                        new java.io.BufferedOutputStream(exchange.getResponseBody(), 1 << 16);
                    // Closed only when every row is out: a failure leaves the chunked answer
                    // without its end, so the browser sees a failed download, not a short file.
                    cursor.writeCsv(out);
                    out.close();
                    return true;
                  });
    } catch (RuntimeException e) {
      throw new IOException("The CSV download failed while it was sent: " + e.getMessage(), e);
    }
    if (sent.isEmpty()) {
      resultClosed(exchange);
    }
  }

  private static void resultClosed(HttpExchange exchange) throws IOException {
    error(
        exchange,
        409,
        "That result is closed (another query ran, or it was not read for "
            + ConsoleSessions.CURSOR_IDLE.toMinutes()
            + " minutes): run the query again");
  }

  /**
   * {@code {"cursor": n, "offset": k}}: a page of the result the login's last query left open, read
   * on from the result as far as needed.
   */
  private void rows(HttpExchange exchange, BodyRead work) throws IOException {
    Optional<CursorRequest> request =
        cursorRequest(
            exchange,
            work,
            true,
            "Ask for a page as {\"cursor\": N, \"offset\": K} with the cursor a query's answer"
                + " gave and K ≥ 0");
    if (request.isEmpty()) {
      return;
    }
    long offset = request.get().body().path("offset").asLong();
    Optional<Map<String, Object>> page;
    try {
      page =
          request
              .get()
              .login()
              .withCursor(
                  request.get().cursor(),
                  cursor -> {
                    Map<String, Object> answer = new LinkedHashMap<>();
                    answer.put("offset", offset);
                    answer.put("rows", cursor.rows(offset, ConsoleCursor.PAGE));
                    answer.put("rowsRead", cursor.rowsRead());
                    answer.put("more", cursor.rowsRead() > offset + ConsoleCursor.PAGE);
                    answer.put("cut", cursor.cut());
                    return answer;
                  });
    } catch (TimelakeException e) {
      error(
          exchange,
          400,
          forClient(e.getMessage()) + " (the result is closed: run the query again)");
      return;
    } catch (java.io.UncheckedIOException e) {
      // The spool's temporary file is the server's business, not the client's.
      error(exchange, 500, "Cannot read the result's rows on; run the query again");
      return;
    }
    if (page.isEmpty()) {
      resultClosed(exchange);
      return;
    }
    send(exchange, 200, page.get());
  }

  /** The typed plan's fields the page shows: reads (files, pruning, dedup) and routes. */
  private static Map<String, Object> plan(QueryPlan plan) {
    List<Map<String, Object>> reads = new ArrayList<>();
    for (QueryPlan.TableRead read : plan.reads()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("table", read.table().toString());
      entry.put("filesRead", read.filesRead());
      entry.put("filesBeforePruning", read.filesBeforePruning());
      entry.put("partitionsRead", read.partitionsRead());
      entry.put("partitionsBeforePruning", read.partitionsBeforePruning());
      entry.put("overlapGroups", read.overlapGroups());
      entry.put("filesInOverlapGroups", read.filesInOverlapGroups());
      entry.put("dedup", read.dedup().name());
      reads.add(entry);
    }
    List<Map<String, Object>> routes = new ArrayList<>();
    for (RollupRoute route : plan.routes()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("table", route.table().toString());
      entry.put("rollups", route.rollups().stream().map(Object::toString).toList());
      entry.put("reason", route.reason().orElse(null));
      List<Map<String, Object>> spans = new ArrayList<>();
      for (RollupRoute.Span span : route.spans()) {
        Map<String, Object> part = new LinkedHashMap<>();
        part.put("rollup", span.rollup().map(Object::toString).orElse(null));
        part.put("why", span.reason().map(RollupRoute.RawReason::description).orElse(null));
        part.put("start", instant(span.startMicros()));
        part.put("end", instant(span.endMicros()));
        spans.add(part);
      }
      entry.put("spans", spans);
      routes.add(entry);
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("reads", reads);
    json.put("routes", routes);
    json.put("routing", plan.routing());
    return json;
  }

  private Map<String, Object> whoAmI(ConsoleSessions.Login login) {
    Map<String, Object> me = new LinkedHashMap<>();
    me.put("user", login.access.user());
    me.put("role", login.access.role().name().toLowerCase(java.util.Locale.ROOT));
    me.put("csrf", login.csrf);
    return me;
  }

  /** The login the request's cookie names; when none, a 401 has been sent. */
  private Optional<ConsoleSessions.Login> loggedIn(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = sessions.find(cookie(exchange));
    if (login.isEmpty()) {
      error(exchange, 401, "Not logged in, or the login has ended: log in again");
    }
    return login;
  }

  /**
   * The login of a state-changing request: a POST with the login's cookie, its CSRF token and, when
   * the browser sent one, this server's Origin; otherwise the refusal has been sent.
   */
  private Optional<ConsoleSessions.Login> changing(HttpExchange exchange) throws IOException {
    if (!post(exchange) || !sameOrigin(exchange)) {
      return Optional.empty();
    }
    Optional<ConsoleSessions.Login> login = loggedIn(exchange);
    if (login.isEmpty()) {
      return login;
    }
    String csrf = exchange.getRequestHeaders().getFirst(CSRF_HEADER);
    if (csrf == null
        || !java.security.MessageDigest.isEqual(
            csrf.getBytes(StandardCharsets.UTF_8),
            login.get().csrf.getBytes(StandardCharsets.UTF_8))) {
      error(exchange, 403, "The request lacks this login's " + CSRF_HEADER + " header");
      return Optional.empty();
    }
    return login;
  }

  /** What a view does for a logged-in user. */
  private interface View {
    void answer(HttpExchange exchange, ConsoleSessions.Login login) throws IOException;
  }

  /** Answers with {@code view} when the request's cookie names a live login; else 401. */
  private void withLogin(HttpExchange exchange, View view) throws IOException {
    Optional<ConsoleSessions.Login> login = loggedIn(exchange);
    if (login.isPresent()) {
      view.answer(exchange, login.get());
    }
  }

  /** A state-changing request's login and JSON body. */
  private record Posted(ConsoleSessions.Login login, JsonNode body) {}

  /** The login and body of a state-changing request; when refused, the refusal has been sent. */
  private Optional<Posted> posted(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = changing(exchange);
    if (login.isEmpty()) {
      return Optional.empty();
    }
    return body(exchange).map(body -> new Posted(login.get(), body));
  }

  private static boolean post(HttpExchange exchange) throws IOException {
    if (!exchange.getRequestMethod().equals("POST")) {
      error(
          exchange,
          405,
          exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + "; use POST");
      return false;
    }
    return true;
  }

  /** A cross-site request names another origin than the Host it was sent to. */
  private static boolean sameOrigin(HttpExchange exchange) throws IOException {
    String origin = exchange.getRequestHeaders().getFirst("Origin");
    String host = exchange.getRequestHeaders().getFirst("Host");
    if (origin == null) {
      return true;
    }
    String authority = origin.replaceFirst("^https?://", "");
    if (host == null || !authority.equalsIgnoreCase(host)) {
      error(exchange, 403, "A cross-site request (Origin " + origin + ") is refused");
      return false;
    }
    return true;
  }

  private static String cookie(HttpExchange exchange) {
    for (String header : exchange.getRequestHeaders().getOrDefault("Cookie", List.of())) {
      for (String part : header.split(";")) {
        String trimmed = part.trim();
        if (trimmed.startsWith(COOKIE + "=")) {
          return trimmed.substring(COOKIE.length() + 1);
        }
      }
    }
    return null;
  }

  private String forClient(String message) {
    return ConsoleJson.forClient(lake, message);
  }

  @Override
  public void close() {
    sessions.close();
  }
}
