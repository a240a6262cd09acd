package dev.timelake.bench.cli;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.cli.Main;
import dev.timelake.server.Credentials;
import dev.timelake.server.LineProtocolServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Measures line-protocol ingest over HTTP: concurrent clients, fixed-size requests. */
@Command(
    name = "line-protocol",
    description = {
      "Measures line-protocol ingest: a server on 127.0.0.1 (as `timelake serve` runs it) and"
          + " CLIENTS concurrent HTTP clients in this process posting REQUESTS requests of LINES"
          + " lines each, one reading per line in the IIoT shape (readings,site=…,tag=… value=…"
          + " TIME), into bench_lp.readings of the warehouse (dropped first): with and without the"
          + " server's hot tier, and with --questdb into QuestDB's line protocol over HTTP too."
          + " Prints readings per second and request latencies of each, and checks that every"
          + " reading sent is stored."
    },
    footer = {
      "%nExample:",
      "  timelake --warehouse ./bench-lp bench line-protocol --clients 16 --lines 10000"
    })
final class BenchLineProtocolCommand implements Callable<Integer> {
  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(names = "--clients", paramLabel = "N", description = "Clients at once (default 16).")
  private int clients = 16;

  @Option(names = "--lines", paramLabel = "N", description = "Lines per request (default 10000).")
  private int lines = 10_000;

  @Option(
      names = "--requests",
      paramLabel = "N",
      description = "Requests measured, after 2 warm-up ones (default 160).")
  private int requests = 160;

  @Option(names = "--tags", paramLabel = "N", description = "Series (default 500).")
  private int tags = 500;

  @Option(
      names = "--hot-tier",
      paramLabel = "on|off|both",
      description =
          "Measures the server with its hot tier (answers once in the log), without it (answers"
              + " once committed), or both, one after the other (default both).")
  private String hotTier = "both";

  @Option(
      names = "--questdb",
      description =
          "Also posts the same requests to QuestDB's line protocol over HTTP (QuestDB in a child"
              + " JVM, on 127.0.0.1), after the Timelake runs.")
  private boolean questdb;

  @Override
  public Integer call() throws Exception {
    if (clients < 1 || lines < 1 || requests < 1 || tags < 1) {
      throw TimelakeException.validation(
          "--clients, --lines, --requests and --tags must be at least 1");
    }
    if (!List.of("on", "off", "both").contains(hotTier)) {
      throw TimelakeException.validation("--hot-tier is on, off or both, not '%s'", hotTier);
    }
    List<byte[]> bodies = new ArrayList<>();
    for (int request = 0; request < requests + 2; request++) {
      bodies.add(body(request));
    }
    boolean complete = true;
    for (String mode : hotTier.equals("both") ? List.of("off", "on") : List.of(hotTier)) {
      complete &= timelake(bodies, mode.equals("on"));
    }
    if (questdb) {
      complete &= questdb(bodies);
    }
    return complete ? 0 : 1;
  }

  /** One run against a Timelake server, with or without its hot tier; true when all is stored. */
  private boolean timelake(List<byte[]> bodies, boolean withHotTier) throws Exception {
    Main main = bench.main;
    String password = UUID.randomUUID().toString();
    long expected = (long) (requests + 2) * lines;
    Run run;
    long committing;
    try (Lake lake = main.openLake()) {
      lake.dropTable(TABLE); // each run measures creating and filling it
      LineProtocolServer server =
          LineProtocolServer.start(
              lake,
              new InetSocketAddress("127.0.0.1", 0),
              new Credentials(null, password),
              java.util.Optional.empty(),
              withHotTier
                  ? java.util.Optional.of(dev.timelake.server.HotTierSettings.DEFAULT)
                  : java.util.Optional.empty());
      try {
        run =
            run(
                bodies,
                URI.create(
                    "http://127.0.0.1:"
                        + server.port()
                        + "/api/v2/write?bucket=bench_lp&precision=ns"),
                "Token " + password);
      } finally {
        long closing = System.nanoTime();
        server.close(); // the hot tier commits what it holds
        committing = System.nanoTime() - closing;
      }
      long stored;
      try (Session session = lake.newSession();
          QueryResult count = session.sql("SELECT count(*) FROM bench_lp.readings")) {
        stored = ((Number) count.rows().get(0).get(0)).longValue();
      }
      report(
          withHotTier ? "Timelake, hot tier on" : "Timelake, hot tier off",
          run,
          String.format(
              "; then %.2f s to commit what the tier held and stop; stored %,d of %,d readings",
              committing / 1e9, stored, expected));
      return stored == expected;
    }
  }

  /** One run against QuestDB's line protocol over HTTP; true when QuestDB holds every reading. */
  private boolean questdb(List<byte[]> bodies) throws Exception {
    long expected = (long) (requests + 2) * lines;
    try (dev.timelake.bench.QuestdbServer server =
        dev.timelake.bench.QuestdbServer.start(
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir")), true)) {
      Run run =
          run(
              bodies,
              URI.create("http://127.0.0.1:" + server.httpPort() + "/write?precision=n"),
              null);
      // QuestDB applies its write-ahead log to the table after answering: wait until it shows.
      long waiting = System.nanoTime();
      long stored = 0;
      try (java.sql.Connection connection = server.connect();
          java.sql.Statement statement = connection.createStatement()) {
        while (System.nanoTime() - waiting < 120_000_000_000L) {
          try (java.sql.ResultSet count = statement.executeQuery("SELECT count(*) FROM readings")) {
            count.next();
            stored = count.getLong(1);
          }
          if (stored >= expected) {
            break;
          }
          Thread.sleep(50);
        }
      }
      report(
          "QuestDB " + dev.timelake.bench.QuestdbServer.version(),
          run,
          String.format(
              "; then %.2f s until its table showed them; stored %,d of %,d readings",
              (System.nanoTime() - waiting) / 1e9, stored, expected));
      return stored == expected;
    }
  }

  /** What the clients measured: the time for the measured requests and each one's latency. */
  private record Run(double seconds, List<Long> latencies) {}

  /** Posts the two warm-up requests, then the rest from {@code clients} clients at once. */
  private Run run(List<byte[]> bodies, URI uri, String authorization) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    post(http, uri, authorization, bodies.get(0));
    post(http, uri, authorization, bodies.get(1));
    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger(2);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    long start = System.nanoTime();
    List<Future<?>> running = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      running.add(
          pool.submit(
              () -> {
                int request;
                while ((request = next.getAndIncrement()) < bodies.size()) {
                  long sent = System.nanoTime();
                  post(http, uri, authorization, bodies.get(request));
                  latencies.add(System.nanoTime() - sent);
                }
                return null;
              }));
    }
    try {
      for (Future<?> client : running) {
        client.get();
      }
    } finally {
      pool.shutdown();
    }
    return new Run((System.nanoTime() - start) / 1e9, new ArrayList<>(latencies));
  }

  private void report(String target, Run run, String rest) {
    List<Long> sorted = new ArrayList<>(run.latencies());
    Collections.sort(sorted);
    bench
        .main
        .streams()
        .out()
        .printf(
            "%s: %d requests × %d lines, %d clients: %.2f s, %,.0f readings/s; request latency"
                + " median %.0f ms, p90 %.0f ms, p99 %.0f ms%s%n",
            target,
            requests,
            lines,
            clients,
            run.seconds(),
            requests * (double) lines / run.seconds(),
            sorted.get(sorted.size() / 2) / 1e6,
            sorted.get((int) (sorted.size() * 0.9)) / 1e6,
            sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99))) / 1e6,
            rest);
    bench.main.streams().out().flush();
  }

  private static final dev.timelake.TableName TABLE =
      dev.timelake.TableName.parse("bench_lp.readings");

  /** 2026-01-01, where the readings start. */
  private static final long BASE_SECONDS = 1_767_225_600L;

  /** Request {@code request}: {@code lines} readings, one per series per second. */
  private byte[] body(int request) {
    StringBuilder text = new StringBuilder(lines * 60);
    long first = (long) request * lines;
    for (int i = 0; i < lines; i++) {
      long reading = first + i;
      long second = BASE_SECONDS + reading / tags;
      text.append("readings,site=s")
          .append(reading % tags % 4)
          .append(",tag=t")
          .append(reading % tags)
          .append(" value=")
          .append((reading * 7919) % 100_000 / 100.0)
          .append(' ')
          .append(second)
          .append("000000000\n");
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void post(HttpClient http, URI uri, String authorization, byte[] body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 204) {
      throw TimelakeException.validation(
          "The server answered %d: %s", response.statusCode(), response.body());
    }
  }
}
