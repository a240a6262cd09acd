package dev.timelake.sql;

import dev.timelake.engine.EngineConnection;
import java.util.ArrayList;
import java.util.List;

/**
 * The temporary views one session creates for its statements. A statement's views stay until the
 * next statement starts, because DuckDB may still be streaming the statement's result.
 */
final class ViewRegistry {
  private final EngineConnection connection;
  private final List<String> live = new ArrayList<>();
  private long counter;

  ViewRegistry(EngineConnection connection) {
    this.connection = connection;
  }

  /** Creates a temporary view over {@code relation} and returns its name. */
  String create(String relation) {
    String name = "__tl_view_" + (++counter);
    connection.execute("CREATE OR REPLACE TEMPORARY VIEW " + name + " AS " + relation);
    live.add(name);
    return name;
  }

  /** Drops the views of the previous statement. */
  void dropAll() {
    for (String name : live) {
      connection.execute("DROP VIEW IF EXISTS " + name);
    }
    live.clear();
  }
}
