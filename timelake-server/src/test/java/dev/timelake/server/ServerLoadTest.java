package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One server, 16 clients at once for a fixed time (8 s; {@code -Dtimelake.loadSeconds=N} to
 * change): 8 write line protocol into one table while it is also maintained (a full maintenance
 * every quarter of the time, so at least twice), 8 run a mix of queries over the PostgreSQL
 * protocol. No request fails, every row sent is stored, the answers on an unchanging table equal
 * the embedded session's, and counts on the growing table never go back.
 */
class ServerLoadTest {
  private static final String PASSWORD = "load pw";
  private static final int WRITERS = 8;
  private static final int READERS = 8;
  private static final int LINES = 500;

  /** Queries on plant.reference (written once) and their embedded answers. */
  private static final List<String> REFERENCE_QUERIES =
      List.of(
          "SELECT count(*), sum(value) FROM plant.reference",
          "SELECT tag, count(*), min(value), max(value) FROM plant.reference GROUP BY tag"
              + " ORDER BY tag",
          "SELECT DISTINCT ON (tag) tag, time, value FROM plant.reference ORDER BY tag, time DESC",
          "SELECT time_bucket(INTERVAL '1 hour', time) AS hour, avg(value) FROM plant.reference"
              + " WHERE tag = 't3' GROUP BY hour ORDER BY hour",
          "SELECT * FROM plant.reference WHERE tag IN ('t1', 't7') ORDER BY time DESC, tag"
              + " LIMIT 10");

  @TempDir Path warehouse;

  @Test
  void sixteenClientsWriteAndReadWithoutErrorsOrLostRows() throws Exception {
    long seconds = Long.getLong("timelake.loadSeconds", 8);
    try (Lake lake = Lake.open(warehouse)) {
      writeReference(lake);
      Map<String, List<List<Object>>> expected = new java.util.HashMap<>();
      try (Session session = lake.newSession()) {
        for (String query : REFERENCE_QUERIES) {
          try (QueryResult result = session.sql(query)) {
            expected.put(query, normalize(result.rows()));
          }
        }
      }
      Credentials credentials = new Credentials("tl", PASSWORD);
      try (PgServer pg = PgServer.start(lake, new InetSocketAddress("127.0.0.1", 0), credentials);
          LineProtocolServer http =
              LineProtocolServer.start(lake, new InetSocketAddress("127.0.0.1", 0), credentials)) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicLong sent = new AtomicLong();
        AtomicLong queries = new AtomicLong();
        ExecutorService clients = Executors.newFixedThreadPool(WRITERS + READERS + 1);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          running.add(clients.submit(() -> write(http.port(), writer, deadline, sent, errors)));
        }
        for (int r = 0; r < READERS; r++) {
          int reader = r;
          running.add(
              clients.submit(() -> read(pg.port(), reader, deadline, expected, queries, errors)));
        }
        AtomicLong maintenances = new AtomicLong();
        long every = TimeUnit.SECONDS.toMillis(seconds) / 4;
        running.add(clients.submit(() -> maintain(lake, deadline, every, maintenances, errors)));
        for (Future<?> client : running) {
          client.get(seconds + 120, TimeUnit.SECONDS);
        }
        clients.shutdown();
        assertThat(errors).isEmpty();
        System.out.printf(
            "load: %d s, %d writers sent %,d rows, %d readers ran %,d queries, %d maintenances%n",
            seconds, WRITERS, sent.get(), READERS, queries.get(), maintenances.get());
        assertThat(sent.get()).isPositive();
        assertThat(maintenances.get()).as("full maintenances during the writes").isGreaterThan(1);
        assertThat(queries.get()).isGreaterThan(READERS);
        try (Connection connection = connect(pg.port());
            ResultSet count =
                connection.createStatement().executeQuery("SELECT count(*) FROM iot.live")) {
          count.next();
          assertThat(count.getLong(1)).isEqualTo(sent.get());
        }
      }
    }
  }

  private static void writeReference(Lake lake) {
    var table =
        lake.createTable(
            dev.timelake.TableDefinition.builder(TableName.parse("plant.reference"))
                .column(dev.timelake.Column.required("tag", dev.timelake.ColumnType.VARCHAR))
                .column(dev.timelake.Column.required("time", dev.timelake.ColumnType.TIMESTAMPTZ))
                .column("value", dev.timelake.ColumnType.DOUBLE)
                .timeColumn("time")
                .seriesKey("tag")
                .build());
    java.util.Random random = new java.util.Random(7);
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    for (int batch = 0; batch < 3; batch++) {
      var append = table.newAppend();
      for (int i = 0; i < 2_000; i++) {
        // Overlapping batches: later copies of a (tag, time) replace earlier ones on read.
        append.row(
            "t" + random.nextInt(10),
            start.plusSeconds(60L * random.nextInt(1_000)),
            (double) random.nextInt(1_000));
      }
      append.commit();
    }
  }

  /** Line protocol, each writer its own series: rows never copy one another. */
  private static void write(
      int port,
      int writer,
      long deadline,
      AtomicLong sent,
      ConcurrentLinkedQueue<Throwable> errors) {
    HttpClient http = HttpClient.newHttpClient();
    URI uri = URI.create("http://127.0.0.1:" + port + "/api/v2/write?bucket=iot&precision=s");
    long request = 0;
    try {
      while (System.nanoTime() < deadline && errors.isEmpty()) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
          long second = 1_767_225_600L + request * LINES + i;
          body.append("live,writer=w")
              .append(writer)
              .append(",tag=t")
              .append(i % 20)
              .append(" value=")
              .append(i)
              .append('.')
              .append(writer)
              .append(' ')
              .append(second)
              .append('\n');
        }
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(uri)
                    .header("Authorization", "Token " + PASSWORD)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 204) {
          throw new AssertionError(
              "writer " + writer + ": " + response.statusCode() + " " + response.body());
        }
        sent.addAndGet(LINES);
        request++;
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }

  private static void read(
      int port,
      int reader,
      long deadline,
      Map<String, List<List<Object>>> expected,
      AtomicLong queries,
      ConcurrentLinkedQueue<Throwable> errors) {
    try (Connection connection = connect(port);
        Statement statement = connection.createStatement()) {
      long lastCount = 0;
      int next = reader;
      while (System.nanoTime() < deadline && errors.isEmpty()) {
        String query = REFERENCE_QUERIES.get(next++ % REFERENCE_QUERIES.size());
        try (ResultSet rows = statement.executeQuery(query)) {
          assertThat(normalize(rows)).as(query).isEqualTo(expected.get(query));
        }
        if (next % 3 == 0) {
          try (ResultSet rows =
              statement.executeQuery(
                  "SELECT count(*) FROM (SELECT 1 FROM pg_catalog.pg_class c"
                      + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                      + " WHERE n.nspname = 'iot' AND c.relname = 'live')")) {
            rows.next();
            if (rows.getLong(1) == 1) {
              try (ResultSet count = statement.executeQuery("SELECT count(*) FROM iot.live")) {
                count.next();
                long now = count.getLong(1);
                assertThat(now)
                    .as("rows seen by reader " + reader)
                    .isGreaterThanOrEqualTo(lastCount);
                lastCount = now;
              }
            }
          }
        }
        queries.incrementAndGet();
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }

  /**
   * Full maintenance of the growing table every {@code everyMillis}, while it is written, read and
   * maintained by the server after its commits (a run that loses to that one is refused whole).
   */
  private static void maintain(
      Lake lake,
      long deadline,
      long everyMillis,
      AtomicLong maintenances,
      ConcurrentLinkedQueue<Throwable> errors) {
    try {
      while (errors.isEmpty()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        Thread.sleep(Math.max(0, Math.min(everyMillis, left)));
        if (left <= everyMillis) {
          return; // the load is over: no run after it
        }
        // A run that loses a race to the server's own compactions leaves those rewrites out.
        var table = lake.findTable(TableName.parse("iot.live"));
        if (table.isPresent()) {
          table.get().newMaintenance().run();
          maintenances.incrementAndGet();
        }
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }

  private static Connection connect(int port) throws java.sql.SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + port + "/timelake", "tl", PASSWORD);
  }

  /** Rows as text, so values read through pgjdbc and the embedded session compare. */
  private static List<List<Object>> normalize(List<List<Object>> rows) {
    List<List<Object>> text = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object value : row) {
        values.add(text(value));
      }
      text.add(values);
    }
    return text;
  }

  private static List<List<Object>> normalize(ResultSet rows) throws java.sql.SQLException {
    ResultSetMetaData meta = rows.getMetaData();
    List<List<Object>> text = new ArrayList<>();
    while (rows.next()) {
      List<Object> values = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        Object value = rows.getObject(i);
        if (value instanceof java.sql.Timestamp timestamp) {
          value = timestamp.toInstant();
        }
        values.add(text(value));
      }
      text.add(values);
    }
    return text;
  }

  private static Object text(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof java.time.OffsetDateTime time) {
      return time.toInstant().toString();
    }
    if (value instanceof Instant instant) {
      return instant.toString();
    }
    if (value instanceof Number number) {
      return new java.math.BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
    }
    return value.toString();
  }
}
