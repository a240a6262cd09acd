package dev.timelake.bench.cli;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.server.HotTierSettings;
import dev.timelake.server.StandaloneHotTier;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Measures small appends through the Java API, held in a hot tier and committed one by one. */
@Command(
    name = "appends",
    description = {
      "Measures small appends through the Java API, as an embedded writer makes them: each"
          + " Append of --rows rows (Append.row with a String tag, an Instant and a Double, into"
          + " bench_appends.readings, dropped first) committed and waited for, one after the"
          + " other: held in a hot tier opened on the lake (Append.holdIn, answered once in its"
          + " log) and committed one by one (a snapshot each). Prints appends and rows per"
          + " second and latencies of each, and checks that every row is stored."
    },
    footer = {"%nExample:", "  timelake --warehouse ./bench-appends bench appends --appends 5000"})
final class BenchAppendsCommand implements Callable<Integer> {
  private static final TableName TABLE = TableName.parse("bench_appends.readings");
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final int WARM_UP = 100;

  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(
      names = "--appends",
      paramLabel = "N",
      description = "Appends measured with the hot tier, after 100 warm-up ones (default 5000).")
  private int appends = 5_000;

  @Option(
      names = "--appends-without-tier",
      paramLabel = "N",
      description = "Appends measured without it, each a commit (default 200).")
  private int appendsWithoutTier = 200;

  @Option(
      names = "--rows",
      paramLabel = "N",
      description = "Rows per append, of 100 tags one second apart (default 10).")
  private int rows = 10;

  @Option(
      names = "--queries",
      paramLabel = "N",
      description =
          "Then measures N queries of a session on the tier while appends are held (a group-by"
              + " over the table, after --appends-per-query held appends each): reading the held"
              + " rows beside the committed ones, and having the tier commit them first as it did"
              + " before queries read them (default 0: no queries).")
  private int queries;

  @Option(
      names = "--appends-per-query",
      paramLabel = "N",
      description = "Held appends between two queries of --queries (default 1).")
  private int appendsPerQuery = 1;

  @Override
  public Integer call() throws Exception {
    if (appends < 1
        || appendsWithoutTier < 1
        || rows < 1
        || rows > 100_000
        || queries < 0
        || appendsPerQuery < 1) {
      throw TimelakeException.validation(
          "--appends, --appends-without-tier and --appends-per-query are at least 1, --rows"
              + " from 1 to 100000, --queries at least 0");
    }
    boolean complete = run(false) & run(true);
    if (queries > 0) {
      queries(true);
      queries(false);
    }
    return complete ? 0 : 1;
  }

  /**
   * Queries of a session on the tier between held appends: reading what is held, or having it
   * committed first.
   */
  private void queries(boolean readHeld) throws Exception {
    nextRow = 0;
    try (Lake lake = bench.main.openLake()) {
      createTable(lake);
      try (StandaloneHotTier tier = StandaloneHotTier.open(lake, HotTierSettings.DEFAULT);
          Session session = lake.newSession()) {
        dev.timelake.HeldWrites writes = tier.heldWrites("bench");
        session.holdWritesIn(writes);
        long[] latencies = new long[queries];
        for (int q = 0; q < queries; q++) {
          for (int a = 0; a < appendsPerQuery; a++) {
            append(lake, Optional.of(writes));
          }
          long sent = System.nanoTime();
          if (!readHeld) {
            writes.commitHeld(TABLE);
          }
          try (QueryResult result =
              session.sql(
                  "SELECT tag, avg(value), count(*) FROM "
                      + TABLE
                      + " GROUP BY tag ORDER BY tag")) {
            result.rows();
          }
          latencies[q] = System.nanoTime() - sent;
        }
        Arrays.sort(latencies);
        bench
            .main
            .streams()
            .out()
            .printf(
                "%-34s query median %.1f ms, p90 %.1f ms (%,d queries, %d held appends of %d rows"
                    + " before each); %,d snapshots%n",
                readHeld ? "queries reading what is held" : "queries committing it first",
                latencies[queries / 2] / 1e6,
                latencies[queries * 9 / 10] / 1e6,
                queries,
                appendsPerQuery,
                rows,
                lake.table(TABLE).info().snapshots().size());
        bench.main.streams().out().flush();
      }
    }
  }

  private static void createTable(Lake lake) {
    lake.dropTable(TABLE);
    try (Session session = lake.newSession()) {
      session
          .sql(
              "CREATE TABLE "
                  + TABLE
                  + " (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                  + " WITH (time_column = 'time', series_key = 'tag', auto_maintain = false)")
          .close();
    }
  }

  /** One run, with or without a tier; true when every row is stored. */
  private boolean run(boolean held) throws Exception {
    nextRow = 0;
    int measured = held ? appends : appendsWithoutTier;
    double[] figures;
    try (Lake lake = bench.main.openLake()) {
      createTable(lake);
      if (held) {
        try (StandaloneHotTier tier = StandaloneHotTier.open(lake, HotTierSettings.DEFAULT)) {
          figures = appendAll(lake, Optional.of(tier.heldWrites("bench")), measured);
        } // closing the tier commits what it holds
      } else {
        figures = appendAll(lake, Optional.empty(), measured);
      }
      long stored;
      try (Session session = lake.newSession();
          QueryResult count = session.sql("SELECT count(*) FROM " + TABLE)) {
        stored = ((Number) count.rows().get(0).get(0)).longValue();
      }
      long sent = (long) (WARM_UP + measured) * rows;
      bench
          .main
          .streams()
          .out()
          .printf(
              "%-34s %,8.0f appends/s %,10.0f rows/s  (%,d of %,d rows in %.2f s; latency median"
                  + " %.2f ms, p99 %.2f ms; stored %,d of %,d rows)%n",
              held ? "Append.holdIn(hot tier)" : "Append.commit (a snapshot each)",
              measured / figures[0],
              (double) measured * rows / figures[0],
              measured,
              rows,
              figures[0],
              figures[1],
              figures[2],
              stored,
              sent);
      bench.main.streams().out().flush();
      return stored == sent;
    }
  }

  /** The next row's number: each append writes new keys, one second of 100 tags per 100 rows. */
  private long nextRow;

  /**
   * The warm-up appends, then {@code count} measured ones, each waited for; returns the measured
   * seconds and the latencies' median and 99th percentile in ms.
   */
  private double[] appendAll(Lake lake, Optional<dev.timelake.HeldWrites> tier, int count) {
    long[] latencies = new long[count];
    long started = 0;
    for (int i = 0; i < WARM_UP + count; i++) {
      long sent = System.nanoTime();
      if (i == WARM_UP) {
        started = sent;
      }
      append(lake, tier);
      if (i >= WARM_UP) {
        latencies[i - WARM_UP] = System.nanoTime() - sent;
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Arrays.sort(latencies);
    return new double[] {
      seconds, latencies[count / 2] / 1e6, latencies[Math.min(count - 1, count * 99 / 100)] / 1e6
    };
  }

  /** One append of {@code --rows} new rows, held in {@code tier} or committed. */
  private void append(Lake lake, Optional<dev.timelake.HeldWrites> tier) {
    Append append = lake.table(TABLE).newAppend();
    tier.ifPresent(append::holdIn);
    for (int r = 0; r < rows; r++, nextRow++) {
      append.row("tag-" + (nextRow % 100), START.plusSeconds(nextRow / 100), nextRow * 0.5);
    }
    AppendResult result = append.commit();
    AppendResult.Outcome expected =
        tier.isPresent() ? AppendResult.Outcome.HELD : AppendResult.Outcome.COMMITTED;
    if (result.outcome() != expected) {
      throw new IllegalStateException("an append was " + result.outcome() + ", not " + expected);
    }
  }
}
