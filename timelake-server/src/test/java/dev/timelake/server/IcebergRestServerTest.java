package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Iceberg REST catalog protocol in front of a warehouse's catalog: lakes opened with {@code
 * type=rest} create, append (two at once), read, maintain, refresh rollups, refuse ordered-index
 * conflicts and drop through it, with Iceberg's own REST client; clients that send slowly neither
 * hold others up nor keep their connection past the deadline. What clients may create and change is
 * in {@link IcebergRestConfinementTest}.
 */
class IcebergRestServerTest extends WithRestCatalog {
  private Lake client() {
    return Lake.open(warehouse, Map.of("type", "rest", "uri", server.uri().toString()));
  }

  private static List<List<Object>> rows(Lake lake, String sql) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private static void append(Lake lake, int from, int count, double value) {
    var append = lake.table("iot.r").newAppend();
    for (int i = from; i < from + count; i++) {
      append.row(
          "t" + (i % 3),
          Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i).atOffset(ZoneOffset.UTC),
          value);
    }
    append.commit();
  }

  @Test
  void withCredentialsOnlyClientsPresentingThemAreServed() throws Exception {
    restart(
        java.util.Optional.of(new Credentials("tl", "secret")), IcebergRestServer.REQUEST_DEADLINE);
    String uri = server.uri().toString();
    assertThatThrownBy(() -> Lake.open(warehouse, Map.of("type", "rest", "uri", uri)).close())
        .hasMessageContaining("Wrong or missing credentials");
    assertThatThrownBy(
            () ->
                Lake.open(warehouse, Map.of("type", "rest", "uri", uri, "token", "tl:wrong"))
                    .close())
        .hasMessageContaining("Wrong or missing credentials");
    try (Lake lake =
        Lake.open(warehouse, Map.of("type", "rest", "uri", uri, "token", "tl:secret"))) {
      lake.createTable(TableDefinition.builder("d.tags").column("tag", ColumnType.VARCHAR).build());
      assertThat(lake.tables()).contains(TableName.parse("d.tags"));
    }
  }

  @Test
  void lakesShareTablesThroughTheRestCatalog() throws Exception {
    try (Lake a = client();
        Lake b = client()) {
      a.createTable(
          TableDefinition.builder("iot.r")
              .column("tag", ColumnType.VARCHAR)
              .column("time", ColumnType.TIMESTAMPTZ)
              .column("value", ColumnType.DOUBLE)
              .timeColumn("time")
              .seriesKey("tag")
              .option("auto-maintain", "false")
              .build());
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<?>> writes = new ArrayList<>();
        writes.add(pool.submit(() -> append(a, 0, 100, 1.0)));
        writes.add(pool.submit(() -> append(b, 50, 100, 2.0)));
        for (Future<?> write : writes) {
          write.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(rows(b, "SELECT count(*) FROM iot.r")).containsExactly(List.of(150L));
      b.table("iot.r").newMaintenance().run();
      assertThat(rows(a, "SELECT count(*) FROM iot.r")).containsExactly(List.of(150L));
      try (Session session = a.newSession();
          QueryResult ignored =
              session.sql(
                  "CREATE MATERIALIZED ROLLUP iot.r_1m AS SELECT tag, time_bucket(INTERVAL '1"
                      + " minute', time) AS bucket, count(*) AS n FROM iot.r GROUP BY tag, bucket"
                      + " WITH (refresh_interval = 'off')")) {
        // created
      }
      append(b, 1_000, 60, 3.0);
      b.refreshRollup(TableName.parse("iot.r_1m"));
      assertThat(rows(a, "SELECT sum(n)::BIGINT FROM iot.r_1m")).containsExactly(List.of(210L));

      a.createTable(
          TableDefinition.builder("market.bars")
              .column("symbol", ColumnType.VARCHAR)
              .column("ts", ColumnType.TIMESTAMPTZ)
              .indexColumn("ts")
              .entityColumns("symbol")
              .indexGranularity("1m")
              .build());
      a.table("market.bars").newAppend().row("A", Instant.EPOCH.atOffset(ZoneOffset.UTC)).commit();
      assertThatThrownBy(
              () ->
                  b.table("market.bars")
                      .newAppend()
                      .row("A", Instant.EPOCH.plusSeconds(30).atOffset(ZoneOffset.UTC))
                      .commit())
          .isInstanceOf(IndexIntervalOverlapException.class);

      assertThat(a.dropTable(TableName.parse("market.bars"))).isTrue();
      assertThat(b.findTable(TableName.parse("market.bars"))).isEmpty();
      // The embedded catalog behind the server holds what the REST clients made.
      try (Lake local = Lake.open(warehouse)) {
        assertThat(local.tables()).contains(TableName.parse("iot.r"));
      }
    }
  }

  @Test
  void slowClientsDoNotKeepOthersWaiting() throws Exception {
    ScheduledExecutorService pace = Executors.newScheduledThreadPool(2);
    CountDownLatch sending = new CountDownLatch(20);
    List<SlowClient> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        // 400 bytes at one per 100 ms: 40 s of headers, more than the server's deadline.
        slow.add(
            new SlowClient(
                server, "GET /v1/config HTTP/1.1\r\nX-Slow: " + "s".repeat(400), pace, sending));
      }
      assertThat(sending.await(60, TimeUnit.SECONDS)).as("every slow client is sending").isTrue();

      assertThat(config(server).statusCode()).isEqualTo(200);
      assertThat(slow)
          .as("answered while all slow clients still send")
          .allMatch(SlowClient::sending);
    } finally {
      pace.shutdownNow();
      for (SlowClient client : slow) {
        client.close();
      }
    }
  }

  @Test
  void closesTheConnectionOfAClientSlowerThanTheDeadline() throws Exception {
    restart(java.util.Optional.empty(), Duration.ofSeconds(1));
    ScheduledExecutorService pace = Executors.newScheduledThreadPool(2);
    CountDownLatch sending = new CountDownLatch(2);
    // Each sends for over 30 s unless the server closes its connection.
    try (SlowClient headers =
            new SlowClient(
                server, "GET /v1/config HTTP/1.1\r\nX-Slow: " + "s".repeat(300), pace, sending);
        SlowClient body =
            new SlowClient(
                server,
                "POST /v1/namespaces HTTP/1.1\r\nContent-Length: 400\r\n\r\n" + "{".repeat(300),
                pace,
                sending)) {
      assertThat(headers.end()).succeedsWithin(Duration.ofSeconds(30)).isEqualTo("closed");
      assertThat(body.end()).succeedsWithin(Duration.ofSeconds(30)).isEqualTo("closed");
    } finally {
      pace.shutdownNow();
    }
    assertThat(config(server).statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> config(IcebergRestServer server) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(server.uri().resolve("/v1/config"))
                .timeout(Duration.ofSeconds(20))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A client that sends its request one byte per 100 ms on its own connection and never ends it;
   * {@code started} counts down once its first two bytes are out.
   */
  private static final class SlowClient implements AutoCloseable {
    private final Socket socket;
    private final byte[] request;
    private final CountDownLatch started;
    private final AtomicInteger sent = new AtomicInteger();
    private volatile boolean cutOff;

    SlowClient(
        IcebergRestServer server,
        String request,
        ScheduledExecutorService pace,
        CountDownLatch started)
        throws IOException {
      this.socket = new Socket(InetAddress.getLoopbackAddress(), server.uri().getPort());
      this.request = request.getBytes(StandardCharsets.US_ASCII);
      this.started = started;
      pace.scheduleAtFixedRate(this::sendOne, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void sendOne() {
      int next = sent.get();
      if (next == request.length || cutOff) {
        // An exception is how a task ends its own fixed-rate schedule.
        throw new java.util.concurrent.CancellationException("done sending");
      }
      try {
        socket.getOutputStream().write(request[next]);
        if (sent.incrementAndGet() == 2) {
          started.countDown();
        }
      } catch (IOException e) {
        cutOff = true;
      }
    }

    /** True while it has more to send and its connection is open. */
    boolean sending() {
      return !cutOff && sent.get() < request.length;
    }

    /** How its connection ends: closed by the server, or answered (its first byte). */
    CompletableFuture<String> end() {
      return CompletableFuture.supplyAsync(
          () -> {
            try {
              int first = socket.getInputStream().read();
              return first < 0 ? "closed" : "answered: " + (char) first;
            } catch (IOException e) {
              return "closed"; // reset
            }
          });
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
