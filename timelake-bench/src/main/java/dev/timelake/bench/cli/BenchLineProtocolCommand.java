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
          + " TIME), into bench_lp.readings of the warehouse (dropped first). Prints readings per second, request"
          + " latencies, and checks that the table holds every reading sent."
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

  @Override
  public Integer call() throws Exception {
    if (clients < 1 || lines < 1 || requests < 1 || tags < 1) {
      throw TimelakeException.validation(
          "--clients, --lines, --requests and --tags must be at least 1");
    }
    Main main = bench.main;
    String password = UUID.randomUUID().toString();
    List<byte[]> bodies = new ArrayList<>();
    for (int request = 0; request < requests + 2; request++) {
      bodies.add(body(request));
    }
    try (Lake lake = main.openLake();
        LineProtocolServer server =
            LineProtocolServer.start(
                lake, new InetSocketAddress("127.0.0.1", 0), new Credentials(null, password))) {
      lake.dropTable(TABLE); // each run measures creating and filling it
      HttpClient http = HttpClient.newHttpClient();
      URI uri =
          URI.create(
              "http://127.0.0.1:" + server.port() + "/api/v2/write?bucket=bench_lp&precision=ns");
      post(http, uri, password, bodies.get(0));
      post(http, uri, password, bodies.get(1));
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
                    post(http, uri, password, bodies.get(request));
                    latencies.add(System.nanoTime() - sent);
                  }
                  return null;
                }));
      }
      for (Future<?> client : running) {
        client.get();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      pool.shutdown();
      long expected = (long) (requests + 2) * lines;
      long stored;
      try (Session session = lake.newSession();
          QueryResult count = session.sql("SELECT count(*) FROM bench_lp.readings")) {
        stored = ((Number) count.rows().get(0).get(0)).longValue();
      }
      List<Long> sorted = new ArrayList<>(latencies);
      Collections.sort(sorted);
      main.streams()
          .out()
          .printf(
              "%d requests × %d lines, %d clients: %.2f s, %,.0f readings/s; request latency"
                  + " median %.0f ms, p90 %.0f ms; stored %,d of %,d readings%n",
              requests,
              lines,
              clients,
              seconds,
              requests * (double) lines / seconds,
              sorted.get(sorted.size() / 2) / 1e6,
              sorted.get((int) (sorted.size() * 0.9)) / 1e6,
              stored,
              expected);
      main.streams().out().flush();
      return stored == expected ? 0 : 1;
    }
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

  private static void post(HttpClient http, URI uri, String password, byte[] body)
      throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri)
                .header("Authorization", "Token " + password)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 204) {
      throw TimelakeException.validation(
          "The server answered %d: %s", response.statusCode(), response.body());
    }
  }
}
