package dev.timelake.bench;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What the one-row-per-interval check costs an append (seed 003): the same hourly bars of many
 * instruments appended to a table with a 1-minute index granularity and to one without, turn by
 * turn, after the same history loaded in one append. Inline maintenance is off in both, so the
 * difference is the check (staged pairs, coverage read, commit validation, coverage written).
 */
public final class IndexAppendBenchmark {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  /** The measured figures: the history load and every hourly append, in ms, per table. */
  public record Figures(
      int instruments,
      int historyHours,
      double strictHistoryMs,
      double freeHistoryMs,
      List<Double> strictAppendMs,
      List<Double> freeAppendMs,
      java.util.Optional<dev.timelake.OptimizeReport> optimize,
      double optimizeMs,
      String onConflict,
      List<Double> correctionMs,
      double strictReadMs,
      double freeReadMs) {

    public double strictMedianMs() {
      return median(strictAppendMs);
    }

    public double freeMedianMs() {
      return median(freeAppendMs);
    }

    /** The check's cost as a share of an append without it, by medians. */
    public double overhead() {
      return strictMedianMs() / freeMedianMs() - 1;
    }

    public String render() {
      long hourlyRows = 60L * instruments;
      return String.format(
              Locale.ROOT,
              "instruments %,d; history %,d hours (%,d rows) in one append: strict %.0f ms, without"
                  + " granularity %.0f ms%n"
                  + "hourly appends of %,d rows (%d each): strict median %.0f ms (%.0f k rows/s),"
                  + " without granularity median %.0f ms (%.0f k rows/s); check overhead %+.1f %%%n",
              instruments,
              historyHours,
              hourlyRows * historyHours,
              strictHistoryMs,
              freeHistoryMs,
              hourlyRows,
              strictAppendMs.size(),
              strictMedianMs(),
              hourlyRows / strictMedianMs(),
              freeMedianMs(),
              hourlyRows / freeMedianMs(),
              overhead() * 100)
          + (correctionMs.isEmpty()
              ? ""
              : String.format(
                  Locale.ROOT,
                  "on_conflict = 'replace': %d hourly corrections of %,d rows (1 %% of the series"
                      + " resend their last bar 30 s later): median %.0f ms%n",
                  correctionMs.size(),
                  Math.max(1, instruments / 100),
                  median(correctionMs)))
          + String.format(
              Locale.ROOT,
              "read every row (count and mean per series, best of 3): strict (on_conflict = %s)"
                  + " %.0f ms, without granularity %.0f ms (%.2f×)%n",
              onConflict,
              strictReadMs,
              freeReadMs,
              strictReadMs / freeReadMs)
          + optimize
              .map(
                  report ->
                      String.format(
                          Locale.ROOT,
                          "optimize of the strict table: %,d files of %,d series into %,d files,"
                              + " %,d rows in %.1f s (%,.0f rows/s, %,.0f files/s)%n",
                          report.filesReplaced(),
                          instruments,
                          report.filesWritten(),
                          report.rowsWritten(),
                          optimizeMs / 1000,
                          report.rowsWritten() / (optimizeMs / 1000),
                          report.filesWritten() / (optimizeMs / 1000)))
              .orElse("");
    }
  }

  private IndexAppendBenchmark() {}

  /** Runs {@code hours} hourly appends after {@code historyHours} of history, both tables. */
  public static Figures run(
      Lake lake,
      int instruments,
      int historyHours,
      int hours,
      boolean optimize,
      String onConflict,
      Consumer<String> progress) {
    Table strict = lake.createTable(definition("bench.bars_strict", onConflict));
    Table free = lake.createTable(definition("bench.bars_free", null));
    boolean replace = "replace".equals(onConflict);
    List<Double> correctionMs = new ArrayList<>();
    // One untimed hour each first, so that neither history load pays for a cold JVM.
    append(strict, instruments, 0, 1);
    append(free, instruments, 0, 1);
    progress.accept("loading " + historyHours + " hours of history");
    double strictHistory = timed(() -> append(strict, instruments, 1, historyHours));
    double freeHistory = timed(() -> append(free, instruments, 1, historyHours));
    List<Double> strictMs = new ArrayList<>();
    List<Double> freeMs = new ArrayList<>();
    for (int hour = historyHours + 1; hour <= historyHours + hours; hour++) {
      int at = hour;
      // Alternate which table goes first so that neither always meets a warm cache.
      if (hour % 2 == 0) {
        strictMs.add(timed(() -> append(strict, instruments, at, 1)));
        freeMs.add(timed(() -> append(free, instruments, at, 1)));
      } else {
        freeMs.add(timed(() -> append(free, instruments, at, 1)));
        strictMs.add(timed(() -> append(strict, instruments, at, 1)));
      }
      if (replace) {
        correctionMs.add(timed(() -> correct(strict, instruments, at)));
      }
      progress.accept("hour " + (hour - historyHours) + "/" + hours);
    }
    String read = " SELECT symbol, count(*), avg(close) FROM %s GROUP BY symbol";
    double strictRead = bestOf3(lake, String.format(read, strict.name()));
    double freeRead = bestOf3(lake, String.format(read, free.name()));
    java.util.Optional<dev.timelake.OptimizeReport> report = java.util.Optional.empty();
    double optimizeMs = 0;
    if (optimize) {
      progress.accept("optimizing the entity layout of " + strict.name());
      long started = System.nanoTime();
      report = java.util.Optional.of(strict.refresh().newOptimize().run());
      optimizeMs = (System.nanoTime() - started) / 1e6;
    }
    return new Figures(
        instruments,
        historyHours,
        strictHistory,
        freeHistory,
        strictMs,
        freeMs,
        report,
        optimizeMs,
        onConflict,
        correctionMs,
        strictRead,
        freeRead);
  }

  /** 1 % of the series resend the last bar of hour {@code hour}, 30 s later in its minute. */
  private static void correct(Table table, int instruments, int hour) {
    long lastMinute = START.getEpochSecond() / 60 + hour * 60L + 59;
    table
        .refresh()
        .newAppend()
        .fromQuery(
            "SELECT 'S' || lpad(i::VARCHAR, 5, '0') AS symbol, to_timestamp(("
                + lastMinute
                + " * 60 + 30)::DOUBLE) AS ts, 1.0::DOUBLE AS close, 0::BIGINT AS volume FROM"
                + " range(0, "
                + instruments
                + ", 100) r(i)")
        .commit();
  }

  private static double bestOf3(Lake lake, String sql) {
    double best = Double.MAX_VALUE;
    try (dev.timelake.Session session = lake.newSession()) {
      for (int run = 0; run < 3; run++) {
        best =
            Math.min(
                best,
                timed(
                    () -> {
                      try (dev.timelake.QueryResult result = session.sql(sql)) {
                        result.rows();
                      }
                    }));
      }
    }
    return best;
  }

  /** The bars table; {@code onConflict} null for one without granularity. */
  private static TableDefinition definition(String name, String onConflict) {
    TableDefinition.Builder definition =
        TableDefinition.builder(name)
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .column("close", ColumnType.DOUBLE)
            .column("volume", ColumnType.BIGINT)
            .indexColumn("ts")
            .entityColumns("symbol")
            .option("auto-maintain", "false");
    if (onConflict != null) {
      definition.indexGranularity("1m").onConflict(onConflict);
    }
    return definition.build();
  }

  /** One bar per instrument and minute of hours {@code [firstHour, firstHour + hours)}. */
  private static void append(Table table, int instruments, int firstHour, int hours) {
    long firstMinute = START.getEpochSecond() / 60 + firstHour * 60L;
    table
        .refresh()
        .newAppend()
        .fromQuery(
            "SELECT 'S' || lpad(i::VARCHAR, 5, '0') AS symbol, to_timestamp((("
                + firstMinute
                + " + m) * 60)::DOUBLE) AS ts, 100 + hash(i, m) % 1000 / 10.0 AS close,"
                + " (hash(m, i) % 10000)::BIGINT AS volume FROM range("
                + instruments
                + ") r(i), range("
                + hours * 60L
                + ") t(m)")
        .commit();
  }

  private static double timed(Runnable work) {
    long start = System.nanoTime();
    work.run();
    return Duration.ofNanos(System.nanoTime() - start).toNanos() / 1e6;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
