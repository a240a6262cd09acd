package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readParquet;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Chunk;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.DataFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction never changes answers: random appends with late rows and copies (insertion times that
 * move forward, repeat or go back; tables with and without {@code _ingest_ts}), inline maintenance
 * on some appends and in between, then a full maintenance. The Timelake reader must equal the
 * oracle throughout and itself before and after each maintenance; after the full maintenance plain
 * DuckDB over the data files sees no copies. The seed of a failing case is in the assertion
 * message; set {@code -Dtests.seed=<hex>} to replay it.
 */
class CompactionDifferentialTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void maintenanceKeepsAnswersOnRandomAppends() throws Exception {
    long base = TestRandom.seed();
    int tables = Integer.getInteger("timelake.tables", 3);
    try (MaintenanceFixture fixture = new MaintenanceFixture(warehouse)) {
      for (int t = 0; t < tables; t++) {
        long seed = base + t;
        System.out.println("CompactionDifferentialTest " + TestRandom.describe(seed));
        checkTable(fixture, "d.t" + t, new Random(seed), TestRandom.describe(seed));
      }
    }
  }

  private static void checkTable(
      MaintenanceFixture fixture, String name, Random random, String seed) throws Exception {
    boolean ingestTime = random.nextInt(3) > 0;
    TableDefinition.Builder definition =
        readings(name)
            .chunk(random.nextBoolean() ? Chunk.DAY : Chunk.HOUR)
            .option("target-file-size", Integer.toString(1024 << random.nextInt(6)))
            .option("compact-min-files", Integer.toString(2 + random.nextInt(3)))
            .option("compact-cold-after", (1 + random.nextInt(6)) + "h");
    if (!ingestTime) {
      definition.withoutIngestTime();
    }
    Table table = fixture.create(definition);
    LatestWrites oracle = new LatestWrites();
    String all = "SELECT * FROM " + name + " ORDER BY ALL";
    int appends = 10 + random.nextInt(15);
    Instant now = T0.plus(Duration.ofHours(10));
    Instant ingest = now;
    for (int a = 0; a < appends; a++) {
      now = now.plus(Duration.ofMinutes(5 + random.nextInt(30)));
      ingest = nextIngest(random, now, ingest);
      Instant recorded = ingestTime ? ingest : Instant.EPOCH;
      List<Row> rows = randomRows(random, now);
      Append append = append(table, ingest, rows, new LatestWrites());
      rows.forEach(r -> oracle.add(r.device(), r.time(), r.value(), recorded));
      if (random.nextInt(3) == 0) {
        append.withoutMaintenance();
      }
      AppendResult result = append.commit();
      assertThat(result.maintenanceError()).as(seed).isEmpty();
      if (random.nextInt(5) == 0) {
        List<String> before = fixture.query(all);
        table.newMaintenance().inlineOnly().run();
        assertThat(fixture.query(all))
            .as("%s, inline maintenance after append %d", seed, a)
            .isEqualTo(before);
      }
      if (random.nextInt(3) == 0) {
        assertThat(fixture.query(ROWS.formatted(name)))
            .as("%s, append %d", seed, a)
            .isEqualTo(oracle.rows());
      }
    }
    List<String> before = fixture.query(all);
    table.newMaintenance().run();

    assertThat(fixture.query(all)).as("%s, full maintenance", seed).isEqualTo(before);
    assertThat(fixture.query(ROWS.formatted(name))).as(seed).isEqualTo(oracle.rows());
    List<DataFile> files = fixture.dataFiles(name);
    assertThat(
            fixture.plain(
                "SELECT device, time, count(*) FROM "
                    + readParquet(files)
                    + " GROUP BY ALL HAVING count(*) > 1"))
        .as(seed)
        .isEmpty();
    assertThat(fixture.plain(ROWS.formatted(readParquet(files)))).as(seed).isEqualTo(oracle.rows());
  }

  /** Mostly the append's start; sometimes the previous one again (a tie) or earlier (skew). */
  private static Instant nextIngest(Random random, Instant now, Instant previous) {
    return switch (random.nextInt(5)) {
      case 0 -> previous;
      case 1 -> now.minus(Duration.ofMinutes(random.nextInt(120)));
      default -> now;
    };
  }

  /** Recent rows plus some late ones, on a coarse grid so that keys collide. */
  private static List<Row> randomRows(Random random, Instant now) {
    List<Row> rows = new ArrayList<>();
    int count = 1 + random.nextInt(random.nextInt(8) == 0 ? 400 : 20);
    long minutesSinceT0 = Duration.between(T0, now).toMinutes();
    for (int r = 0; r < count; r++) {
      Instant time =
          random.nextInt(5) == 0
              ? T0.plus(Duration.ofMinutes(5L * random.nextInt((int) (minutesSinceT0 / 5) + 1)))
              : now.minus(Duration.ofMinutes(5L * random.nextInt(6)));
      Double value = random.nextInt(10) == 0 ? null : (double) random.nextInt(1000);
      rows.add(new Row("d" + random.nextInt(4), time, value));
    }
    return rows;
  }
}
