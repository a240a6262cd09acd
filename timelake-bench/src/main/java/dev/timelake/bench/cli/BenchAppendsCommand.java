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

  @Override
  public Integer call() throws Exception {
    if (appends < 1 || appendsWithoutTier < 1 || rows < 1 || rows > 100_000) {
      throw TimelakeException.validation(
          "--appends and --appends-without-tier are at least 1, --rows from 1 to 100000");
    }
    return run(false) & run(true) ? 0 : 1;
  }

  /** One run, with or without a tier; true when every row is stored. */
  private boolean run(boolean held) throws Exception {
    int measured = held ? appends : appendsWithoutTier;
    double[] figures;
    try (Lake lake = bench.main.openLake()) {
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

  /**
   * The warm-up appends, then {@code count} measured ones, each waited for; returns the measured
   * seconds and the latencies' median and 99th percentile in ms.
   */
  private double[] appendAll(Lake lake, Optional<dev.timelake.HeldWrites> tier, int count) {
    long[] latencies = new long[count];
    long started = 0;
    long row = 0;
    for (int i = 0; i < WARM_UP + count; i++) {
      long sent = System.nanoTime();
      if (i == WARM_UP) {
        started = sent;
      }
      Append append = lake.table(TABLE).newAppend();
      tier.ifPresent(append::holdIn);
      for (int r = 0; r < rows; r++, row++) {
        append.row("tag-" + (row % 100), START.plusSeconds(row / 100), row * 0.5);
      }
      AppendResult result = append.commit();
      AppendResult.Outcome expected =
          tier.isPresent() ? AppendResult.Outcome.HELD : AppendResult.Outcome.COMMITTED;
      if (result.outcome() != expected) {
        throw new IllegalStateException(
            "append " + i + " was " + result.outcome() + ", not " + expected);
      }
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
}
