package dev.timelake.engine;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which DuckDB functions give a different value from one run to the next: those that read the clock
 * ({@code now()}, {@code today()}, … — one value per query) and those that draw a random value
 * ({@code random()}, … — one per call). Read from {@code duckdb_functions()} by the first
 * connection; until then, and for functions DuckDB adds later, known names stand in.
 */
public final class FunctionStability {
  private static volatile Set<String> perQuery =
      Set.of(
          "now",
          "today",
          "current_date",
          "current_time",
          "current_timestamp",
          "get_current_time",
          "get_current_timestamp",
          "transaction_timestamp",
          "localtime",
          "localtimestamp");
  private static volatile Set<String> perCall =
      Set.of("random", "uuid", "gen_random_uuid", "uuidv4", "uuidv7", "setseed", "nextval");
  private static volatile boolean loaded;

  private FunctionStability() {}

  /** Reads every function's stability from the engine, once per process. */
  static void load(EngineConnection connection) {
    if (loaded) {
      return;
    }
    Set<String> query = new HashSet<>(perQuery);
    Set<String> call = new HashSet<>(perCall);
    for (List<Object> row :
        connection.rows(
            "SELECT DISTINCT lower(function_name), stability FROM duckdb_functions()"
                + " WHERE stability <> 'CONSISTENT'")) {
      (String.valueOf(row.get(1)).equals("VOLATILE") ? call : query)
          .add(String.valueOf(row.get(0)));
    }
    perQuery = Set.copyOf(query);
    perCall = Set.copyOf(call);
    loaded = true;
  }

  /** True when {@code function}'s value depends on when the query runs (one value per query). */
  public static boolean readsTheClock(String function) {
    return perQuery.contains(function.toLowerCase(Locale.ROOT));
  }

  /** True when {@code function} may give another value at every call ({@code random()}). */
  public static boolean isRandom(String function) {
    return perCall.contains(function.toLowerCase(Locale.ROOT));
  }
}
