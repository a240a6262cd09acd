package dev.timelake.iiot;

import dev.timelake.ErrorCode;
import dev.timelake.QueryFailedException;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Writes query results to Parquet files with a DuckDB of its own, outside any lake. */
final class PlainParquetWriter implements AutoCloseable {
  private final Connection connection;
  private final Path directory;

  private PlainParquetWriter(Connection connection, Path directory) {
    this.connection = connection;
    this.directory = directory;
  }

  /** Opens an in-memory DuckDB that writes into {@code directory}, creating it when missing. */
  static PlainParquetWriter open(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw TimelakeException.validation(
          "Cannot create folder %s for Parquet files: %s", directory, e.getMessage());
    }
    try {
      Connection connection = DriverManager.getConnection("jdbc:duckdb:");
      try (Statement statement = connection.createStatement()) {
        statement.execute("SET TimeZone = 'UTC'");
      }
      return new PlainParquetWriter(connection, directory.toAbsolutePath());
    } catch (SQLException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot start DuckDB to write Parquet: " + e.getMessage(), e);
    }
  }

  /** Writes the rows of {@code query} to {@code fileName} and returns how many there were. */
  long write(String fileName, String query) {
    String target = directory.resolve(fileName).toString().replace("'", "''");
    String copy =
        "COPY (" + query + ") TO '" + target + "' (FORMAT parquet, COMPRESSION zstd, RETURN_STATS)";
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(copy)) {
      long rows = 0;
      while (result.next()) {
        rows += result.getLong("count");
      }
      return rows;
    } catch (SQLException e) {
      throw new QueryFailedException(
          "Cannot write " + directory.resolve(fileName) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new TimelakeException(ErrorCode.INTERNAL, "Cannot close DuckDB: " + e.getMessage(), e);
    }
  }
}
