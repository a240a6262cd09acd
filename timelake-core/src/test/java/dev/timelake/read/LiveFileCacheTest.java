package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TestRandom;
import dev.timelake.TestTables;
import dev.timelake.catalog.Catalogs;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kept file lists plan exactly the files Iceberg's own planning returns, with the same data
 * sequence numbers, after appends, late appends, compactions, retention, rollbacks and a table
 * dropped and created again under the same name.
 */
class LiveFileCacheTest {
  private static final TableName NAME = TableName.parse("iot.r");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void keptFileListsPlanWhatIcebergPlansThroughEveryKindOfCommit() {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.createTable(TestTables.readings(NAME.toString()).build());
      Catalog catalog = Catalogs.openEmbedded(warehouse);
      for (int step = 0; step < 30; step++) {
        int action = random.nextInt(10);
        if (action < 6) {
          appendRows(table, random, step);
        } else if (action < 8) {
          table.newMaintenance().run();
        } else if (action == 8) {
          org.apache.iceberg.Table iceberg = catalog.loadTable(identifier());
          List<Long> ancestors =
              iceberg.currentSnapshot() == null
                  ? List.of()
                  : SnapshotUtil.ancestorIds(iceberg.currentSnapshot(), iceberg::snapshot);
          if (ancestors.size() > 1) {
            long earlier = ancestors.get(1 + random.nextInt(ancestors.size() - 1));
            iceberg.manageSnapshots().rollbackTo(earlier).commit();
          }
        } else {
          table.alter(java.util.Map.of("retention", (1 + random.nextInt(5)) + "d"));
          Instant now = T0.plus(Duration.ofHours(step * 6L));
          table.newMaintenance().clock(java.time.Clock.fixed(now, java.time.ZoneOffset.UTC)).run();
          table.alter(java.util.Map.of("retention", "3650d"));
        }
        assertSamePlans(catalog.loadTable(identifier()), random, random + ", step " + step);
      }

      lake.dropTable(NAME);
      Table again = lake.createTable(TestTables.readings(NAME.toString()).build());
      appendRows(again, random, 0);
      assertSamePlans(catalog.loadTable(identifier()), random, random + ", re-created");
    }
  }

  private static void appendRows(Table table, java.util.Random random, int step) {
    var append = table.newAppend();
    int rows = 1 + random.nextInt(20);
    for (int i = 0; i < rows; i++) {
      // Mostly recent readings, some late by up to a week.
      long hours = random.nextInt(5) == 0 ? step * 6L - random.nextInt(24 * 7) : step * 6L;
      Instant time =
          T0.plus(Duration.ofHours(Math.max(0, hours))).plusSeconds(random.nextInt(3600));
      append.row("d" + random.nextInt(4), time, random.nextDouble());
    }
    append.commit();
  }

  private void assertSamePlans(
      org.apache.iceberg.Table iceberg, java.util.Random random, String context) {
    if (iceberg.currentSnapshot() == null) {
      return;
    }
    TableContract contract = TableContract.of(NAME, iceberg);
    long from = TestTables.micros(T0.plus(Duration.ofHours(random.nextInt(24 * 10))));
    List<Expression> filters =
        List.of(
            Expressions.alwaysTrue(),
            Expressions.and(
                Expressions.greaterThanOrEqual("time", from),
                Expressions.lessThan("time", from + 86_400_000_000L)),
            Expressions.equal("device", "d" + random.nextInt(4)));
    for (Expression filter : filters) {
      List<PlannedFile> kept =
          LiveFileCache.plannedFiles(iceberg, contract, iceberg.currentSnapshot(), filter);
      assertThat(kept).as("%s, filter %s", context, filter).isEqualTo(icebergPlan(iceberg, filter));
    }
  }

  /** What Iceberg's planning returns, in the cache's order, without the cache. */
  private static List<PlannedFile> icebergPlan(
      org.apache.iceberg.Table iceberg, Expression filter) {
    List<String> locations = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = iceberg.newScan().filter(filter).planFiles()) {
      tasks.forEach(task -> locations.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    TableContract contract = TableContract.of(NAME, iceberg);
    return LiveFileCache.planned(iceberg, contract, iceberg.currentSnapshot()).stream()
        .map(LiveFileCache.LiveFile::planned)
        .filter(file -> locations.contains(file.location()))
        .toList();
  }

  private static TableIdentifier identifier() {
    return TableIdentifier.of(NAME.namespace(), NAME.name());
  }
}
