package dev.timelake.signal;

import dev.timelake.script.SqlScript;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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
  private static final SqlScript SCRIPT = SqlScript.load(SignalFunctions.class, RESOURCE);

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
    return SCRIPT.text();
  }

  /** The script's statements, comments kept, in the order they must run. */
  public static List<String> statements() {
    return SCRIPT.statements();
  }

  /**
   * The names the script defines, public functions and helpers alike (from its {@code CREATE OR
   * REPLACE MACRO} lines), as one case-insensitive pattern.
   */
  private static final java.util.Set<String> NAMES = names();

  /** Every function's name, lower case. */
  private static java.util.Set<String> names() {
    java.util.Set<String> names = new java.util.HashSet<>();
    java.util.regex.Matcher macro =
        java.util.regex.Pattern.compile("CREATE OR REPLACE MACRO (\\w+)").matcher(SCRIPT.text());
    while (macro.find()) {
      names.add(macro.group(1).toLowerCase(java.util.Locale.ROOT));
    }
    return java.util.Set.copyOf(names);
  }

  /**
   * True when {@code sql} may call one of the functions (one of its words is one of their names).
   * One pass over the words: this runs before every statement, and an alternation of forty names
   * tried at every character cost a quarter of a short query's time in Java.
   */
  public static boolean mentions(String sql) {
    int length = sql.length();
    int start = -1;
    for (int i = 0; i <= length; i++) {
      boolean word = i < length && isWordChar(sql.charAt(i));
      if (word && start < 0) {
        start = i;
      } else if (!word && start >= 0) {
        if (NAMES.contains(sql.substring(start, i).toLowerCase(java.util.Locale.ROOT))) {
          return true;
        }
        start = -1;
      }
    }
    return false;
  }

  private static boolean isWordChar(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  /** Defines every function in the database {@code connection} belongs to. */
  public static void install(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : statements()) {
        statement.execute(sql);
      }
    }
  }
}
