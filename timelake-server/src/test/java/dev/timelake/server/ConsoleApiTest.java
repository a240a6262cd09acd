package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web console without a browser: nothing but the static page answers without a login; a login
 * sets a strict, HttpOnly cookie; a state-changing request needs the login's CSRF token and no
 * foreign Origin; a logged-out cookie is dead; SQL runs under the user's role with the same file
 * rules as the PostgreSQL server; a running query is cancelled by its login; a zoom runs a query
 * again with buckets that fit.
 */
class ConsoleApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path folder;
  private Lake lake;
  private LineProtocolServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    lake = Lake.open(folder.resolve("wh"));
    try (Session session = lake.newSession();
        QueryResult ignored =
            session.sql(
                "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH"
                    + " (time_column = 'time', series_key = 'device')")) {
      session
          .sql("INSERT INTO iot.r VALUES ('a', TIMESTAMPTZ '2026-01-01 00:00:00+00', 1.5)")
          .close();
    }
    Path users = folder.resolve("users.txt");
    Files.write(
        users,
        List.of(
            "ada:" + ScramSecret.of("ada pw").text() + " role=admin",
            "rob:" + ScramSecret.of("rob pw").text() + " role=read namespaces=iot"));
    server =
        LineProtocolServer.start(
            lake, new InetSocketAddress("127.0.0.1", 0), Credentials.fromFile(users));
  }

  @AfterEach
  void stop() {
    server.close();
    lake.close();
  }

  @Test
  void nothingButTheLoginPageAnswersWithoutALogin() throws Exception {
    HttpResponse<String> page = get("/console/", null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("login-form");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .get()
        .asString()
        .contains("default-src 'self'");
    assertThat(get("/", null).statusCode()).isEqualTo(302);
    // The editor's files come from the CodeMirror WebJar in the jar.
    HttpResponse<String> editor = get("/console/vendor/codemirror.js", null);
    assertThat(editor.statusCode()).isEqualTo(200);
    assertThat(editor.headers().firstValue("Content-Type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(get("/console/vendor/sql.js", null).body()).contains("text/x-sql");
    assertThat(get("/console/api/session", null).statusCode()).isEqualTo(401);
    assertThat(get("/console/api/tables", null).statusCode()).isEqualTo(401);
    assertThat(post("/console/api/query", null, "x", "{\"sql\":\"SELECT 1\"}").statusCode())
        .isEqualTo(401);
    assertThat(get("/console/api/session", "timelake_console=forged").statusCode()).isEqualTo(401);
  }

  @Test
  void aWrongPasswordIsRefusedAndRepeatedOnesAreThrottled() throws Exception {
    HttpResponse<String> wrong = login("ada", "nope");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();
    assertThat(login("mallory", "ada pw").statusCode()).isEqualTo(401);
    int status = 0;
    for (int i = 0; i < 20 && status != 429; i++) {
      status = login("ada", "nope " + i).statusCode();
    }
    assertThat(status).as("the login throttle answers 429").isEqualTo(429);
  }

  @Test
  void aLoginSetsAStrictHttpOnlyCookieAndRunsQueriesAsTheUser() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    assertThat(ada.setCookie())
        .contains("HttpOnly")
        .contains("SameSite=Strict")
        .contains("Path=/console")
        .doesNotContain("Secure");
    HttpResponse<String> answer =
        post(
            "/console/api/query",
            ada.cookie(),
            ada.csrf(),
            "{\"sql\":\"SELECT device, time, value FROM iot.r\"}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode json = JSON.readTree(answer.body());
    assertThat(json.get("columns").toString()).isEqualTo("[\"device\",\"time\",\"value\"]");
    assertThat(json.get("rows").toString()).isEqualTo("[[\"a\",\"2026-01-01T00:00:00Z\",1.5]]");
    assertThat(json.get("plan").get("reads").get(0).get("table").asText()).isEqualTo("iot.r");
    HttpResponse<String> tables = get("/console/api/tables", ada.cookie());
    assertThat(tables.body()).contains("iot.r");
    HttpResponse<String> failed =
        post(
            "/console/api/query", ada.cookie(), ada.csrf(), "{\"sql\":\"SELECT * FROM iot.nope\"}");
    assertThat(failed.statusCode()).isEqualTo(400);
    // Where the warehouse lies on the server's disk is not the client's business.
    assertThat(JSON.readTree(failed.body()).get("error").asText())
        .contains("iot.nope")
        .contains("the lake")
        .doesNotContain(folder.toString());
    // Where the error points in the statement as the user wrote it.
    JsonNode position = JSON.readTree(failed.body()).get("position");
    assertThat(List.of(position.get("offset"), position.get("line"), position.get("column")))
        .extracting(JsonNode::asInt)
        .containsExactly(14, 1, 15);
  }

  @Test
  void aMillionRowResultIsReadAPageAtATimeFromTheServer() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    HttpResponse<String> answer =
        post(
            "/console/api/query",
            ada.cookie(),
            ada.csrf(),
            "{\"sql\":\"SELECT range AS i, 'v' || range AS label FROM range(1000000)\"}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode first = JSON.readTree(answer.body());
    assertThat(first.get("rows").size()).isEqualTo(Console.FIRST_ROWS);
    assertThat(first.get("more").asBoolean()).isTrue();
    long cursor = first.get("cursor").asLong();

    JsonNode middle = page(ada, cursor, 500_050);
    assertThat(middle.get("rows").size()).isEqualTo(ConsoleCursor.PAGE);
    assertThat(middle.get("rows").get(0).toString()).isEqualTo("[500050,\"v500050\"]");
    assertThat(middle.get("more").asBoolean()).isTrue();
    // A page read before is read again from the server's spool, not from the query.
    assertThat(page(ada, cursor, 10_000).get("rows").get(99).toString())
        .isEqualTo("[10099,\"v10099\"]");
    JsonNode last = page(ada, cursor, 999_950);
    assertThat(last.get("rows").size()).isEqualTo(50);
    assertThat(last.get("more").asBoolean()).isFalse();
    assertThat(last.get("rowsRead").asLong()).isEqualTo(1_000_000);
    assertThat(page(ada, cursor, 2_000_000).get("rows").size()).isZero();
    // The whole result as a CSV download, streamed from the server's spool.
    HttpResponse<String> csv =
        post("/console/api/csv", ada.cookie(), ada.csrf(), "{\"cursor\":" + cursor + "}");
    assertThat(csv.statusCode()).isEqualTo(200);
    assertThat(csv.headers().firstValue("Content-Disposition"))
        .hasValue("attachment; filename=\"result.csv\"");
    assertThat(csv.body()).startsWith("i,label\n0,v0\n1,v1\n").endsWith("999999,v999999\n");
    assertThat(csv.body().lines().count()).isEqualTo(1_000_001);

    // Another query closes the result; its pages are gone, and a clear refusal says so.
    post("/console/api/query", ada.cookie(), ada.csrf(), "{\"sql\":\"SELECT 1\"}");
    HttpResponse<String> gone =
        post(
            "/console/api/rows",
            ada.cookie(),
            ada.csrf(),
            "{\"cursor\":" + cursor + ",\"offset\":0}");
    assertThat(gone.statusCode()).isEqualTo(409);
    assertThat(
            post("/console/api/csv", ada.cookie(), ada.csrf(), "{\"cursor\":" + cursor + "}")
                .statusCode())
        .isEqualTo(409);
    assertThat(gone.body()).contains("run the query again");
    HttpResponse<String> malformed =
        post("/console/api/rows", ada.cookie(), ada.csrf(), "{\"offset\":-1}");
    assertThat(malformed.statusCode()).isEqualTo(400);
    // A small result keeps no cursor.
    JsonNode small =
        JSON.readTree(
            post("/console/api/query", ada.cookie(), ada.csrf(), "{\"sql\":\"SELECT 1\"}").body());
    assertThat(small.get("more").asBoolean()).isFalse();
    assertThat(small.has("cursor")).isFalse();
  }

  private JsonNode page(Login login, long cursor, long offset) throws Exception {
    HttpResponse<String> answer =
        post(
            "/console/api/rows",
            login.cookie(),
            login.csrf(),
            "{\"cursor\":" + cursor + ",\"offset\":" + offset + "}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body());
  }

  @Test
  void aForgedCrossSitePostIsRefused() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    String drop = "{\"sql\":\"DROP TABLE iot.r\"}";
    assertThat(post("/console/api/query", ada.cookie(), null, drop).statusCode()).isEqualTo(403);
    assertThat(post("/console/api/query", ada.cookie(), "wrong", drop).statusCode()).isEqualTo(403);
    HttpRequest foreign =
        request("/console/api/query", ada.cookie())
            .header(Console.CSRF_HEADER, ada.csrf())
            .header("Origin", "http://evil.example")
            .POST(HttpRequest.BodyPublishers.ofString(drop))
            .build();
    assertThat(http.send(foreign, HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(403);
    assertThat(get("/console/api/query", ada.cookie()).statusCode()).isEqualTo(405);
    assertThat(lake.findTable(dev.timelake.TableName.parse("iot.r"))).isPresent();
  }

  @Test
  void aCookieIsDeadAfterLogout() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    assertThat(get("/console/api/session", ada.cookie()).statusCode()).isEqualTo(200);
    assertThat(post("/console/api/logout", ada.cookie(), ada.csrf(), "{}").statusCode())
        .isEqualTo(200);
    assertThat(get("/console/api/session", ada.cookie()).statusCode()).isEqualTo(401);
    assertThat(
            post("/console/api/query", ada.cookie(), ada.csrf(), "{\"sql\":\"SELECT 1\"}")
                .statusCode())
        .isEqualTo(401);
  }

  @Test
  void aCookieIsDeadAfterTheUsersFileChangesItsUser() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    Login rob = loggedIn("rob", "rob pw");
    Path users = folder.resolve("users.txt");
    String adasLine = Files.readAllLines(users).get(0);
    Files.write(
        users,
        List.of(
            adasLine,
            "rob:" + ScramSecret.of("rob's new pw").text() + " role=read namespaces=iot"));
    Files.setLastModifiedTime(
        users,
        java.nio.file.attribute.FileTime.fromMillis(
            Files.getLastModifiedTime(users).toMillis() + 2_000));

    assertThat(get("/console/api/session", rob.cookie()).statusCode()).isEqualTo(401);
    assertThat(
            post("/console/api/query", rob.cookie(), rob.csrf(), "{\"sql\":\"SELECT 1\"}")
                .statusCode())
        .isEqualTo(401);
    // A user whose line did not change stays logged in; the new password logs in.
    assertThat(get("/console/api/session", ada.cookie()).statusCode()).isEqualTo(200);
    assertThat(loggedIn("rob", "rob's new pw").cookie()).isNotEqualTo(rob.cookie());
  }

  @Test
  void consoleSqlFollowsTheUsersRoleAndTheServersFileRules() throws Exception {
    Path outside = Files.createTempFile("timelake-outside", ".csv");
    Files.writeString(outside, "secret\n1\n");
    Login rob = loggedIn("rob", "rob pw");
    assertThat(
            post(
                    "/console/api/query",
                    rob.cookie(),
                    rob.csrf(),
                    "{\"sql\":\"SELECT count(*) FROM iot.r\"}")
                .statusCode())
        .isEqualTo(200);
    HttpResponse<String> write =
        post("/console/api/query", rob.cookie(), rob.csrf(), "{\"sql\":\"DROP TABLE iot.r\"}");
    assertThat(write.statusCode()).isEqualTo(403);
    assertThat(
            post("/console/api/maintain", rob.cookie(), rob.csrf(), "{\"table\":\"iot.r\"}")
                .statusCode())
        .as("maintenance is an admin's work")
        .isEqualTo(403);
    assertThat(get("/console/api/table?name=iot.r", rob.cookie()).statusCode()).isEqualTo(200);
    assertThat(get("/console/api/table?name=other.t", rob.cookie()).statusCode()).isEqualTo(404);
    assertThat(get("/console/api/table?name=iot.r", null).statusCode()).isEqualTo(401);
    Login ada = loggedIn("ada", "ada pw");
    HttpResponse<String> plan =
        post(
            "/console/api/maintain",
            ada.cookie(),
            ada.csrf(),
            "{\"table\":\"iot.r\",\"dryRun\":true}");
    assertThat(plan.statusCode()).as(plan.body()).isEqualTo(200);
    assertThat(
            post("/console/api/maintain", ada.cookie(), null, "{\"table\":\"iot.r\"}").statusCode())
        .isEqualTo(403);
    for (String sql :
        List.of(
            "SELECT * FROM read_csv('" + outside + "')",
            "COPY (SELECT 1 AS a) TO '" + outside.getParent().resolve("written.csv") + "'",
            "INSTALL httpfs")) {
      HttpResponse<String> refused =
          post(
              "/console/api/query",
              ada.cookie(),
              ada.csrf(),
              JSON.writeValueAsString(java.util.Map.of("sql", sql)));
      assertThat(refused.statusCode()).as(sql).isIn(400, 403);
    }
    assertThat(outside.getParent().resolve("written.csv")).doesNotExist();
  }

  @Test
  void aRunningQueryIsCancelledByItsLogin() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    java.util.concurrent.CompletableFuture<HttpResponse<String>> slow = slowQuery(ada);
    HttpResponse<String> cancelled = null;
    for (int i = 0; i < 100 && !slow.isDone(); i++) {
      Thread.sleep(100);
      cancelled = post("/console/api/cancel", ada.cookie(), ada.csrf(), "{}");
    }
    assertThat(cancelled).isNotNull();
    assertThat(cancelled.statusCode()).isEqualTo(200);
    HttpResponse<String> answer = slow.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
    assertThat(answer.body()).containsIgnoringCase("interrupt");
  }

  @Test
  void consoleStatementsBeyondTheServersLimitWaitTheirTurnThenAreRefused() throws Exception {
    server.consoleStatements(1, java.time.Duration.ofMillis(300));
    Login ada = loggedIn("ada", "ada pw");
    Login rob = loggedIn("rob", "rob pw");
    java.util.concurrent.CompletableFuture<HttpResponse<String>> slow = slowQuery(ada);
    HttpResponse<String> busy = null;
    for (int i = 0; i < 50 && (busy == null || busy.statusCode() != 503); i++) {
      Thread.sleep(50);
      busy = post("/console/api/query", rob.cookie(), rob.csrf(), "{\"sql\":\"SELECT 1\"}");
    }
    assertThat(busy.statusCode()).as(busy.body()).isEqualTo(503);
    assertThat(busy.headers().firstValue("Retry-After")).isPresent();
    assertThat(busy.body()).contains("run it again in a moment");
    post("/console/api/cancel", ada.cookie(), ada.csrf(), "{}");
    assertThat(slow.get(30, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(400);
    HttpResponse<String> after =
        post("/console/api/query", rob.cookie(), rob.csrf(), "{\"sql\":\"SELECT 1\"}");
    assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
  }

  @Test
  void aQueryLongerThanTheStatementTimeoutIsCancelled() throws Exception {
    server.consoleStatementTimeout(java.time.Duration.ofMillis(300));
    Login ada = loggedIn("ada", "ada pw");
    HttpResponse<String> answer =
        post(
            "/console/api/query",
            ada.cookie(),
            ada.csrf(),
            "{\"sql\":\"SELECT count(*) FROM range(100000000000) a WHERE a % 7 = 3\"}");
    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.body()).contains("statement timeout of 300 ms");
  }

  @Test
  void aZoomRunsTheQueryAgainWithBucketsThatFitTheChart() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    String query =
        "SELECT time_bucket(INTERVAL '1 day', time) AS d, avg(value) AS v FROM iot.r GROUP BY d";
    HttpResponse<String> whole =
        post(
            "/console/api/query",
            ada.cookie(),
            ada.csrf(),
            JSON.writeValueAsString(java.util.Map.of("sql", query)));
    assertThat(JSON.readTree(whole.body()).get("zoomable").asBoolean()).isTrue();
    HttpResponse<String> zoomed =
        post(
            "/console/api/query",
            ada.cookie(),
            ada.csrf(),
            JSON.writeValueAsString(
                java.util.Map.of(
                    "sql",
                    query,
                    "zoom",
                    java.util.Map.of(
                        "from",
                        "2026-01-01T00:00:00Z",
                        "to",
                        "2026-01-01T01:00:00Z",
                        "points",
                        60))));
    JsonNode json = JSON.readTree(zoomed.body());
    assertThat(json.get("zoom").get("width").asText()).isEqualTo("60 s");
    assertThat(json.get("rows").toString()).isEqualTo("[[\"2026-01-01T00:00:00Z\",1.5]]");
    HttpResponse<String> notZoomable =
        post(
            "/console/api/query",
            ada.cookie(),
            ada.csrf(),
            "{\"sql\":\"SELECT 1\",\"zoom\":{\"from\":\"2026-01-01T00:00:00Z\",\"to\":\"2026-01-02T00:00:00Z\"}}");
    assertThat(notZoomable.statusCode()).isEqualTo(400);
    assertThat(notZoomable.body()).contains("cannot be zoomed");
  }

  @Test
  void anOrderedIndexTablesPageHasItsCoverageHeatMap() throws Exception {
    try (Session session = lake.newSession()) {
      session
          .sql(
              "CREATE TABLE market.bars (symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE) WITH"
                  + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m')")
          .close();
      // NVDA every minute of an hour; AMD the first half only.
      session
          .sql(
              "INSERT INTO market.bars SELECT s, TIMESTAMPTZ '2026-01-02 14:00:00+00' + INTERVAL"
                  + " (m) MINUTE, m FROM (VALUES ('NVDA'), ('AMD')) t(s), range(60) r(m) WHERE"
                  + " s = 'NVDA' OR m < 30")
          .close();
    }
    Login ada = loggedIn("ada", "ada pw");
    HttpResponse<String> page = get("/console/api/table?name=market.bars", ada.cookie());
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    JsonNode coverage = JSON.readTree(page.body()).get("coverage");
    assertThat(coverage.get("granularity").asText()).isEqualTo("1 minute");
    assertThat(coverage.get("seriesTotal").asInt()).isEqualTo(2);
    assertThat(coverage.get("columns").size()).isEqualTo(30);
    for (JsonNode series : coverage.get("series")) {
      double covered = 0;
      for (JsonNode ratio : series.get("ratios")) {
        covered += ratio.asDouble();
      }
      if (series.get("series").get(0).asText().equals("AMD")) {
        assertThat(covered).isEqualTo(15.0);
        assertThat(series.get("longestGap").get("intervals").asLong()).isEqualTo(30);
      } else {
        assertThat(covered).isEqualTo(30.0);
        assertThat(series.has("longestGap")).isFalse();
      }
    }
    assertThat(
            JSON.readTree(get("/console/api/table?name=iot.r", ada.cookie()).body())
                .has("coverage"))
        .isFalse();
  }

  @Test
  void theIngestViewCountsWritesPerTableAndListsRefusals() throws Exception {
    HttpRequest lines =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + server.port() + "/api/v2/write?bucket=iot&precision=s"))
            .header("Authorization", "Token ada:ada pw")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "cpu,host=a usage=1.5 1767225600\ncpu,host=b usage=2.5 1767225600\n"))
            .build();
    assertThat(http.send(lines, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(204);
    HttpRequest broken =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/api/v2/write?bucket=iot"))
            .header("Authorization", "Token ada:ada pw")
            .POST(HttpRequest.BodyPublishers.ofString("cpu,host=a usage=\n"))
            .build();
    assertThat(http.send(broken, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(400);
    try (PgServer pg =
            PgServer.start(
                lake,
                new InetSocketAddress("127.0.0.1", 0),
                Credentials.fromFile(folder.resolve("users.txt")));
        java.sql.Connection connection =
            java.sql.DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + pg.port() + "/timelake", "ada", "ada pw");
        java.sql.Statement statement = connection.createStatement()) {
      statement.execute(
          "INSERT INTO iot.r VALUES ('b', TIMESTAMPTZ '2026-01-01 00:01:00+00', 2.5),"
              + " ('c', TIMESTAMPTZ '2026-01-01 00:02:00+00', 3.5)");
    }
    // An import in another process (here: the Java API, as `timelake import` uses it) is read from
    // the table's history.
    lake.table(dev.timelake.TableName.parse("iot.r"))
        .newAppend()
        .row("b", java.time.Instant.parse("2026-01-01T00:01:30Z"), 4.5)
        .row("c", java.time.Instant.parse("2026-01-01T00:01:30Z"), 5.5)
        .row("c", java.time.Instant.parse("2026-01-01T00:01:45Z"), 6.5)
        .commit();
    Login ada = loggedIn("ada", "ada pw");
    JsonNode view = JSON.readTree(get("/console/api/ingest", ada.cookie()).body());
    java.util.Map<String, JsonNode> tables = new java.util.HashMap<>();
    view.get("tables").forEach(t -> tables.put(t.get("table").asText(), t));
    assertThat(tables.get("iot.cpu").get("rowsLastMinute").asLong()).isEqualTo(2);
    assertThat(tables.get("iot.cpu").get("sources").toString()).isEqualTo("[\"line protocol\"]");
    assertThat(tables.get("iot.cpu").get("slots").size()).isEqualTo(IngestMonitor.SLOTS);
    // The table's first row was inserted at set-up by an embedded session: one more other write.
    assertThat(tables.get("iot.r").get("rowsLastMinute").asLong()).isEqualTo(2 + 3 + 1);
    assertThat(tables.get("iot.r").get("sources").toString())
        .isEqualTo("[\"PostgreSQL\",\"import or embedded writer\"]");
    // Each snapshot says who wrote it: the server's clients by their login.
    JsonNode cpu = JSON.readTree(get("/console/api/table?name=iot.cpu", ada.cookie()).body());
    assertThat(cpu.get("snapshots").get(0).get("writtenBy").asText()).isEqualTo("ada");
    JsonNode r = JSON.readTree(get("/console/api/table?name=iot.r", ada.cookie()).body());
    assertThat(r.get("snapshots"))
        .extracting(snapshot -> snapshot.get("writtenBy").asText())
        .containsExactly("", "ada", "");
    // The late rows' file overlaps the PostgreSQL insert's in time: both are read in an overlap
    // group until maintenance merges them.
    assertThat(r.get("partitions").get(0).get("overlappingFiles").asInt()).isEqualTo(2);
    assertThat(view.get("refused").get(0).get("source").asText()).isEqualTo("line protocol");
    assertThat(view.get("refused").get(0).get("reason").asText()).contains("line 1");
    // A reader sees the tables it may read, and no refusals (they name other users' tables).
    Login rob = loggedIn("rob", "rob pw");
    JsonNode robs = JSON.readTree(get("/console/api/ingest", rob.cookie()).body());
    assertThat(robs.get("tables").size()).isEqualTo(2);
    assertThat(robs.get("refused").size()).isZero();
    assertThat(get("/console/api/ingest", null).statusCode()).isEqualTo(401);
  }

  @Test
  void anOversizedOrMalformedBodyIsRefused() throws Exception {
    Login ada = loggedIn("ada", "ada pw");
    assertThat(post("/console/api/query", ada.cookie(), ada.csrf(), "not json").statusCode())
        .isEqualTo(400);
    assertThat(post("/console/api/query", ada.cookie(), ada.csrf(), "[1]").statusCode())
        .isEqualTo(400);
    String huge = "{\"sql\":\"" + "x".repeat(Console.MAX_BODY) + "\"}";
    assertThat(post("/console/api/query", ada.cookie(), ada.csrf(), huge).statusCode())
        .isEqualTo(413);
  }

  private record Login(String cookie, String csrf, String setCookie) {}

  /** A query of {@code login}'s that runs for minutes unless cancelled, sent in the background. */
  private java.util.concurrent.CompletableFuture<HttpResponse<String>> slowQuery(Login login) {
    return java.util.concurrent.CompletableFuture.supplyAsync(
        () -> {
          try {
            return post(
                "/console/api/query",
                login.cookie(),
                login.csrf(),
                "{\"sql\":\"SELECT count(*) FROM range(100000000000) a WHERE a % 7 = 3\"}");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private Login loggedIn(String user, String password) throws Exception {
    HttpResponse<String> answer = login(user, password);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    String setCookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
    return new Login(
        setCookie.substring(0, setCookie.indexOf(';')),
        JSON.readTree(answer.body()).get("csrf").asText(),
        setCookie);
  }

  private HttpResponse<String> login(String user, String password) throws Exception {
    return post(
        "/console/api/login",
        null,
        null,
        JSON.writeValueAsString(java.util.Map.of("user", user, "password", password)));
  }

  private HttpRequest.Builder request(String path, String cookie) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return request;
  }

  private HttpResponse<String> get(String path, String cookie) throws Exception {
    return http.send(request(path, cookie).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String cookie, String csrf, String body)
      throws Exception {
    HttpRequest.Builder request =
        request(path, cookie).POST(HttpRequest.BodyPublishers.ofString(body));
    if (csrf != null) {
      request.header(Console.CSRF_HEADER, csrf);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
