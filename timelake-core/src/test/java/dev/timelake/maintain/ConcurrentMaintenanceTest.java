package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.readParquet;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Chunk;
import dev.timelake.CommitFailedException;
import dev.timelake.ConflictException;
import dev.timelake.Table;
import dev.timelake.TestRandom;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appends from several threads (their own keys plus copies of shared keys, with inline maintenance)
 * while another thread runs maintenance again and again: no row is lost or duplicated. Every append
 * has its own insertion time, so the latest write of a key is the one with the highest insertion
 * time whatever the commit order. Maintenance runs that lose to a concurrent commit may fail with a
 * conflict; appends that do are retried.
 */
class ConcurrentMaintenanceTest {
  private static final String NAME = "iot.readings";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final int WRITERS = 3;
  private static final int APPENDS = Integer.getInteger("timelake.appends", 8);

  @TempDir Path warehouse;
  private final LatestWrites oracle = new LatestWrites();
  private final AtomicLong ingestSeconds = new AtomicLong();
  private final Queue<String> maintenanceErrors = new ConcurrentLinkedQueue<>();

  @Test
  void appendsRacingMaintenanceLoseNoRow() throws Exception {
    long seed = TestRandom.seed();
    System.out.println("ConcurrentMaintenanceTest " + TestRandom.describe(seed));
    try (MaintenanceFixture fixture = new MaintenanceFixture(warehouse)) {
      fixture.create(
          readings(NAME)
              .chunk(Chunk.HOUR)
              .option("compact-cold-after", "1h")
              .option("target-file-size", "4KiB"));
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
      AtomicBoolean writing = new AtomicBoolean(true);
      AtomicInteger maintenanceRuns = new AtomicInteger();
      try {
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          Random random = new Random(seed + w);
          String device = "w" + w;
          writers.add(pool.submit(() -> write(fixture.lake.table(NAME), device, random)));
        }
        Future<?> maintainer =
            pool.submit(() -> maintain(fixture.lake.table(NAME), writing, maintenanceRuns));
        for (Future<?> writer : writers) {
          writer.get(5, TimeUnit.MINUTES);
        }
        writing.set(false);
        maintainer.get(5, TimeUnit.MINUTES);
      } finally {
        writing.set(false);
        pool.shutdownNow();
      }

      assertThat(maintenanceErrors).allMatch(m -> m.startsWith("Cannot commit maintenance of"));
      assertThat(maintenanceRuns.get()).as("maintenance runs").isPositive();
      assertThat(fixture.query(ROWS.formatted(NAME)))
          .as("%s", TestRandom.describe(seed))
          .isEqualTo(oracle.rows());
      fixture.lake.table(NAME).newMaintenance().run();
      assertThat(fixture.query(ROWS.formatted(NAME)))
          .as("%s", TestRandom.describe(seed))
          .isEqualTo(oracle.rows());
      assertThat(fixture.plain(ROWS.formatted(readParquet(fixture.dataFiles(NAME)))))
          .as("%s, plain DuckDB after maintenance", TestRandom.describe(seed))
          .isEqualTo(oracle.rows());
    }
  }

  /**
   * A full maintenance completes while a writer keeps appending with inline maintenance, whose
   * compactions replace files the full run is rewriting: the run leaves those rewrites out or
   * commits again against the new snapshot, and never fails for it.
   */
  @Test
  void fullMaintenanceCompletesWhileAppendsKeepArriving() throws Exception {
    long seed = TestRandom.seed();
    try (MaintenanceFixture fixture = new MaintenanceFixture(warehouse)) {
      fixture.create(
          readings(NAME)
              .chunk(Chunk.HOUR)
              .option("compact-cold-after", "1h")
              .option("compact-min-files", "2")
              .option("target-file-size", "4KiB"));
      Table table = fixture.lake.table(NAME);
      AtomicBoolean writing = new AtomicBoolean(true);
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<?> writer =
            pool.submit(
                () -> {
                  Random random = new Random(seed);
                  for (int a = 0; writing.get() && a < 400; a++) {
                    Instant ingest = T0.plus(Duration.ofSeconds(ingestSeconds.incrementAndGet()));
                    Map<LatestWrites.Key, Row> rows = new LinkedHashMap<>();
                    Instant now = T0.plus(Duration.ofMinutes(7L * a));
                    addRow(rows, new Row("w", now, random.nextDouble()));
                    addRow(
                        rows,
                        new Row("w", T0.plus(Duration.ofMinutes(7L * random.nextInt(a + 1))), 0.5));
                    commitWithRetries(table, ingest, List.copyOf(rows.values()));
                  }
                  return null;
                });
        for (int run = 0; run < 4; run++) {
          // Every run must complete: a run that loses a race to the writer's compactions retries.
          fixture.lake.table(NAME).newMaintenance().run();
        }
        writing.set(false);
        writer.get(5, TimeUnit.MINUTES);
      } finally {
        writing.set(false);
        pool.shutdownNow();
      }
      assertThat(fixture.query(ROWS.formatted(NAME)))
          .as("%s", TestRandom.describe(seed))
          .isEqualTo(oracle.rows());
    }
  }

  /** Appends rows of the writer's own device, moving forward, plus copies of shared keys. */
  private Void write(Table table, String device, Random random) {
    for (int a = 0; a < APPENDS; a++) {
      Instant ingest = T0.plus(Duration.ofSeconds(ingestSeconds.incrementAndGet()));
      Map<LatestWrites.Key, Row> rows = new LinkedHashMap<>();
      Instant now = T0.plus(Duration.ofMinutes(20L * a));
      for (int r = 0; r < 4; r++) {
        addRow(rows, new Row(device, now.plus(Duration.ofMinutes(r)), random.nextDouble()));
      }
      // Copies: shared keys every writer writes, and an earlier key of this writer.
      addRow(rows, new Row("shared", T0.plus(Duration.ofMinutes(5L * random.nextInt(40))), -1.0));
      addRow(rows, new Row("shared", T0.plus(Duration.ofMinutes(5L * random.nextInt(40))), -2.0));
      addRow(rows, new Row(device, T0.plus(Duration.ofMinutes(20L * random.nextInt(a + 1))), 0.5));
      commitWithRetries(table, ingest, List.copyOf(rows.values()));
    }
    return null;
  }

  private static void addRow(Map<LatestWrites.Key, Row> rows, Row row) {
    rows.putIfAbsent(new LatestWrites.Key(row.device(), LatestWrites.micros(row.time())), row);
  }

  private void commitWithRetries(Table table, Instant ingest, List<Row> rows) {
    for (int attempt = 1; ; attempt++) {
      Append append = table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC));
      rows.forEach(row -> append.row(row.device(), row.time(), row.value()));
      try {
        AppendResult result = append.commit();
        result.maintenanceError().ifPresent(maintenanceErrors::add);
        // The failure keeps its exception, typed, not only its message.
        result
            .maintenanceFailure()
            .ifPresent(
                failure ->
                    assertThat(failure)
                        .isInstanceOf(dev.timelake.TimelakeException.class)
                        .hasMessage(result.maintenanceError().orElseThrow()));
        rows.forEach(row -> oracle.add(row.device(), row.time(), row.value(), ingest));
        return;
      } catch (ConflictException e) {
        if (attempt == 5) {
          throw e;
        }
      }
    }
  }

  /** Full and inline-only maintenance, alternating, until the writers are done. */
  private Void maintain(Table table, AtomicBoolean writing, AtomicInteger runs) {
    while (writing.get()) {
      try {
        if (runs.get() % 2 == 0) {
          table.newMaintenance().run();
        } else {
          table.newMaintenance().inlineOnly().run();
        }
      } catch (ConflictException | CommitFailedException e) {
        maintenanceErrors.add(e.getMessage());
      }
      runs.incrementAndGet();
    }
    return null;
  }
}
