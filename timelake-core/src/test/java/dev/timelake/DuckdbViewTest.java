package dev.timelake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.catalog.Catalogs;
import dev.timelake.engine.SqlText;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain DuckDB sees what the Timelake reader sees: through the statement {@link Table#duckdbView()}
 * prints, and through the documented {@code _ingest_ts} recipe over every data file when appends
 * have distinct insertion times. Random appends with copies and late rows, with and without inline
 * maintenance; {@code -Dtests.seed=<hex>} replays a run.
 */
class DuckdbViewTest {
  private static final String NAME = "iot.readings";
  private static final String ALL = "SELECT * FROM %s ORDER BY ALL";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;

  @Test
  void plainDuckDbAnswersLikeTheTimelakeReader() throws Exception {
    long seed = TestRandom.seed();
    System.out.println("DuckdbViewTest " + TestRandom.describe(seed));
    Random random = new Random(seed);
    try (Lake lake = Lake.open(warehouse);
        Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Session session = lake.newSession()) {
      try (Statement statement = duckdb.createStatement()) {
        statement.execute("SET TimeZone = 'UTC'");
      }
      Table table =
          lake.createTable(
              TableDefinition.builder(NAME)
                  .column("device", ColumnType.VARCHAR)
                  .column("time", ColumnType.TIMESTAMPTZ)
                  .column("value", ColumnType.DOUBLE)
                  .timeColumn("time")
                  .seriesKey("device")
                  .chunk(Chunk.HOUR)
                  .build());
      for (int a = 0; a < 12; a++) {
        appendRandom(table, random, a);
        if (a % 4 == 3) {
          List<String> expected = rows(session, ALL.formatted(NAME));

          execute(duckdb, table.duckdbView());

          assertThat(rows(duckdb, ALL.formatted("readings")))
              .as("%s, view after append %d", TestRandom.describe(seed), a)
              .isEqualTo(expected);
          assertThat(rows(duckdb, recipe()))
              .as("%s, _ingest_ts recipe after append %d", TestRandom.describe(seed), a)
              .isEqualTo(expected);
        }
      }
    }
  }

  /** The documented recipe: the latest insertion time of each key over every data file. */
  private String recipe() throws Exception {
    List<String> paths = new ArrayList<>();
    Catalog catalog = Catalogs.openEmbedded(warehouse);
    try (CloseableIterable<FileScanTask> tasks =
        catalog.loadTable(TableIdentifier.parse(NAME)).newScan().planFiles()) {
      tasks.forEach(task -> paths.add(SqlText.localPath(task.file().location())));
    } finally {
      ((AutoCloseable) catalog).close();
    }
    return "SELECT device, time, value, _ingest_ts FROM read_parquet("
        + SqlText.literalList(paths)
        + ") QUALIFY row_number() OVER (PARTITION BY device, time ORDER BY _ingest_ts DESC) = 1"
        + " ORDER BY ALL";
  }

  /** Recent rows, late rows and copies on a coarse grid; appends 45 minutes apart. */
  private static void appendRandom(Table table, Random random, int index) {
    Instant now = T0.plus(Duration.ofMinutes(45L * index));
    Append append = table.newAppend().clock(Clock.fixed(now, ZoneOffset.UTC));
    if (random.nextBoolean()) {
      append.withoutMaintenance();
    }
    int rows = 1 + random.nextInt(30);
    for (int r = 0; r < rows; r++) {
      Instant time =
          random.nextInt(4) == 0
              ? T0.plus(Duration.ofMinutes(15L * random.nextInt(3 * (index + 1))))
              : now.minus(Duration.ofMinutes(15L * random.nextInt(4)));
      append.row("d" + random.nextInt(3), time, (double) random.nextInt(100));
    }
    AppendResult result = append.commit();
    assertThat(result.maintenanceError()).isEmpty();
  }

  private static void execute(Connection duckdb, String sql) throws Exception {
    try (Statement statement = duckdb.createStatement()) {
      statement.execute(sql);
    }
  }

  private static List<String> rows(Connection duckdb, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Statement statement = duckdb.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(String.valueOf(row));
      }
    }
    return rows;
  }

  private static List<String> rows(Session session, String sql) {
    List<String> rows = new ArrayList<>();
    try (QueryResult result = session.sql(sql)) {
      result.rows().forEach(row -> rows.add(String.valueOf(row)));
    }
    return rows;
  }
}
