package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a server with a hot tier while 8 writers send: after a restart every request it
 * answered is committed exactly once, and every other request is there wholly or not at all.
 */
class HotTierCrashTest {
  private static final String PASSWORD = "crash secret";
  private static final int LINES = 50;

  @TempDir Path warehouse;

  /** The child: a server with a hot tier on the warehouse given, its port on standard output. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      Lake lake = Lake.open(Path.of(args[0]));
      LineProtocolServer server =
          LineProtocolServer.start(
              lake,
              new InetSocketAddress("127.0.0.1", 0),
              new Credentials("tl", PASSWORD),
              Optional.empty(),
              Optional.of(new HotTierSettings(2_000, Duration.ofMillis(300), 64L << 20)));
      System.out.println("port " + server.port());
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  @Test
  void everyAnsweredWriteSurvivesAKillOnceAndNoRequestIsHalfThere() throws Exception {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession();
        QueryResult created =
            session.sql(
                "CREATE TABLE iot.readings (writer VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                    + " WITH (time_column = 'time', series_key = 'writer', auto_maintain ="
                    + " false)")) {
      created.message();
    }
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                Child.class.getName(),
                warehouse.toString())
            .redirectErrorStream(true)
            .start();
    int port;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("port ")) {
        // start-up output
      }
      assertThat(line).as("the child's port").isNotNull();
      port = Integer.parseInt(line.substring(5));
    }
    Set<Integer> answered = ConcurrentHashMap.newKeySet();
    AtomicInteger next = new AtomicInteger();
    AtomicBoolean killed = new AtomicBoolean();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    Thread[] writers = new Thread[8];
    for (int w = 0; w < writers.length; w++) {
      writers[w] =
          new Thread(
              () -> {
                while (!killed.get()) {
                  int request = next.getAndIncrement();
                  try {
                    HttpResponse<Void> response =
                        http.send(
                            HttpRequest.newBuilder(
                                    URI.create(
                                        "http://127.0.0.1:"
                                            + port
                                            + "/api/v2/write?bucket=iot&precision=s"))
                                .header("Authorization", "Token " + PASSWORD)
                                .timeout(Duration.ofSeconds(10))
                                .POST(HttpRequest.BodyPublishers.ofString(body(request)))
                                .build(),
                            HttpResponse.BodyHandlers.discarding());
                    if (response.statusCode() == 204) {
                      answered.add(request);
                    }
                  } catch (Exception e) {
                    return; // the server is gone
                  }
                }
              });
      writers[w].start();
    }
    // Killed once some flushes committed and more writes were answered since: the restart must
    // tell the log's committed records from the held ones.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    try (Lake watcher = Lake.open(warehouse)) {
      while ((answered.size() < 300 || watcher.table("iot.readings").info().rows() == 0)
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
    }
    Thread.sleep(100);
    child.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
    child.waitFor();
    killed.set(true);
    for (Thread writer : writers) {
      writer.join();
    }
    assertThat(answered).as("requests answered before the kill").hasSizeGreaterThan(100);

    try (Lake lake = Lake.open(warehouse)) {
      long committedAtTheKill = lake.table("iot.readings").info().rows();
      LineProtocolServer.start(
              lake,
              new InetSocketAddress("127.0.0.1", 0),
              new Credentials("tl", PASSWORD),
              Optional.empty(),
              Optional.of(HotTierSettings.DEFAULT))
          .close(); // commits what the log holds, then stops
      Map<Integer, Long> present = new HashMap<>();
      try (Session session = lake.newSession();
          QueryResult rows =
              session.sql(
                  "SELECT CAST(floor(value / "
                      + LINES
                      + ") AS INTEGER), count(*) FROM iot.readings"
                      + " GROUP BY 1")) {
        for (List<Object> row : rows.rows()) {
          present.put(((Number) row.get(0)).intValue(), ((Number) row.get(1)).longValue());
        }
      }
      for (int request : answered) {
        assertThat(present.get(request))
            .as("lines of answered request " + request)
            .isEqualTo(LINES);
      }
      present.forEach(
          (request, lines) -> assertThat(lines).as("lines of request " + request).isEqualTo(LINES));
      long distinct = present.values().stream().mapToLong(Long::longValue).sum();
      System.out.printf(
          "hot tier crash: %d requests answered, %d rows committed at the kill, %d after the"
              + " restart%n",
          answered.size(), committedAtTheKill, distinct);
      assertThat(lake.table("iot.readings").info().rows())
          .as("rows in the files, copies included")
          .isEqualTo(distinct);
    }
  }

  /** Request {@code request}'s lines: keys no other request writes, values naming the request. */
  private static String body(int request) {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < LINES; i++) {
      lines
          .append("readings,writer=w")
          .append(request % 8)
          .append(" value=")
          .append(request * LINES + i)
          .append(' ')
          .append(1_767_225_600L + (long) request * LINES + i)
          .append('\n');
    }
    return lines.toString();
  }
}
