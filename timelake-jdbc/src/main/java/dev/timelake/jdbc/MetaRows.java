package dev.timelake.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Result sets of catalogue rows (tables, columns, schemas) built in a private in-memory DuckDB, so
 * that they are real JDBC result sets with the column names and types JDBC specifies; the values go
 * in as bound parameters. The rows are materialized when the query runs.
 */
final class MetaRows implements AutoCloseable {
  private Connection duckdb;
  private long tables;

  /** One column of a catalogue result: its JDBC name and DuckDB type. */
  record Column(String name, String type) {}

  /** The rows {@code rows} (one value per column, in order) under {@code columns}. */
  ResultSet of(List<Column> columns, List<List<Object>> rows) throws SQLException {
    if (duckdb == null) {
      duckdb = DriverManager.getConnection("jdbc:duckdb:");
    }
    String table = "rows_" + tables++;
    List<String> definitions = new ArrayList<>();
    List<String> marks = new ArrayList<>();
    for (Column column : columns) {
      definitions.add(dev.timelake.engine.SqlText.identifier(column.name()) + " " + column.type());
      marks.add("?");
    }
    try (Statement statement = duckdb.createStatement()) {
      statement.execute(
          "CREATE TEMPORARY TABLE " + table + " (" + String.join(", ", definitions) + ")");
    }
    if (!rows.isEmpty()) {
      try (PreparedStatement insert =
          duckdb.prepareStatement(
              "INSERT INTO " + table + " VALUES (" + String.join(", ", marks) + ")")) {
        for (List<Object> row : rows) {
          for (int i = 0; i < row.size(); i++) {
            insert.setObject(i + 1, row.get(i));
          }
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    Statement query = duckdb.createStatement();
    ResultSet result = query.executeQuery("SELECT * FROM " + table);
    try (Statement drop = duckdb.createStatement()) {
      drop.execute("DROP TABLE " + table);
    }
    return result;
  }

  @Override
  public void close() throws SQLException {
    if (duckdb != null) {
      duckdb.close();
    }
  }
}
