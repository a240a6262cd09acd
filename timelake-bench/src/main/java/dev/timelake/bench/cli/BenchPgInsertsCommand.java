package dev.timelake.bench.cli;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.server.Credentials;
import dev.timelake.server.LineProtocolServer;
import dev.timelake.server.PgServer;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * Measures one-row INSERTs (or pgjdbc batches, or COPYs) over pgjdbc on one connection, with and
 * without the hot tier.
 */
@Command(
    name = "pg-inserts",
    description = {
      "Measures one-row INSERTs over the PostgreSQL protocol: pgjdbc on one connection sends a"
          + " prepared INSERT INTO bench_pg.readings VALUES (?, ?, ?) (tag, time, value; the table"
          + " of the warehouse dropped first) and waits for each answer, as a loop of a client"
          + " application does: into a server on 127.0.0.1 with its hot tier (answered once in"
          + " the log) and without (answered once committed), and with --questdb into QuestDB's"
          + " PostgreSQL wire. Prints inserts per second and latencies of each, and checks that"
          + " every row is stored."
    },
    footer = {"%nExample:", "  timelake --warehouse ./bench-pg bench pg-inserts --inserts 10000"})
final class BenchPgInsertsCommand implements Callable<Integer> {
  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(
      names = "--inserts",
      paramLabel = "N",
      description = "Inserts measured, after 200 warm-up ones (default 10000).")
  private int inserts = 10_000;

  @Option(
      names = "--inserts-without-tier",
      paramLabel = "N",
      description = "Inserts measured without the hot tier, where each is a commit (default 200).")
  private int insertsWithoutTier = 200;

  @Option(
      names = "--batch",
      paramLabel = "N",
      description =
          "Sends the inserts as pgjdbc batches of N (addBatch, executeBatch: pipelined, one"
              + " answer per batch waited for) instead of one at a time (default 1).")
  private int batchSize = 1;

  @Option(
      names = "--copy",
      paramLabel = "N",
      description =
          "Sends the rows as COPY … FROM STDIN (FORMAT csv) of N rows each (pgjdbc's CopyManager,"
              + " each waited for) instead of INSERTs; QuestDB, which has no COPY FROM STDIN, gets"
              + " them as pgjdbc batches of N (default 0: INSERTs).")
  private int copyRows;

  @Option(
      names = "--hot-tier",
      paramLabel = "on|off|both",
      description = "Measures the server with its hot tier, without it, or both (default both).")
  private String hotTier = "both";

  @Option(
      names = "--questdb",
      description =
          "Also sends the inserts to QuestDB's PostgreSQL wire (QuestDB in a child JVM, on"
              + " 127.0.0.1), after the Timelake runs.")
  private boolean questdb;

  private static final int WARM_UP = 200;

  @Override
  public Integer call() throws Exception {
    if (inserts < 1 || insertsWithoutTier < 1 || batchSize < 1 || copyRows < 0) {
      throw TimelakeException.validation(
          "--inserts, --inserts-without-tier and --batch are at least 1, --copy at least 0");
    }
    if (copyRows > 0 && batchSize > 1) {
      throw TimelakeException.validation("--copy and --batch are ways to send rows: give one");
    }
    if (!List.of("on", "off", "both").contains(hotTier)) {
      throw TimelakeException.validation("--hot-tier is on, off or both, not '%s'", hotTier);
    }
    boolean complete = true;
    for (String mode : hotTier.equals("both") ? List.of("off", "on") : List.of(hotTier)) {
      complete &= timelake(mode.equals("on"));
    }
    if (questdb) {
      complete &= questdb();
    }
    return complete ? 0 : 1;
  }

  /** One run against a Timelake server; true when every row is stored. */
  private boolean timelake(boolean withHotTier) throws Exception {
    String password = UUID.randomUUID().toString();
    int measured = withHotTier ? inserts : insertsWithoutTier;
    try (Lake lake = bench.main.openLake()) {
      lake.dropTable(dev.timelake.TableName.parse("bench_pg.readings"));
      try (Session session = lake.newSession()) {
        session
            .sql(
                "CREATE TABLE bench_pg.readings (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                    + " WITH (time_column = 'time', series_key = 'tag')")
            .close();
      }
      InetSocketAddress loopback = new InetSocketAddress("127.0.0.1", 0);
      Credentials credentials = new Credentials(null, password);
      // The hot tier opens with the server's HTTP port, as `timelake serve` runs it.
      LineProtocolServer http =
          withHotTier
              ? LineProtocolServer.start(
                  lake,
                  loopback,
                  credentials,
                  java.util.Optional.empty(),
                  java.util.Optional.of(dev.timelake.server.HotTierSettings.DEFAULT))
              : null;
      double[] figures;
      try (PgServer pg = PgServer.start(lake, loopback, credentials);
          Connection connection =
              DriverManager.getConnection(
                  "jdbc:postgresql://127.0.0.1:" + pg.port() + "/timelake", "bench", password)) {
        figures =
            copyRows > 0
                ? copy(connection, "COPY bench_pg.readings FROM STDIN (FORMAT csv)", measured)
                : run(connection, "INSERT INTO bench_pg.readings VALUES (?, ?, ?)", measured);
      } finally {
        if (http != null) {
          http.close(); // the hot tier commits what it holds
        }
      }
      long stored;
      try (Session session = lake.newSession();
          QueryResult count = session.sql("SELECT count(*) FROM bench_pg.readings")) {
        stored = ((Number) count.rows().get(0).get(0)).longValue();
      }
      report(
          withHotTier ? "Timelake, hot tier on" : "Timelake, hot tier off",
          figures,
          measured,
          stored);
      return stored == WARM_UP + measured;
    }
  }

  /** One run against QuestDB's PostgreSQL wire; true when its table shows every row. */
  private boolean questdb() throws Exception {
    try (dev.timelake.bench.QuestdbServer server =
            dev.timelake.bench.QuestdbServer.start(
                java.nio.file.Path.of(System.getProperty("java.io.tmpdir")), false);
        Connection connection = server.connect()) {
      try (Statement statement = connection.createStatement()) {
        statement.execute(
            "CREATE TABLE readings (tag SYMBOL, time TIMESTAMP, value DOUBLE)"
                + " TIMESTAMP(time) PARTITION BY DAY WAL");
      }
      if (copyRows > 0) {
        batchSize = copyRows;
      }
      double[] figures = run(connection, "INSERT INTO readings VALUES (?, ?, ?)", inserts);
      long stored = 0;
      long waiting = System.nanoTime();
      try (Statement statement = connection.createStatement()) {
        while (System.nanoTime() - waiting < 60_000_000_000L && stored < WARM_UP + inserts) {
          try (java.sql.ResultSet count = statement.executeQuery("SELECT count(*) FROM readings")) {
            count.next();
            stored = count.getLong(1);
          }
          Thread.sleep(50);
        }
      }
      report("QuestDB " + dev.timelake.bench.QuestdbServer.version(), figures, inserts, stored);
      return stored == WARM_UP + inserts;
    }
  }

  /**
   * Sends the warm-up inserts, then {@code count} measured ones, each waited for; returns the
   * measured seconds and the latencies' median and 99th percentile in ms.
   */
  private double[] run(Connection connection, String sql, int count) throws SQLException {
    long[] latencies = new long[count];
    long started = 0;
    try (PreparedStatement insert = connection.prepareStatement(sql)) {
      long sent = System.nanoTime();
      for (int i = 0; i < WARM_UP + count; i++) {
        if (i == WARM_UP) {
          started = System.nanoTime();
          sent = started;
        }
        insert.setString(1, "tag-" + (i % 100));
        insert.setTimestamp(2, new Timestamp(1_767_225_600_000L + i * 1000L));
        insert.setDouble(3, i * 0.5);
        if (batchSize == 1) {
          insert.executeUpdate();
        } else {
          insert.addBatch();
          if ((i + 1) % batchSize != 0 && i + 1 != WARM_UP && i + 1 != WARM_UP + count) {
            continue;
          }
          insert.executeBatch();
        }
        // A batch's inserts each wait as long as the batch took.
        long answered = System.nanoTime();
        for (int j = Math.max(WARM_UP, i + 1 - batchSize); j <= i; j++) {
          if (j >= WARM_UP && latencies[j - WARM_UP] == 0) {
            latencies[j - WARM_UP] = answered - sent;
          }
        }
        sent = answered;
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Arrays.sort(latencies);
    return new double[] {
      seconds, latencies[count / 2] / 1e6, latencies[Math.min(count - 1, count * 99 / 100)] / 1e6
    };
  }

  /**
   * Sends the warm-up rows, then {@code count} measured ones, as COPYs of {@code --copy} rows each
   * waited for; returns what {@link #run} returns, each row waiting as long as its COPY took.
   */
  private double[] copy(Connection connection, String sql, int count)
      throws SQLException, java.io.IOException {
    org.postgresql.copy.CopyManager copies =
        connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
    long[] latencies = new long[count];
    long started = 0;
    int i = 0;
    while (i < WARM_UP + count) {
      if (i == WARM_UP) {
        started = System.nanoTime();
      }
      int end = Math.min(i < WARM_UP ? WARM_UP : WARM_UP + count, i + copyRows);
      StringBuilder csv = new StringBuilder();
      for (int row = i; row < end; row++) {
        csv.append("tag-")
            .append(row % 100)
            .append(',')
            .append(java.time.Instant.ofEpochMilli(1_767_225_600_000L + row * 1000L))
            .append(',')
            .append(row * 0.5)
            .append('\n');
      }
      long sent = System.nanoTime();
      copies.copyIn(sql, new java.io.StringReader(csv.toString()));
      long took = System.nanoTime() - sent;
      for (int row = Math.max(i, WARM_UP); row < end; row++) {
        latencies[row - WARM_UP] = took;
      }
      i = end;
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Arrays.sort(latencies);
    return new double[] {
      seconds, latencies[count / 2] / 1e6, latencies[Math.min(count - 1, count * 99 / 100)] / 1e6
    };
  }

  private void report(String target, double[] figures, int count, long stored) {
    bench
        .main
        .streams()
        .out()
        .printf(
            "%-24s %,9.0f inserts/s  (%,d%s in %.2f s; latency median %.2f ms, p99 %.2f ms;"
                + " stored %,d of %,d rows)%n",
            target,
            count / figures[0],
            count,
            copyRows > 0 && !target.startsWith("QuestDB")
                ? " in COPYs of " + copyRows
                : batchSize == 1 ? "" : " in batches of " + batchSize,
            figures[0],
            figures[1],
            figures[2],
            stored,
            WARM_UP + count);
    bench.main.streams().out().flush();
  }
}
