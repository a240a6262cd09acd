package dev.timelake.bench;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
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
 * What one statement costs in process beyond DuckDB's own work: a point query (one series, one hour
 * of a day of minutes for 1,000 series) through a Timelake session against the same query by plain
 * DuckDB over the table's files, and {@code SELECT 1} through both. Each round runs every measure
 * {@code iterations} times in turn and reads every value of every row; the report gives each round
 * and the median of the rounds. A program, not a test:
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -cp timelake-bench/target/timelake-bench.jar \
 *     dev.timelake.bench.StatementCostBenchmark [iterations] [rounds]
 * </pre>
 */
public final class StatementCostBenchmark {
  private static final String POINT =
      "SELECT time, value FROM %s WHERE tag = 'tag5' AND time >= TIMESTAMPTZ '2026-01-01"
          + " 10:00:00+00' AND time < TIMESTAMPTZ '2026-01-01 11:00:00+00'";

  private StatementCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    Path work = Files.createTempDirectory("timelake-statement-cost-");
    try (Lake lake = Lake.open(work.resolve("warehouse"));
        Session session = lake.newSession();
        Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
      run(
          session,
          "CREATE TABLE iot.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
              + " 'time', series_key = 'tag', chunk = '1 day')");
      run(
          session,
          "INSERT INTO iot.r SELECT 'tag' || (i % 1000), TIMESTAMPTZ '2026-01-01 00:00:00+00' +"
              + " to_seconds(60 * (i // 1000)), i FROM range(1440000) t(i)");
      execute(duckdb, "SET TimeZone = 'UTC'");
      execute(duckdb, "SET parquet_metadata_cache = true");
      List<String> files = FoundationBenchmark.dataFiles(lake, "iot.r");
      execute(
          duckdb,
          "CREATE VIEW plain AS SELECT * FROM read_parquet(["
              + String.join(", ", files.stream().map(f -> "'" + f + "'").toList())
              + "])");
      String timelakePoint = String.format(Locale.ROOT, POINT, "iot.r");
      String plainPoint = String.format(Locale.ROOT, POINT, "plain");
      List<double[]> figures = new ArrayList<>();
      System.out.println(
          "| round | Timelake point | DuckDB point | overhead | Timelake SELECT 1 |"
              + " DuckDB SELECT 1 |");
      System.out.println("|---:|---:|---:|---:|---:|---:|");
      for (int round = 0; round <= rounds; round++) {
        double timelake = millis(iterations, () -> timelake(session, timelakePoint));
        double plain = millis(iterations, () -> plain(duckdb, plainPoint));
        double timelakeOne = millis(iterations, () -> timelake(session, "SELECT 1"));
        double plainOne = millis(iterations, () -> plain(duckdb, "SELECT 1"));
        if (round == 0) {
          continue; // warm-up
        }
        figures.add(new double[] {timelake, plain, timelake - plain, timelakeOne, plainOne});
        System.out.println(row(String.valueOf(round), figures.get(figures.size() - 1)));
      }
      double[] medians = new double[5];
      for (int i = 0; i < medians.length; i++) {
        List<Double> values = new ArrayList<>();
        for (double[] figure : figures) {
          values.add(figure[i]);
        }
        Collections.sort(values);
        medians[i] = values.get(values.size() / 2);
      }
      System.out.println(row("median", medians));
    }
  }

  private interface Query {
    void run() throws SQLException;
  }

  private static double millis(int iterations, Query query) throws SQLException {
    long started = System.nanoTime();
    for (int i = 0; i < iterations; i++) {
      query.run();
    }
    return (System.nanoTime() - started) / 1e6 / iterations;
  }

  private static void timelake(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      result.rows();
    }
  }

  private static void plain(Connection duckdb, String sql) throws SQLException {
    try (Statement statement = duckdb.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        for (int i = 1; i <= columns; i++) {
          result.getObject(i);
        }
      }
    }
  }

  private static String row(String label, double[] figures) {
    return String.format(
        Locale.ROOT,
        "| %s | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.3f ms |",
        label,
        figures[0],
        figures[1],
        figures[2],
        figures[3],
        figures[4]);
  }

  private static void run(Session session, String sql) {
    session.sql(sql).close();
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
