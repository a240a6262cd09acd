package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.Session;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed (SIGKILL) at any moment of a DELETE leaves the table as it was before or as it
 * is after: never some files rewritten and others not. The table, its rollup and the next DELETE
 * work afterwards.
 */
class DeleteCrashTest {
  private static final int DEVICES = 6;
  private static final int APPENDS = 8;
  private static final int ROWS_PER_DEVICE = APPENDS * 60;

  @TempDir Path warehouse;

  /**
   * The children's temporary folder: DuckDB's driver unpacks its 72 MB native library there on
   * start and deletes it on exit, which a killed child never reaches.
   */
  @TempDir Path childTemp;

  @Test
  void aDeleteKilledAtAnyMomentLeavesTheTableBeforeOrAfterIt() throws Exception {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      session
          .sql(
              "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH"
                  + " (time_column = 'time', series_key = 'device', auto_maintain = false)")
          .close();
      // One file per append and device mix, so the DELETE rewrites many files, one at a time.
      for (int i = 0; i < APPENDS; i++) {
        session
            .sql(
                "INSERT INTO iot.r SELECT 'd' || (m % "
                    + DEVICES
                    + "), TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL "
                    + i
                    + " HOUR + (m // "
                    + DEVICES
                    + ") * INTERVAL '1 minute', m FROM range(0, "
                    + DEVICES * 60
                    + ") t(m)")
            .close();
      }
      session
          .sql(
              "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1"
                  + " hour', time) AS bucket, count(*) AS n FROM iot.r GROUP BY device, bucket")
          .close();
    }
    // One DELETE runs to its end, timed; the next ones are killed a quarter, half, three
    // quarters and nineteen twentieths of that time into theirs: while files are written, or
    // about when they commit.
    long took = runAndKill("DELETE FROM iot.r WHERE device = 'd0'", Long.MAX_VALUE);
    int device = 1;
    for (double fraction : new double[] {0.25, 0.5, 0.75, 0.95}) {
      String victim = "d" + device++;
      long delayMillis = (long) (took * fraction);
      runAndKill("DELETE FROM iot.r WHERE device = '" + victim + "'", delayMillis);
      try (Lake lake = Lake.open(warehouse);
          Session session = lake.newSession()) {
        long left = count(session, "SELECT count(*) FROM iot.r WHERE device = '" + victim + "'");
        assertThat(left)
            .as("rows of %s after a kill at %d ms", victim, delayMillis)
            .isIn(0L, (long) ROWS_PER_DEVICE);
        // Copies included: a half-applied delete would leave some of the victim's stored rows.
        session.sql("SET timelake.read_dedup = false").close();
        assertThat(count(session, "SELECT count(*) FROM iot.r WHERE device = '" + victim + "'"))
            .isEqualTo(left);
        session.sql("SET timelake.read_dedup = true").close();
        if (left > 0) {
          session.sql("DELETE FROM iot.r WHERE device = '" + victim + "'").close();
        }
        session.sql("REFRESH MATERIALIZED ROLLUP iot.r_1h").close();
        assertThat(count(session, "SELECT count(*) FROM iot.r_1h WHERE device = '" + victim + "'"))
            .isZero();
        assertThat(count(session, "SELECT count(*) FROM iot.r"))
            .isEqualTo((long) ROWS_PER_DEVICE * (DEVICES - device));
      }
    }
  }

  private static long count(Session session, String sql) {
    try (var result = session.sql(sql)) {
      return ((Number) result.rows().get(0).get(0)).longValue();
    }
  }

  /**
   * Runs {@code sql} in another process and kills it {@code delayMillis} after the statement
   * starts, unless it ends first; returns how long it ran, in ms.
   */
  private long runAndKill(String sql, long delayMillis) throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // A short-lived child: the quick compiler only and the serial collector start it
                // sooner and leave the cores to the other child and the test.
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + childTemp,
                "-cp",
                System.getProperty("java.class.path"),
                Statement.class.getName(),
                warehouse.toString(),
                sql)
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals("starting")) {
        // the child's start-up output
      }
      long started = System.nanoTime();
      if (!process.waitFor(Math.min(delayMillis, 60_000), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      return (System.nanoTime() - started) / 1_000_000;
    }
  }

  /** The child: opens the lake and runs one statement, saying when it starts. */
  public static final class Statement {
    public static void main(String[] args) {
      try (Lake lake = Lake.open(Path.of(args[0]));
          Session session = lake.newSession()) {
        session.sql("SELECT 1").close(); // warm: the kill lands in the statement, not in start-up
        System.out.println("starting");
        System.out.flush();
        session.sql(args[1]).close();
        System.out.println("done");
      }
    }
  }
}
