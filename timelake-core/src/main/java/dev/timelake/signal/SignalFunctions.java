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
 * gap_count}, {@code gap_seconds}, {@code approx_percentile} — and their states ({@code
 * time_weighted_state}, {@code gap_state}, the m4 point list, {@code percentile_sketch}), as DuckDB
 * macros. They are SQL, not Java, so that the same text runs in plain DuckDB: {@link #script()} is
 * what {@code timelake functions} prints.
 *
 * <p>Macros, and not a rewrite of the syntax tree, because DuckDB binds them like built-in
 * functions wherever an aggregate may stand, with typed overloads whose errors list the allowed
 * argument types; the measurements behind the choice are in docs/ARCHITECTURE.md.
 */
public final class SignalFunctions {
  private static final String RESOURCE = "functions.sql";
  private static final String SCRIPT = load();

  /** DuckDB's refusal of a macro with several aggregates under {@code OVER (…)}. */
  private static final String WINDOW_REFUSAL =
      "Window function macro bodies must contain exactly one aggregate function";

  private SignalFunctions() {}

  /**
   * A DuckDB error message, with what to do instead where a signal aggregate was used as a window
   * function: DuckDB's words name neither the function nor the way out.
   */
  public static String explainFailure(String message) {
    if (!message.contains(WINDOW_REFUSAL)) {
      return message;
    }
    return message
        + "\n  time_weighted_mean, time_weighted_state, integral, m4, gap_count, gap_seconds,"
        + " gap_state, approx_percentile and percentile_sketch are aggregates, not window functions: compute them with GROUP BY (per bucket:"
        + " GROUP BY keys, time_bucket(…)) and join the result back where rows need it.";
  }

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

  /**
   * The names the script defines, public functions and helpers alike (from its {@code CREATE OR
   * REPLACE MACRO} lines), as one case-insensitive pattern.
   */
  private static final java.util.regex.Pattern NAMES = names();

  /** One pattern of every name, so a statement is scanned once (this runs before each one). */
  private static java.util.regex.Pattern names() {
    java.util.List<String> names = new java.util.ArrayList<>();
    java.util.regex.Matcher macro =
        java.util.regex.Pattern.compile("CREATE OR REPLACE MACRO (\\w+)").matcher(SCRIPT);
    while (macro.find()) {
      names.add(java.util.regex.Pattern.quote(macro.group(1)));
    }
    return java.util.regex.Pattern.compile(
        String.join("|", names), java.util.regex.Pattern.CASE_INSENSITIVE);
  }

  /** True when {@code sql} may call one of the functions (it contains one of their names). */
  public static boolean mentions(String sql) {
    return NAMES.matcher(sql).find();
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
