package dev.timelake.bench;

import dev.timelake.ColumnType;
import dev.timelake.CoverageSummary;
import dev.timelake.IndexCoverage;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.index.Coverage;
import dev.timelake.index.CoverageStore;
import dev.timelake.index.EntityIdentity;
import dev.timelake.index.IndexIntervals;
import dev.timelake.table.TableContract;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

/**
 * How long coverage questions take on a year of minutes for many series (issue 13): the coverage of
 * {@code instruments} series × 525,600 minutes, each with {@code outages} gaps of 1 to 120 minutes
 * at random places, is attached to a table's snapshot exactly as appends would have left it, then
 * asked from Java and SQL: first from the Puffin file (cold), then from memory.
 */
public final class CoverageQueryBenchmark {
  private static final Instant YEAR = Instant.parse("2025-01-01T00:00:00Z");
  private static final long MINUTES = 365L * 24 * 60;

  private CoverageQueryBenchmark() {}

  /** Builds the coverage, then times each question; returns the lines of the report. */
  public static List<String> run(
      Lake lake,
      java.nio.file.Path warehouse,
      int instruments,
      int outages,
      long seed,
      Consumer<String> progress) {
    Table created =
        lake.createTable(
            TableDefinition.builder("bench.year_bars")
                .column("symbol", ColumnType.VARCHAR)
                .column("ts", ColumnType.TIMESTAMPTZ)
                .column("close", ColumnType.DOUBLE)
                .indexColumn("ts")
                .entityColumns("symbol")
                .indexGranularity("1m")
                .option("auto-maintain", "false")
                .build());
    created.newAppend().row("S00000", YEAR.atOffset(ZoneOffset.UTC), 1.0).commit();
    Table appended = created.refresh();
    progress.accept("building the coverage of " + instruments + " series × a year of minutes");
    Coverage coverage = yearOfMinutes(instruments, outages, new Random(seed));
    attach(warehouse, appended, coverage);
    Table table = appended.refresh();
    List<String> lines = new ArrayList<>();
    long stored =
        table.indexCoverage().summaries(YEAR, YEAR.plusSeconds(MINUTES * 60)).stream()
            .mapToLong(CoverageSummary::covered)
            .sum();
    if (stored != coverage.pairs()) {
      throw new IllegalStateException(
          "the attached coverage reads back as " + stored + " pairs, not " + coverage.pairs());
    }
    lines.add(
        String.format(
            Locale.ROOT,
            "coverage: %,d series × %,d minutes, %,d outages each, %,d covered pairs",
            instruments,
            MINUTES,
            outages,
            coverage.pairs()));
    Instant end = YEAR.plusSeconds(MINUTES * 60);
    Map<String, Object> one = Map.of("symbol", "S00042");
    CoverageStore.forgetRemembered();
    lines.add(timed("Java: read the coverage (cold, from Puffin)", table::indexCoverage));
    IndexCoverage[] view = {table.indexCoverage()};
    lines.add(timed("Java: read the coverage (warm)", () -> view[0] = table.indexCoverage()));
    lines.add(
        timed("Java: one series' summary over the year", () -> view[0].summary(one, YEAR, end)));
    lines.add(timed("Java: one series' gaps over the year", () -> view[0].gaps(one, YEAR, end, 1)));
    lines.add(
        timed(
            "Java: every series' summary over the year",
            () -> {
              List<CoverageSummary> all = view[0].summaries(YEAR, end);
              return all.size();
            }));
    lines.add(timed("Java: one series' last run of ≥ 60", () -> view[0].lastRun(one, 60)));
    try (Session session = lake.newSession()) {
      String range = "'2025-01-01 00:00:00+00', '2026-01-01 00:00:00+00'";
      sql(session, "SELECT 1");
      CoverageStore.forgetRemembered();
      lines.add(
          timed(
              "SQL: timelake_coverage, every series (cold)",
              () ->
                  sql(
                      session,
                      "SELECT count(*) FROM timelake_coverage('bench.year_bars', " + range + ")")));
      lines.add(
          timed(
              "SQL: timelake_coverage, every series (warm)",
              () ->
                  sql(
                      session,
                      "SELECT count(*) FROM timelake_coverage('bench.year_bars', " + range + ")")));
      lines.add(
          timed(
              "SQL: timelake_coverage, one series",
              () ->
                  sql(
                      session,
                      "SELECT * FROM timelake_coverage('bench.year_bars', "
                          + range
                          + ") WHERE symbol = 'S00042'")));
      lines.add(
          timed(
              "SQL: timelake_gaps, every series",
              () ->
                  sql(
                      session,
                      "SELECT count(*) FROM timelake_gaps('bench.year_bars', " + range + ")")));
    }
    return lines;
  }

  /** Attaches {@code coverage} to the table's current snapshot, as its appends would have. */
  private static void attach(java.nio.file.Path warehouse, Table table, Coverage coverage) {
    org.apache.iceberg.catalog.Catalog catalog =
        dev.timelake.catalog.Catalogs.openEmbedded(warehouse);
    try {
      org.apache.iceberg.Table iceberg =
          catalog.loadTable(
              org.apache.iceberg.catalog.TableIdentifier.of(
                  table.name().namespace(), table.name().name()));
      // Saving reads nothing, so it needs no engine connection.
      new CoverageStore(iceberg, TableContract.of(table.name(), iceberg), null)
          .save(iceberg.currentSnapshot(), coverage);
    } finally {
      if (catalog instanceof java.io.Closeable closeable) {
        try {
          closeable.close();
        } catch (java.io.IOException e) {
          // The catalog's connection closes with the process.
        }
      }
    }
  }

  private static Object sql(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private static Coverage yearOfMinutes(int instruments, int outages, Random random) {
    IndexIntervals intervals =
        IndexIntervals.timestamps(dev.timelake.table.IndexGranularity.parseTime("1m"));
    long first = intervals.id(YEAR.getEpochSecond() * 1_000_000L);
    Coverage coverage = new Coverage();
    for (int i = 0; i < instruments; i++) {
      EntityIdentity identity = EntityIdentity.of(String.format(Locale.ROOT, "S%05d", i));
      long[] starts = new long[outages];
      for (int o = 0; o < outages; o++) {
        starts[o] = random.nextInt((int) MINUTES - 120);
      }
      java.util.Arrays.sort(starts);
      long cursor = 0;
      for (long start : starts) {
        if (start > cursor) {
          coverage.add(identity, first + cursor, first + start - 1);
        }
        cursor = Math.max(cursor, start + 1 + random.nextInt(120));
      }
      if (cursor < MINUTES) {
        coverage.add(identity, first + cursor, first + MINUTES - 1);
      }
    }
    return coverage;
  }

  private static String timed(String what, java.util.function.Supplier<Object> work) {
    long best = Long.MAX_VALUE;
    int runs = what.contains("cold") ? 1 : 5;
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      work.get();
      best = Math.min(best, System.nanoTime() - start);
    }
    return String.format(
        Locale.ROOT, "%-48s %9.1f ms%s", what, best / 1e6, runs > 1 ? " (best of 5)" : "");
  }
}
