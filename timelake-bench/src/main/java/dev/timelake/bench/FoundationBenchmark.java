package dev.timelake.bench;

import dev.timelake.AppendResult;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The foundation's figures: append throughput of a large Parquet and CSV import, and the session's
 * overhead per query (planning and rewriting) against plain DuckDB on the same files, for a point
 * query and a full scan. A program, not a test:
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -cp timelake-cli/target/timelake.jar \
 *     dev.timelake.bench.FoundationBenchmark [rows] [runs]
 * </pre>
 */
public final class FoundationBenchmark {
  private FoundationBenchmark() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Path work = Files.createTempDirectory("timelake-foundation-");
    Path parquet = work.resolve("input.parquet");
    Path csv = work.resolve("input.csv");
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
      execute(duckdb, "SET TimeZone = 'UTC'");
      String input =
          "SELECT 'device-' || lpad(CAST(i % 1000 AS VARCHAR), 4, '0') AS device,"
              + " make_timestamptz(CAST(1767225600000000 + (i // 1000) * 8640000 AS BIGINT)) AS time,"
              + " CAST(hash(i) % 100000 AS DOUBLE) / 100 AS value FROM range("
              + rows
              + ") r(i)";
      execute(duckdb, "COPY (" + input + ") TO '" + parquet + "' (FORMAT parquet)");
      execute(duckdb, "COPY (" + input + ") TO '" + csv + "' (FORMAT csv, HEADER)");
    }
    List<String> report = new ArrayList<>();
    report.add("| measure | value |");
    report.add("|---|---|");
    try (Lake lake = Lake.open(work.resolve("warehouse"))) {
      report.add(importRow(lake, "bench.from_parquet", parquet, rows, "Parquet"));
      report.add(importRow(lake, "bench.from_csv", csv, rows, "CSV"));
      List<String> files = dataFiles(lake, "bench.from_parquet");
      try (Session session = lake.newSession();
          Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
        execute(duckdb, "SET TimeZone = 'UTC'");
        execute(
            duckdb,
            "CREATE VIEW plain AS SELECT * FROM read_parquet(["
                + String.join(", ", files.stream().map(f -> "'" + f + "'").toList())
                + "])");
        String point =
            "SELECT time, value FROM %s WHERE device = 'device-0042' AND time >= '2026-01-05"
                + " 10:00:00+00' AND time < '2026-01-05 11:00:00+00' ORDER BY time";
        String scan = "SELECT device, count(*), avg(value) FROM %s GROUP BY device ORDER BY device";
        report.add(overheadRow("point query (one device, one hour)", session, duckdb, point, runs));
        report.add(
            overheadRow("full scan (10 M rows, group by device)", session, duckdb, scan, runs));
      }
    }
    System.out.println(String.join("\n", report));
  }

  private static String importRow(Lake lake, String name, Path file, long rows, String kind) {
    Table table =
        lake.createTable(
            TableDefinition.builder(name)
                .column("device", ColumnType.VARCHAR)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .timeColumn("time")
                .seriesKey("device")
                .build());
    long started = System.nanoTime();
    AppendResult result = table.newAppend().withoutMaintenance().fromFile(file).commit();
    double seconds = (System.nanoTime() - started) / 1e9;
    return String.format(
        Locale.ROOT,
        "| %s import of %,d rows (%d files) | %.1f s, %,.0f rows/s |",
        kind,
        result.rows(),
        result.files(),
        seconds,
        rows / seconds);
  }

  private static String overheadRow(
      String what, Session session, Connection duckdb, String sql, int runs) throws SQLException {
    List<Long> timelake = new ArrayList<>();
    List<Long> plain = new ArrayList<>();
    for (int run = 0; run <= runs; run++) {
      long started = System.nanoTime();
      try (QueryResult result = session.sql(String.format(sql, "bench.from_parquet"))) {
        result.rows();
      }
      long middle = System.nanoTime();
      try (Statement statement = duckdb.createStatement();
          ResultSet result = statement.executeQuery(String.format(sql, "plain"))) {
        while (result.next()) {
          result.getObject(1);
        }
      }
      long ended = System.nanoTime();
      if (run > 0) {
        timelake.add(middle - started);
        plain.add(ended - middle);
      }
    }
    double t = median(timelake) / 1e6;
    double p = median(plain) / 1e6;
    return String.format(
        Locale.ROOT,
        "| %s: Timelake / plain DuckDB, median of %d | %.1f ms / %.1f ms (overhead %.1f ms, %.2fx) |",
        what,
        runs,
        t,
        p,
        t - p,
        t / p);
  }

  /** The Parquet files of the table's current snapshot, as its DuckDB view names them. */
  static List<String> dataFiles(Lake lake, String table) throws IOException {
    List<String> files = new ArrayList<>();
    String view = lake.table(table).duckdbView();
    for (String part : view.split("'")) {
      if (part.endsWith(".parquet")) {
        files.add(part);
      }
    }
    return files;
  }

  private static double median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
