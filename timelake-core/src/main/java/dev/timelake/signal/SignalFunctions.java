package dev.timelake.signal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The signal aggregates — {@code time_weighted_mean}, {@code integral}, {@code m4}, {@code
 * gap_count}, {@code gap_seconds} — and their states ({@code time_weighted_state}, {@code
 * gap_state}, the m4 point list), as DuckDB macros. They are SQL, not Java, so that the same text
 * runs in plain DuckDB: {@link #script()} is what {@code timelake functions} prints.
 *
 * <p>Macros, and not a rewrite of the syntax tree, because DuckDB binds them like built-in
 * functions wherever an aggregate may stand, with typed overloads whose errors list the allowed
 * argument types; the measurements behind the choice are in docs/ARCHITECTURE.md.
 */
public final class SignalFunctions {
  private static final String RESOURCE = "functions.sql";
  private static final String SCRIPT = load();

  private SignalFunctions() {}

  /** The definitions as one SQL script of {@code CREATE OR REPLACE MACRO} statements. */
  public static String script() {
    return SCRIPT;
  }

  /** The script's statements, comments kept, in the order they must run. */
  public static List<String> statements() {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : SCRIPT.split("\n", -1)) {
      if (line.equals(";")) {
        statements.add(current.toString().strip());
        current.setLength(0);
      } else {
        current.append(line).append('\n');
      }
    }
    return List.copyOf(statements);
  }

  /** Defines every function in the database {@code connection} belongs to. */
  public static void install(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : statements()) {
        statement.execute(sql);
      }
    }
  }

  private static String load() {
    try (InputStream in = SignalFunctions.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "Missing resource " + RESOURCE + " next to SignalFunctions");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
