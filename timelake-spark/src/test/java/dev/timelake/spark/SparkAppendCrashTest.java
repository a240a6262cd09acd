package dev.timelake.spark;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed (SIGKILL) while the driver of a Spark append appends the staged rows and commits
 * leaves the table as it was before or as it is after: all of the append's rows or none. The table
 * reads and takes appends afterwards. A Spark JVM is slow to start, so one process runs a whole
 * append, timed, and is killed in its second append at a random point of the driver's part (the
 * executors' part, writing staged files, touches no table).
 */
class SparkAppendCrashTest {
  private static final int ROWS = 300_000;
  private static final int DEVICES = 10;
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

  @TempDir Path warehouse;
  @TempDir Path staging;

  @Test
  void aSparkAppendKilledWhileItsDriverCommitsLeavesAllOrNoneOfItsRows() throws Exception {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse)) {
      lake.createTable(TestTables.readings("crash.r").build())
          .newAppend()
          .row("stored", T0, 1.0)
          .commit();
    }
    Process child = start();
    BlockingQueue<String> lines = lines(child);
    next(lines, "done run0"); // a cold JVM's: slower than the next
    long stagedMillis = Long.parseLong(next(lines, "staged run1").split(" ")[2]);
    long doneMillis = Long.parseLong(next(lines, "done run1").split(" ")[2]);
    next(lines, "staged run2");
    long delayMillis = (long) ((doneMillis - stagedMillis) * (0.05 + 0.95 * random.nextDouble()));
    if (!child.waitFor(delayMillis, TimeUnit.MILLISECONDS)) {
      child.destroyForcibly();
    }
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();

    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      assertThat(count(session, "run0")).isEqualTo(ROWS);
      assertThat(count(session, "run1")).isEqualTo(ROWS);
      long written = count(session, "run2");
      assertThat(written)
          .as(
              "%s: rows of run2 killed %d ms into a driver's part of %d ms",
              random, delayMillis, doneMillis - stagedMillis)
          .isIn(0L, (long) ROWS);
      session.sql("SET timelake.read_dedup = false").close();
      assertThat(count(session, "run2")).as("copies included").isEqualTo(written);
      session.sql("SET timelake.read_dedup = true").close();
      lake.table("crash.r").newAppend().row("stored", T0, 2.0).commit();
      assertThat(query(lake, "SELECT value FROM crash.r WHERE device = 'stored'"))
          .containsExactly(List.of(2.0));
    }
  }

  private static long count(Session session, String run) {
    try (var result =
        session.sql("SELECT count(*) FROM crash.r WHERE starts_with(device, '" + run + "-')")) {
      return ((Number) result.rows().get(0).get(0)).longValue();
    }
  }

  /** The child JVM, with the JDK packages Spark opens as this JVM was given them. */
  private Process start() throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (argument.startsWith("--add-opens") || argument.startsWith("-D")) {
        command.add(argument);
      }
    }
    command.addAll(
        List.of(
            "-Xmx1g",
            "-cp",
            System.getProperty("java.class.path"),
            Child.class.getName(),
            warehouse.toString(),
            staging.toString()));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** The child's output lines, read to the end so that it never blocks on a full pipe. */
  private static BlockingQueue<String> lines(Process child) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader output =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = output.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add(e.toString());
              }
            },
            "child-output");
    reader.setDaemon(true);
    reader.start();
    return lines;
  }

  /** The next line starting with {@code prefix}; fails with the lines skipped if none comes. */
  private static String next(BlockingQueue<String> lines, String prefix)
      throws InterruptedException {
    List<String> skipped = new ArrayList<>();
    while (true) {
      String line = lines.poll(120, TimeUnit.SECONDS);
      assertThat(line).as("a line '%s…' from the child after %s", prefix, skipped).isNotNull();
      if (line.startsWith(prefix)) {
        return line;
      }
      skipped.add(line);
    }
  }

  /**
   * The child: a local Spark that runs three appends (run0 to run2) of {@link #ROWS} rows each,
   * saying when each starts, when its rows are staged (Spark's write job ended) and when it is
   * done, in ms since it started.
   */
  public static final class Child {
    private static volatile String run = "";
    private static volatile long startedNanos;

    public static void main(String[] args) throws Exception {
      Path warehouse = Path.of(args[0]);
      Path staging = Path.of(args[1]);
      SparkSession spark =
          LocalSpark.start(warehouse, Files.createTempDirectory(staging, "spark-local-"));
      spark.conf().set(StagedRows.STAGING, staging.toString());
      LakeAddress address = LakeAddress.of(warehouse.toString());
      address.lake().table("crash.r");
      spark.range(1).count();
      spark
          .sparkContext()
          .addSparkListener(
              new SparkListener() {
                @Override
                public void onJobEnd(SparkListenerJobEnd jobEnd) {
                  say("staged");
                }
              });
      for (String next : List.of("run0", "run1", "run2")) {
        run = next;
        startedNanos = System.nanoTime();
        say("starting");
        TimelakeSpark.append(
            spark
                .range(ROWS)
                .selectExpr(
                    "concat('" + next + "-d', CAST(id % " + DEVICES + " AS STRING)) AS device",
                    "timestamp_seconds(" + T0.getEpochSecond() + " + id) AS time",
                    "CAST(id AS DOUBLE) AS value"),
            address,
            "crash.r");
        say("done");
      }
      spark.stop();
      System.exit(0);
    }

    private static synchronized void say(String what) {
      System.out.println(what + " " + run + " " + (System.nanoTime() - startedNanos) / 1_000_000);
      System.out.flush();
    }
  }
}
