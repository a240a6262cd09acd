package dev.timelake.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** A one-line description of the machine a benchmark ran on, for its report. */
final class Machine {
  private Machine() {}

  /** E.g. {@code 2 cores, 3.0 GB heap, Linux 6.1 amd64, Java 17.0.15, DuckDB v1.4.0}. */
  static String describe() {
    Runtime runtime = Runtime.getRuntime();
    return String.format(
        Locale.ROOT,
        "%d cores, %.1f GB max heap, %s %s %s, Java %s, DuckDB %s",
        runtime.availableProcessors(),
        runtime.maxMemory() / 1e9,
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("os.arch"),
        System.getProperty("java.version"),
        duckdbVersion());
  }

  private static String duckdbVersion() {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT version()")) {
      return result.next() ? result.getString(1) : "(unknown)";
    } catch (SQLException e) {
      return "(unknown: " + e.getMessage() + ")";
    }
  }
}
