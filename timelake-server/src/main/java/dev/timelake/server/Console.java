package dev.timelake.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.timelake.AccessDeniedException;
import dev.timelake.Lake;
import dev.timelake.QueryPlan;
import dev.timelake.QueryResult;
import dev.timelake.RollupRoute;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
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

  /** At most this many rows of a result go to the page. */
  static final int MAX_ROWS = 10_000;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> ASSETS =
      Map.of(
          "/console/", "index.html",
          "/console/console.js", "console.js",
          "/console/console.css", "console.css");

  private final Credentials credentials;
  private final ConsoleSessions sessions;
  private final Lake lake;
  private final boolean tls;

  private final boolean runsSql;
  private volatile StatementTimeout timeout = StatementTimeout.none(null);

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
    if (ASSETS.containsKey(path)) {
      if (!method.equals("GET")) {
        error(exchange, 405, method + " " + path + "; use GET");
        return;
      }
      asset(exchange, ASSETS.get(path));
      return;
    }
    switch (path) {
      case "/console/api/login" -> login(exchange, work);
      case "/console/api/session" -> session(exchange);
      case "/console/api/logout" -> logout(exchange);
      case "/console/api/cancel" -> cancel(exchange);
      case "/console/api/query" -> query(exchange, work);
      case "/console/api/tables" -> tables(exchange);
      case "/console/api/ingest" -> ingest(exchange);
      case "/console/api/table" -> table(exchange);
      case "/console/api/maintain" -> maintain(exchange, work);
      default -> error(exchange, 404, "No console page " + path);
    }
  }

  private void asset(HttpExchange exchange, String name) throws IOException {
    try (InputStream in = Console.class.getResourceAsStream("console/" + name)) {
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
    long started = System.nanoTime();
    Map<String, Object> answer;
    try {
      answer =
          login.withSession(
              session -> {
                try (QueryResult result = timeout.run(session, statement)) {
                  return answer(result, started);
                }
              });
    } catch (AccessDeniedException e) {
      error(exchange, 403, forClient(e.getMessage()));
      return;
    } catch (TimelakeException e) {
      Map<String, Object> failure = new LinkedHashMap<>();
      failure.put("error", forClient(e.getMessage()));
      failure.put("code", e.code().name());
      send(exchange, 400, failure);
      return;
    }
    answer.put(
        "zoomable",
        ConsoleZoom.of(sql, java.time.Instant.EPOCH, java.time.Instant.ofEpochSecond(1), 1)
            .isPresent());
    zoomed.ifPresent(
        z -> answer.put("zoom", Map.of("sql", z.sql(), "width", z.width().toSeconds() + " s")));
    send(exchange, 200, answer);
  }

  /**
   * What the server's clients wrote in the last minutes and what was refused, for the tables and
   * refusals the login may see (refusals only for admins: they name other users' tables).
   */
  private void ingest(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = loggedIn(exchange);
    if (login.isEmpty()) {
      return;
    }
    Map<String, Object> view = new LinkedHashMap<>(IngestMonitor.of(lake).view());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> tables = (List<Map<String, Object>>) view.get("tables");
    view.put(
        "tables",
        tables.stream()
            .filter(
                t ->
                    login
                        .get()
                        .access
                        .reaches(TableName.parse((String) t.get("table")).namespace()))
            .toList());
    if (login.get().access.role() != dev.timelake.Role.ADMIN) {
      view.put("refused", List.of());
    }
    send(exchange, 200, view);
  }

  private void tables(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = loggedIn(exchange);
    if (login.isEmpty()) {
      return;
    }
    List<Map<String, Object>> tables = new ArrayList<>();
    for (TableName name : lake.tables()) {
      if (login.get().access.reaches(name.namespace())) {
        Map<String, Object> table = new LinkedHashMap<>();
        table.put("name", name.toString());
        tables.add(table);
      }
    }
    send(exchange, 200, Map.of("tables", tables));
  }

  /**
   * {@code ?name=ns.t}: a table's columns, contract and settings, partitions (files, rows, bytes),
   * newest snapshots, and its rollups with their freshness.
   */
  private void table(HttpExchange exchange) throws IOException {
    Optional<ConsoleSessions.Login> login = loggedIn(exchange);
    if (login.isEmpty()) {
      return;
    }
    Optional<dev.timelake.Table> found = reachable(exchange, login.get(), "name");
    if (found.isEmpty()) {
      return;
    }
    dev.timelake.Table table = found.get();
    dev.timelake.TableInfo info = table.info();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("name", table.name().toString());
    json.put(
        "columns",
        table.columns().stream()
            .map(
                c ->
                    Map.of(
                        "name",
                        c.name(),
                        "type",
                        c.type().toString(),
                        "nullable",
                        c.nullability() == dev.timelake.Column.Nullability.NULLABLE))
            .toList());
    json.put("timeColumn", table.timeColumn().orElse(null));
    json.put("seriesKey", table.seriesKey());
    json.put("rollupOf", table.rollupOf().map(Object::toString).orElse(null));
    json.put("settings", new java.util.TreeMap<>(table.settings()));
    json.put(
        "partitions",
        info.partitions().stream()
            .map(
                p ->
                    Map.of(
                        "label", p.label(), "files", p.files(), "rows", p.rows(), "bytes",
                        p.bytes()))
            .toList());
    List<Map<String, Object>> snapshots = new ArrayList<>();
    List<dev.timelake.TableInfo.SnapshotInfo> history = info.snapshots();
    for (int i = history.size() - 1; i >= 0 && snapshots.size() < 50; i--) {
      dev.timelake.TableInfo.SnapshotInfo snapshot = history.get(i);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("id", Long.toString(snapshot.id()));
      entry.put("committedAt", snapshot.committedAt().toString());
      entry.put(
          "operation", snapshot.summary().getOrDefault("timelake.operation", snapshot.operation()));
      entry.put("addedRows", snapshot.summary().get("added-records"));
      entry.put("deletedRows", snapshot.summary().get("deleted-records"));
      snapshots.add(entry);
    }
    json.put("snapshots", snapshots);
    long current = table.snapshotId().orElse(-1);
    List<Map<String, Object>> rollups = new ArrayList<>();
    if (table.rollupOf().isEmpty()) {
      for (dev.timelake.RollupInfo rollup : lake.rollups(table.name())) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", rollup.name().toString());
        entry.put("bucket", rollup.bucket());
        entry.put("keys", rollup.keys());
        entry.put("aggregates", rollup.aggregates());
        entry.put("filter", rollup.filter());
        entry.put("reflectsSnapshot", Long.toString(rollup.reflectsSnapshot()));
        entry.put("fresh", rollup.reflectsSnapshot() == current);
        entry.put("rows", rollup.rows());
        entry.put("files", rollup.files());
        rollups.add(entry);
      }
    }
    json.put("rollups", rollups);
    if (table.settings().containsKey("index-granularity")) {
      json.put("coverage", coverage(table));
    }
    send(exchange, 200, json);
  }

  /** At most this many series and columns in a coverage heat map. */
  static final int HEAT_MAP_SERIES = 50;

  static final int HEAT_MAP_COLUMNS = 30;

  /**
   * An ordered-index table's coverage as a heat map: its time span cut into at most {@link
   * #HEAT_MAP_COLUMNS} stretches, each series' covered share of each, and its longest gap.
   */
  private Map<String, Object> coverage(dev.timelake.Table table) {
    dev.timelake.IndexCoverage coverage = table.indexCoverage();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("granularity", coverage.granularity());
    List<Map<String, Object>> identities = coverage.identities();
    List<java.time.Instant> span = span(table);
    List<String> columns = new ArrayList<>();
    List<Map<String, Object>> series = new ArrayList<>();
    if (!identities.isEmpty() && span.size() == 2) {
      // Whole intervals of the granularity per stretch, from an interval's start.
      long granularity = granularitySeconds(coverage.granularity());
      java.time.Instant from =
          java.time.Instant.ofEpochSecond(
              Math.floorDiv(span.get(0).getEpochSecond(), granularity) * granularity);
      long seconds = java.time.Duration.between(from, span.get(1)).toSeconds() + 1;
      long intervals = Math.max(1, -Math.floorDiv(-seconds, granularity * HEAT_MAP_COLUMNS));
      long step = intervals * granularity;
      List<java.time.Instant> starts = new ArrayList<>();
      for (int i = 0;
          i < HEAT_MAP_COLUMNS && !from.plusSeconds(step * i).isAfter(span.get(1));
          i++) {
        starts.add(from.plusSeconds(step * i));
        columns.add(from.plusSeconds(step * i).toString());
      }
      java.time.Instant to = starts.get(starts.size() - 1).plusSeconds(step);
      for (Map<String, Object> identity :
          identities.subList(0, Math.min(HEAT_MAP_SERIES, identities.size()))) {
        List<Double> ratios = new ArrayList<>();
        for (java.time.Instant start : starts) {
          ratios.add(coverage.ratio(identity, start, start.plusSeconds(step)));
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("series", identity.values().stream().map(String::valueOf).toList());
        row.put("ratios", ratios);
        coverage
            .longestGap(identity, span.get(0), to)
            .ifPresent(
                gap ->
                    row.put(
                        "longestGap",
                        Map.of(
                            "start", gap.start().toString(),
                            "end", gap.end().toString(),
                            "intervals", gap.intervals())));
        series.add(row);
      }
    }
    json.put("columns", columns);
    json.put("series", series);
    json.put("seriesShown", series.size());
    json.put("seriesTotal", identities.size());
    return json;
  }

  private static long granularitySeconds(String granularity) {
    try {
      return Math.max(1, dev.timelake.table.Durations.parse(granularity).toSeconds());
    } catch (IllegalArgumentException e) {
      return 1;
    }
  }

  /**
   * The first and last instant of the table's index, read as Timelake's own query; empty when none.
   */
  private List<java.time.Instant> span(dev.timelake.Table table) {
    String time = table.timeColumn().orElse(null);
    if (time == null) {
      return List.of();
    }
    try (dev.timelake.Session session = lake.newSession();
        QueryResult result =
            session.sql(
                "SELECT min("
                    + dev.timelake.engine.SqlText.identifier(time)
                    + "), max("
                    + dev.timelake.engine.SqlText.identifier(time)
                    + ") FROM "
                    + dev.timelake.engine.SqlText.qualified(
                        table.name().namespace(), table.name().name()))) {
      List<Object> row = result.rows().get(0);
      if (!(row.get(0) instanceof OffsetDateTime first)
          || !(row.get(1) instanceof OffsetDateTime last)) {
        return List.of();
      }
      return List.of(first.toInstant(), last.toInstant().plusNanos(1000));
    }
  }

  /**
   * {@code {"table": "ns.t", "dryRun": true}}: what maintenance would do, or does it and reports;
   * an admin's work, as OPTIMIZE is. It runs as Timelake's own work, outside the login's session
   * and any transaction of it.
   */
  private void maintain(HttpExchange exchange, BodyRead work) throws IOException {
    Optional<Posted> posted = posted(exchange);
    if (posted.isEmpty()) {
      return;
    }
    ConsoleSessions.Login login = posted.get().login();
    JsonNode body = posted.get().body();
    String name = text(body, "table");
    TableName table;
    try {
      table = TableName.parse(name);
      login.access.require(dev.timelake.Role.ADMIN, table.namespace(), "maintain " + table);
    } catch (AccessDeniedException e) {
      error(exchange, 403, forClient(e.getMessage()));
      return;
    } catch (TimelakeException | IllegalArgumentException e) {
      error(exchange, 400, forClient(e.getMessage()));
      return;
    }
    work.run();
    try {
      dev.timelake.Maintenance maintenance = lake.table(table).newMaintenance();
      if (body.path("dryRun").asBoolean(false)) {
        send(exchange, 200, Map.of("plan", maintenance.dryRun()));
        return;
      }
      dev.timelake.MaintenanceReport report = maintenance.run();
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("filesBefore", report.filesBefore());
      json.put("filesAfter", report.filesAfter());
      json.put("partitionsRewritten", report.partitionsRewritten());
      json.put("snapshotsExpired", report.snapshotsExpired());
      json.put("tookMs", report.took().toMillis());
      json.put("explanation", report.explanation());
      send(exchange, 200, json);
    } catch (TimelakeException e) {
      error(exchange, 400, forClient(e.getMessage()));
    }
  }

  /** The table the {@code parameter} of the query string names, if the login reaches it. */
  private Optional<dev.timelake.Table> reachable(
      HttpExchange exchange, ConsoleSessions.Login login, String parameter) throws IOException {
    String raw = exchange.getRequestURI().getRawQuery();
    String name = null;
    for (String pair : raw == null ? new String[0] : raw.split("&")) {
      if (pair.startsWith(parameter + "=")) {
        name =
            java.net.URLDecoder.decode(
                pair.substring(parameter.length() + 1), StandardCharsets.UTF_8);
      }
    }
    if (name == null) {
      error(exchange, 400, "Name the table: ?" + parameter + "=namespace.table");
      return Optional.empty();
    }
    Optional<dev.timelake.Table> table;
    try {
      TableName parsed = TableName.parse(name);
      table = login.access.reaches(parsed.namespace()) ? lake.findTable(parsed) : Optional.empty();
    } catch (TimelakeException | IllegalArgumentException e) {
      error(exchange, 400, forClient(e.getMessage()));
      return Optional.empty();
    }
    if (table.isEmpty()) {
      // The same answer whether it is missing or out of reach: names of other namespaces stay
      // hidden.
      error(exchange, 404, "Table " + name + " does not exist");
    }
    return table;
  }

  /** A query's answer for the page: columns, types, rows (at most {@link #MAX_ROWS}), the plan. */
  private static Map<String, Object> answer(QueryResult result, long started) {
    Map<String, Object> answer = new LinkedHashMap<>();
    List<List<Object>> rows = new ArrayList<>();
    boolean truncated = false;
    if (result.hasRows()) {
      int columns = result.columnNames().size();
      while (result.next()) {
        if (rows.size() == MAX_ROWS) {
          truncated = true;
          break;
        }
        List<Object> row = new ArrayList<>(columns);
        for (int i = 0; i < columns; i++) {
          row.add(json(result.value(i)));
        }
        rows.add(row);
      }
      answer.put("columns", result.columnNames());
      answer.put("types", result.columnTypes());
    } else {
      answer.put("message", result.message());
    }
    answer.put("rows", rows);
    answer.put("truncated", truncated);
    answer.put("elapsedMs", (System.nanoTime() - started) / 1e6);
    answer.put("routed", result.isRouted());
    answer.put("plan", plan(result.plan()));
    answer.put("explanation", result.explanation());
    answer.put("warnings", result.warnings());
    return answer;
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

  /** µs since 1970 in ISO-8601; null for no bound. */
  private static String instant(long micros) {
    if (micros == Long.MIN_VALUE || micros == Long.MAX_VALUE) {
      return null;
    }
    return java.time.Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS).toString();
  }

  /** A value as JSON: finite numbers and booleans as they are, instants in ISO-8601, else text. */
  private static Object json(Object value) {
    if (value == null || value instanceof Boolean || value instanceof String) {
      return value;
    }
    if (value instanceof Double d) {
      return Double.isFinite(d) ? d : d.toString();
    }
    if (value instanceof Float f) {
      return Float.isFinite(f) ? f : f.toString();
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return value;
    }
    if (value instanceof OffsetDateTime time) {
      return DateTimeFormatter.ISO_INSTANT.format(time.toInstant());
    }
    return String.valueOf(value);
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

  /** The request's JSON object body, at most {@link #MAX_BODY} bytes; else the refusal is sent. */
  private static Optional<JsonNode> body(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY + 1);
      if (bytes.length > MAX_BODY) {
        // Read on a little (into one small buffer), so that the client sees the answer rather
        // than a connection reset while it still sends.
        byte[] discard = new byte[8192];
        for (long skipped = 0; skipped < 4L * MAX_BODY; ) {
          int read = in.read(discard);
          if (read < 0) {
            break;
          }
          skipped += read;
        }
        error(exchange, 413, "The request is over " + MAX_BODY + " bytes: send one statement");
        return Optional.empty();
      }
    }
    try {
      JsonNode node = JSON.readTree(bytes);
      if (node == null || !node.isObject()) {
        error(exchange, 400, "The request body is not a JSON object");
        return Optional.empty();
      }
      return Optional.of(node);
    } catch (JsonProcessingException e) {
      error(exchange, 400, "The request body is not JSON: " + e.getOriginalMessage());
      return Optional.empty();
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode value = body.get(field);
    return value == null || !value.isTextual() ? "" : value.asText();
  }

  /**
   * A message as a client may read it: where the lake lives on the server's disk is the operator's
   * business (as over PostgreSQL, a table that does not exist is reported "in the lake").
   */
  private String forClient(String message) {
    return message == null ? "" : message.replace(lake.description(), "the lake");
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    send(exchange, status, Map.of("error", message));
  }

  private static void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A console answer is always JSON", e);
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    sessions.close();
  }
}
