package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.NotFoundException;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The line-protocol writer's maintenance after commits: a run that fails is logged as a warning
 * naming the table, with its exception, and the thread goes on with the next run.
 */
class BackgroundMaintenanceTest {
  @TempDir Path warehouse;
  private Lake lake;

  /** The log that {@link BackgroundMaintenance} writes to (System.Logger's default backend). */
  private final Logger log = Logger.getLogger(BackgroundMaintenance.class.getName());

  private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
  private final Handler recorder =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void open() {
    lake = Lake.open(warehouse);
    log.addHandler(recorder);
  }

  @AfterEach
  void close() {
    log.removeHandler(recorder);
    lake.close();
  }

  private Table create(String name) {
    return lake.createTable(
        TableDefinition.builder(name)
            .column(Column.required("time", ColumnType.TIMESTAMPTZ))
            .column(Column.nullable("value", ColumnType.DOUBLE))
            .timeColumn("time")
            .build());
  }

  @Test
  void aFailedRunIsLoggedAsAWarningNamingTheTableWithItsExceptionAndTheNextRunStillRuns() {
    // Dropped after its commit and before its maintenance (say by an admin over SQL): the run
    // cannot load the table, which is a failure nobody waits for.
    Table first = create("iot.first");
    Table second = create("iot.second");
    lake.dropTable(first.name());
    lake.dropTable(second.name());
    BackgroundMaintenance maintenance = new BackgroundMaintenance(lake, "test-maintenance");

    maintenance.maintainLater(first);
    maintenance.maintainLater(second);
    maintenance.close(); // waits for both runs

    assertThat(logged).hasSize(2);
    for (int i = 0; i < 2; i++) {
      LogRecord record = logged.get(i);
      TableName table = List.of(first, second).get(i).name();
      assertThat(record.getLevel()).isEqualTo(Level.WARNING);
      assertThat(record.getThrown()).isInstanceOf(NotFoundException.class);
      assertThat(record.getMessage())
          .contains("maintenance of " + table + " failed")
          .contains(record.getThrown().getMessage());
    }
  }

  @Test
  void aTableWhoseAutoMaintainIsOffIsNotQueued() {
    Table table =
        lake.createTable(
            TableDefinition.builder("iot.manual")
                .column(Column.required("time", ColumnType.TIMESTAMPTZ))
                .timeColumn("time")
                .option("auto-maintain", "false")
                .build());
    lake.dropTable(table.name()); // a run would fail, and so be logged
    BackgroundMaintenance maintenance = new BackgroundMaintenance(lake, "test-maintenance");

    maintenance.maintainLater(table);
    maintenance.close();

    assertThat(logged).isEmpty();
  }
}
