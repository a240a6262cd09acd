package dev.timelake.index;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.ColumnType;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writers whose rows share a (series, interval) cannot both commit, even when both checked the
 * same snapshot before either committed: the second re-checks against the first's commit. Two
 * writers into the same intervals of different series both commit.
 */
public class ConcurrentIndexAppendTest {
  @TempDir Path warehouse;

  private void createTable() {
    createTable("error");
  }

  private void createTable(String onConflict) {
    try (Lake lake = Lake.open(warehouse)) {
      lake.createTable(
          TableDefinition.builder("market.bars")
              .column("symbol", ColumnType.VARCHAR)
              .column("ts", ColumnType.TIMESTAMPTZ)
              .column("price", ColumnType.DOUBLE)
              .indexColumn("ts")
              .entityColumns("symbol")
              .indexGranularity("1m")
              .onConflict(onConflict)
              .option("auto-maintain", "false")
              .build());
    }
  }

  /**
   * Appends one row of {@code symbol} at {@code second}; both writers pass the check before either
   * commits. Returns the failure, or null when the append committed.
   */
  private static TimelakeException appendTogether(
      Path warehouse, CyclicBarrier bothChecked, String symbol, long second) {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.table("market.bars");
      table
          .newAppend()
          .row(symbol, Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC), 1.0)
          .progress(
              message -> {
                if (message.startsWith("committing")) {
                  try {
                    bothChecked.await(30, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                }
              })
          .commit();
      return null;
    } catch (TimelakeException e) {
      return e;
    }
  }

  private List<TimelakeException> race(String symbolA, long secondA, String symbolB, long secondB)
      throws Exception {
    CyclicBarrier bothChecked = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<TimelakeException> a =
          pool.submit(() -> appendTogether(warehouse, bothChecked, symbolA, secondA));
      Future<TimelakeException> b =
          pool.submit(() -> appendTogether(warehouse, bothChecked, symbolB, secondB));
      List<TimelakeException> failures = new ArrayList<>();
      failures.add(a.get(60, TimeUnit.SECONDS));
      failures.add(b.get(60, TimeUnit.SECONDS));
      return failures;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void twoThreadsReplacingOneSeriesAndMinuteBothCommitAndOneRowRemains() throws Exception {
    createTable("replace");
    List<TimelakeException> failures = race("A", 60, "A", 90);

    assertThat(failures).containsOnlyNulls();
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.table("market.bars");
      assertThat(query(lake, "SELECT count(*) FROM market.bars")).containsExactly(List.of(1L));
      assertThat(dataFiles(table)).hasSize(2);
      assertThat(
              table
                  .indexCoverage()
                  .ratio(
                      java.util.Map.of("symbol", "A"),
                      Instant.ofEpochSecond(60),
                      Instant.ofEpochSecond(120)))
          .isEqualTo(1.0);
    }
  }

  @Test
  void ofTwoThreadsWritingOneSeriesAndMinuteTheSecondFails() throws Exception {
    createTable();
    List<TimelakeException> failures = race("A", 60, "A", 90);

    assertThat(failures).filteredOn(f -> f == null).hasSize(1);
    assertThat(failures)
        .filteredOn(f -> f != null)
        .singleElement()
        .isInstanceOf(IndexIntervalOverlapException.class);
    try (Lake lake = Lake.open(warehouse)) {
      assertThat(query(lake, "SELECT count(*) FROM market.bars")).containsExactly(List.of(1L));
      assertThat(dataFiles(lake.table("market.bars"))).hasSize(1);
    }
  }

  @Test
  void twoThreadsWritingOtherSeriesInOneMinuteBothCommit() throws Exception {
    createTable();
    List<TimelakeException> failures = race("A", 60, "B", 90);

    assertThat(failures).containsOnlyNulls();
    try (Lake lake = Lake.open(warehouse)) {
      assertThat(query(lake, "SELECT symbol FROM market.bars ORDER BY symbol"))
          .containsExactly(List.of("A"), List.of("B"));
      // Later appends see both in coverage.
      Table table = lake.table("market.bars");
      for (String symbol : List.of("A", "B")) {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () ->
                    table
                        .refresh()
                        .newAppend()
                        .row(symbol, Instant.ofEpochSecond(100).atOffset(ZoneOffset.UTC), 1.0)
                        .commit())
            .isInstanceOf(IndexIntervalOverlapException.class);
      }
    }
  }

  @Test
  void ofTwoProcessesWritingOneSeriesAndMinuteTheSecondFails() throws Exception {
    createTable();
    IndexAppender.Outcome outcome = IndexAppender.race(warehouse);
    List<Integer> statuses = outcome.statuses();
    List<String> outputs = outcome.outputs();
    assertThat(statuses).as(outputs.toString()).containsExactlyInAnyOrder(0, 5);
    assertThat(String.join("", outputs)).contains("IndexIntervalOverlapException");
    try (Lake lake = Lake.open(warehouse)) {
      assertThat(query(lake, "SELECT count(*) FROM market.bars")).containsExactly(List.of(1L));
    }
  }

  /** A writer process: appends symbol A in minute 1 once the other writer has checked too. */
  public static final class IndexAppender {
    /** The exit statuses and outputs of two writer processes. */
    public record Outcome(List<Integer> statuses, List<String> outputs) {}

    /** Runs two writer processes on the warehouse's market.bars at once; their outcome. */
    public static Outcome race(Path warehouse) throws Exception {
      return race(
          warehouse.toString(),
          Files.createDirectories(warehouse.resolve("barrier")),
          java.util.Map.of());
    }

    /**
     * Runs two writer processes on market.bars of the warehouse at {@code warehouse} (a folder or
     * an s3:// location whose properties file names everything else) at once, each waiting in the
     * folder {@code barrier} for the other before committing, with {@code environment} added to
     * theirs; their outcome.
     */
    public static Outcome race(
        String warehouse, Path barrier, java.util.Map<String, String> environment)
        throws Exception {
      List<Process> processes = new ArrayList<>();
      for (String writer : List.of("one", "two")) {
        ProcessBuilder builder =
            new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    // A short-lived child: the quick compiler only and the serial collector start
                    // it
                    // sooner and leave the cores to the other child and the test.
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "-cp",
                    System.getProperty("java.class.path"),
                    IndexAppender.class.getName(),
                    warehouse,
                    barrier.toString(),
                    writer)
                .redirectErrorStream(true);
        builder.environment().putAll(environment);
        processes.add(builder.start());
      }
      List<Integer> statuses = new ArrayList<>();
      List<String> outputs = new ArrayList<>();
      for (Process process : processes) {
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException("a writer process did not finish in 120 s");
        }
        statuses.add(process.exitValue());
        outputs.add(new String(process.getInputStream().readAllBytes()));
      }
      return new Outcome(statuses, outputs);
    }

    public static void main(String[] args) throws IOException {
      String warehouse = args[0];
      Path barrier = Path.of(args[1]);
      String writer = args[2];
      try (Lake lake = Lake.open(warehouse, java.util.Map.of())) {
        lake.table("market.bars")
            .newAppend()
            .row(
                "A",
                Instant.ofEpochSecond(writer.equals("one") ? 61 : 119).atOffset(ZoneOffset.UTC),
                1.0)
            .progress(
                message -> {
                  if (message.startsWith("committing")) {
                    awaitOther(barrier, writer);
                  }
                })
            .commit();
        System.out.println(writer + " committed");
      } catch (TimelakeException e) {
        System.out.println(
            writer + " failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        System.exit(e.code().exitStatus());
      }
    }

    private static void awaitOther(Path barrier, String writer) {
      try {
        Files.createFile(barrier.resolve(writer));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
          try (var ready = Files.list(barrier)) {
            if (ready.count() >= 2) {
              return;
            }
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the other writer never got ready");
          }
          Thread.sleep(20);
        }
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
