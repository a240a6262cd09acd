package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way a line-protocol request can fail is answered with a status and a short JSON message
 * (never a Java exception's text), and clients that send slowly, too much or too often cannot keep
 * the others waiting. After each, the server still takes a normal write, and the refused request
 * wrote nothing.
 */
class LineProtocolServerLimitsTest {
  private static final String PASSWORD = "line secret";
  private static final String LINE = "readings,device=d1 value=1 1767225600";

  @TempDir Path folder;
  private Lake lake;
  private final List<LineProtocolServer> servers = new ArrayList<>();
  private final List<Socket> sockets = new ArrayList<>();
  private final ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

  @BeforeEach
  void open() {
    lake = Lake.open(folder.resolve("lake"));
  }

  @AfterEach
  void close() throws IOException {
    trickle.shutdownNow();
    for (Socket socket : sockets) {
      socket.close();
    }
    servers.forEach(LineProtocolServer::close);
    lake.close();
  }

  private LineProtocolServer server(LineProtocolServer.Limits limits) throws IOException {
    return server(lake, limits);
  }

  private LineProtocolServer server(Lake on, LineProtocolServer.Limits limits) throws IOException {
    LineProtocolServer server = WithLineProtocolServer.start(on, PASSWORD, limits);
    servers.add(server);
    return server;
  }

  private HttpRequest.Builder request(LineProtocolServer server, String pathAndQuery) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", "Token " + PASSWORD);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> write(LineProtocolServer server, String lines) throws Exception {
    return send(
        request(server, "/api/v2/write?bucket=iot&precision=s")
            .POST(HttpRequest.BodyPublishers.ofString(lines)));
  }

  private List<List<Object>> rows(String sql) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  /** The server takes a normal write, and it is stored (with what was there before). */
  private void assertWrites(LineProtocolServer server, long rowsBefore) throws Exception {
    HttpResponse<String> written = write(server, LINE);
    assertThat(written.statusCode()).as(written.body()).isEqualTo(204);
    assertThat(rows("SELECT count(*) FROM iot.readings")).containsExactly(List.of(rowsBefore + 1));
  }

  /** Asserts an error answer: the status, a JSON body with the code and message fragments. */
  private static void assertAnswer(
      HttpResponse<String> response, int status, String code, String... fragments) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type"))
        .contains("application/json; charset=utf-8");
    assertThat(response.body())
        .startsWith("{\"code\":\"" + code + "\",\"message\":\"")
        .contains(fragments)
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
  }

  /** A connection that has sent {@code bytes} and no more. */
  private Socket connect(LineProtocolServer server, String bytes) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    sockets.add(socket);
    socket.setSoTimeout(30_000);
    socket.getOutputStream().write(bytes.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
  }

  /** Whether the server ended the connection (an end of stream or a reset) without an answer. */
  private static boolean isCutOff(Socket socket) throws IOException {
    try {
      return socket.getInputStream().read() == -1;
    } catch (java.net.SocketException reset) {
      return true;
    }
  }

  @Test
  void refusalsNameWhatWentWrongInJson() throws Exception {
    LineProtocolServer server = server(LineProtocolServer.Limits.DEFAULT);
    assertAnswer(
        write(server, "readings,device=d1 value=oops 1767225600"),
        400,
        "invalid",
        "line 1: invalid field value 'oops'");
    assertAnswer(
        send(
            request(server, "/api/v2/write?bucket=iot&precision=days")
                .POST(HttpRequest.BodyPublishers.ofString(LINE))),
        400,
        "invalid",
        "Unknown precision 'days'");
    assertAnswer(
        send(request(server, "/api/v2/write?bucket=iot").GET()),
        405,
        "method not allowed",
        "GET /api/v2/write; use POST");
    assertAnswer(
        send(request(server, "/api/v2/query").POST(HttpRequest.BodyPublishers.ofString(LINE))),
        404,
        "not found",
        "No endpoint /api/v2/query");
    assertAnswer(
        send(
            request(server, "/api/v2/write?bucket=iot")
                .setHeader("Authorization", "Token wrong")
                .POST(HttpRequest.BodyPublishers.ofString(LINE))),
        401,
        "unauthorized",
        "Wrong or missing credentials");
    assertThat(lake.tables()).isEmpty();
    assertWrites(server, 0);
  }

  @Test
  void anUnexpectedFailureIsAnswered500WithAnIncidentAndNoJavaText() throws Exception {
    Lake closing = Lake.open(folder.resolve("closing"));
    LineProtocolServer server = server(closing, LineProtocolServer.Limits.DEFAULT);
    // A lake closed under the running server: its catalog's connection pool is gone.
    closing.close();
    HttpResponse<String> failed = write(server, LINE);
    assertAnswer(
        failed, 500, "internal error", "failed on this request unexpectedly (incident ", "log");
    assertThat(failed.body()).doesNotContain("pool").doesNotContain("closed");
    // The same server keeps answering.
    assertThat(send(request(server, "/ping").GET()).statusCode()).isEqualTo(204);
    assertThat(write(server, LINE).statusCode()).isEqualTo(500);
  }

  @Test
  void aBodyOverTheLimitIsAnswered413AndWritesNothing() throws Exception {
    LineProtocolServer server = server(LineProtocolServer.Limits.DEFAULT.withMaxBodyBytes(1024));
    String big = (LINE + "\n").repeat(100);
    assertAnswer(write(server, big), 413, "request too large", "The body is over 1024 bytes");
    // Compressed it is small; the limit counts what it unpacks to.
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      gzip.write(big.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(zipped.size()).isLessThan(1024);
    assertAnswer(
        send(
            request(server, "/api/v2/write?bucket=iot&precision=s")
                .header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(zipped.toByteArray()))),
        413,
        "request too large",
        "after decompression");
    assertThat(lake.tables()).isEmpty();
    assertWrites(server, 0);
  }

  @Test
  void requestsBeyondTheThreadLimitAreAnswered503AndWriteNothing() throws Exception {
    LineProtocolServer server =
        server(
            LineProtocolServer.Limits.DEFAULT
                .withRequestThreads(2)
                .withDeadlines(Duration.ofSeconds(60), Duration.ofSeconds(120)));
    // Two clients that started a request and went quiet hold the server's two threads.
    Socket first = connect(server, "POST /api/v2/write?bucket=iot HTTP/1.1\r\nHost: x");
    Socket second = connect(server, "POST /api/v2/write?bucket=iot HTTP/1.1\r\nHost: x");
    awaitStatus(server, 503);
    HttpResponse<String> refused = write(server, LINE);
    assertAnswer(refused, 503, "unavailable", "handling 2 requests already; send it again");
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
    assertThat(lake.tables()).isEmpty();
    first.close();
    second.close();
    awaitStatus(server, 204);
    assertWrites(server, 0);
  }

  /** Pings until the server answers {@code status} (the state the test waits for is reached). */
  private void awaitStatus(LineProtocolServer server, int status) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    int last = -1;
    while (System.nanoTime() < deadline) {
      last = send(request(server, "/ping").GET()).statusCode();
      if (last == status) {
        return;
      }
      Thread.onSpinWait();
    }
    assertThat(last).as("the status /ping answered within 30 seconds").isEqualTo(status);
  }

  @Test
  void aClientThatSendsItsHeadersSlowlyIsCutOffAndWritesNothing() throws Exception {
    LineProtocolServer server =
        server(
            LineProtocolServer.Limits.DEFAULT.withDeadlines(
                Duration.ofMillis(500), Duration.ofSeconds(120)));
    String request =
        "POST /api/v2/write?bucket=iot&precision=s HTTP/1.1\r\nHost: x\r\nAuthorization: Token "
            + PASSWORD
            + "\r\nContent-Length: "
            + LINE.length()
            + "\r\n\r\n"
            + LINE;
    Socket slow = connect(server, request.substring(0, 1));
    AtomicInteger sent = new AtomicInteger(1);
    trickle.scheduleAtFixedRate(
        () -> {
          int next = sent.getAndIncrement();
          try {
            slow.getOutputStream().write(request.charAt(next % request.length()));
          } catch (IOException cutOff) {
            // expected once the deadline has passed
          }
        },
        100,
        100,
        TimeUnit.MILLISECONDS);
    assertThat(isCutOff(slow)).isTrue();
    assertThat(sent.get()).isLessThan(request.length()); // it never got to send it all
    assertThat(lake.tables()).isEmpty();
    assertWrites(server, 0);
  }

  @Test
  void aHundredClientsTricklingHeadersCannotStarveANormalWrite() throws Exception {
    LineProtocolServer server = server(LineProtocolServer.Limits.DEFAULT);
    String head =
        "POST /api/v2/write?bucket=iot&precision=s HTTP/1.1\r\nHost: x\r\nAuthorization: Token "
            + PASSWORD
            + "\r\nX-Padding: "
            + "x".repeat(4096);
    List<Socket> slow = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      slow.add(connect(server, head.substring(0, 1)));
    }
    AtomicInteger rounds = new AtomicInteger(1);
    CountDownLatch trickling = new CountDownLatch(2);
    trickle.scheduleAtFixedRate(
        () -> {
          char next = head.charAt(rounds.getAndIncrement() % head.length());
          for (Socket socket : slow) {
            try {
              socket.getOutputStream().write(next);
            } catch (IOException cutOff) {
              // the server cut it off at its header deadline
            }
          }
          trickling.countDown();
        },
        300,
        300,
        TimeUnit.MILLISECONDS);
    assertThat(trickling.await(30, TimeUnit.SECONDS)).isTrue();
    // Answered well before the slow clients' deadline (the request's timeout is 30 seconds).
    assertWrites(server, 0);
    assertThat(rows("SELECT device, value FROM iot.readings")).containsExactly(List.of("d1", 1.0));
  }
}
