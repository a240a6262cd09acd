package dev.timelake.maintain;

import dev.timelake.Append;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.catalog.Catalogs;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.SqlText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/**
 * A lake in a temporary folder plus the views of it that maintenance tests need: the Iceberg
 * metadata of a table, maintenance plans, the rows the Timelake reader returns and the rows plain
 * DuckDB returns over data files. The lake and the views use separate catalog connections to the
 * same warehouse, so the views see only what was committed.
 */
final class MaintenanceFixture implements AutoCloseable {
  /** Rows as the oracle {@link LatestWrites} prints them: device, time in µs, value. */
  static final String ROWS = "SELECT device, epoch_us(time), value FROM %s ORDER BY ALL";

  /** One row of a readings table. */
  record Row(String device, Instant time, Double value) {}

  final Path warehouse;
  final Lake lake;
  private final Catalog iceberg;
  private final LakeCatalog planning;
  private Connection duckdb;

  MaintenanceFixture(Path warehouse) {
    this.warehouse = warehouse;
    this.lake = Lake.open(warehouse);
    this.iceberg = Catalogs.openEmbedded(warehouse);
    this.planning = new LakeCatalog(iceberg, "test view", warehouse.resolve(".planning-tmp"));
  }

  /** A readings table (device, time, value) keyed by (device, time), with the given options. */
  static TableDefinition.Builder readings(String name) {
    return TableDefinition.builder(name)
        .column("device", ColumnType.VARCHAR)
        .column("time", ColumnType.TIMESTAMPTZ)
        .column("value", ColumnType.DOUBLE)
        .timeColumn("time")
        .seriesKey("device");
  }

  Table create(TableDefinition.Builder definition) {
    return lake.createTable(definition.build());
  }

  /**
   * An append of {@code rows} with insertion time {@code ingest}, recorded in {@code oracle}; the
   * caller commits it.
   */
  static Append append(Table table, Instant ingest, List<Row> rows, LatestWrites oracle) {
    Append append = table.newAppend().clock(Clock.fixed(ingest, ZoneOffset.UTC));
    for (Row row : rows) {
      append.row(row.device(), row.time(), row.value());
      oracle.add(row.device(), row.time(), row.value(), ingest);
    }
    return append;
  }

  /** The table's newest committed state, as the planner sees it. */
  LoadedTable loaded(String name) {
    return planning.require(TableName.parse(name));
  }

  /** The maintenance plan for the table's newest state. */
  MaintenancePlan plan(String name, MaintenanceMode mode, Instant now) {
    return MaintenancePlanner.plan(
        loaded(name), new MaintenanceOptions(mode, now, Set.of(), Map.of(), Map.of()));
  }

  /** A separate engine for running plans directly. */
  LakeCatalog planning() {
    return planning;
  }

  /** The Iceberg table, freshly loaded. */
  org.apache.iceberg.Table iceberg(String name) {
    return iceberg.loadTable(TableIdentifier.parse(name));
  }

  /** The live data files of the current snapshot, in commit order (data sequence number). */
  List<DataFile> dataFiles(String name) {
    return dataFiles(iceberg(name), null);
  }

  /** The live data files of a snapshot ({@code null}: the current one), in commit order. */
  static List<DataFile> dataFiles(org.apache.iceberg.Table table, Long snapshotId) {
    if (table.currentSnapshot() == null) {
      return List.of();
    }
    List<DataFile> files = new ArrayList<>();
    var scan = snapshotId == null ? table.newScan() : table.newScan().useSnapshot(snapshotId);
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      tasks.forEach(task -> files.add(task.file().copyWithoutStats()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    files.sort(
        Comparator.comparing(DataFile::dataSequenceNumber).thenComparing(DataFile::location));
    return files;
  }

  /** The live data files of one partition ({@code time_day} label such as 2026-01-01). */
  List<DataFile> dataFiles(String name, String partitionLabel) {
    return dataFiles(name).stream()
        .filter(file -> file.location().contains("=" + partitionLabel + "/"))
        .toList();
  }

  /** Every regular file under the table's folder. */
  Set<String> filesOnDisk(String name) {
    Path root = Path.of(SqlText.localPath(iceberg(name).location()));
    try (Stream<Path> paths = Files.walk(root)) {
      Set<String> files = new TreeSet<>();
      paths.filter(Files::isRegularFile).forEach(p -> files.add(p.toString()));
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The rows the Timelake reader returns, one string per row. */
  List<String> query(String sql) {
    try (Session session = lake.newSession()) {
      return query(session, sql);
    }
  }

  static List<String> query(Session session, String sql) {
    List<String> rows = new ArrayList<>();
    try (QueryResult result = session.sql(sql)) {
      result.rows().forEach(row -> rows.add(String.valueOf(row)));
    }
    return rows;
  }

  /** The rows plain DuckDB (no Timelake) returns, one string per row. */
  List<String> plain(String sql) {
    try (Statement statement = duckdb().createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<Object> row = new ArrayList<>(columns);
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(String.valueOf(row));
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage() + " in " + sql, e);
    }
  }

  /** Runs a statement in plain DuckDB. */
  void plainExecute(String sql) {
    try (Statement statement = duckdb().createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage() + " in " + sql, e);
    }
  }

  /** A DuckDB TIMESTAMPTZ literal. */
  static String literal(Instant time) {
    return "TIMESTAMPTZ '" + time.toString().replace('T', ' ').replace("Z", "+00") + "'";
  }

  /** {@code read_parquet([...])} over data files. */
  static String readParquet(Collection<DataFile> files) {
    return "read_parquet("
        + SqlText.literalList(files.stream().map(f -> SqlText.localPath(f.location())).toList())
        + ")";
  }

  private Connection duckdb() throws SQLException {
    if (duckdb == null) {
      duckdb = DriverManager.getConnection("jdbc:duckdb:");
      try (Statement statement = duckdb.createStatement()) {
        statement.execute("SET TimeZone = 'UTC'");
      }
    }
    return duckdb;
  }

  @Override
  public void close() throws Exception {
    if (duckdb != null) {
      duckdb.close();
    }
    planning.close();
    lake.close();
  }
}
