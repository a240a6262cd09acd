package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.Engine;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.read.DedupStrategy;
import dev.timelake.read.ScanPlanner;
import dev.timelake.read.ScanSql;
import dev.timelake.table.SessionSettings;
import dev.timelake.table.Settings;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.expressions.Expressions;

/**
 * Views named like the lake's tables ({@code "iot"."readings"}, and {@code main} for namespace
 * default) in a catalog private to the session, so a statement Timelake cannot parse still reads
 * every table with dedup, only without pruning. Refreshed to the current snapshots before each such
 * statement.
 */
final class FallbackViews {
  /** The explanation of a statement run against these views. */
  static final String EXPLANATION = "statement not parsed; ran against per-table views";

  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final SessionSettings settings;

  /** The tables the session's user may read: views are made for those only. */
  private final java.util.function.Predicate<TableName> readable;

  private final Set<String> schemas = new HashSet<>();

  /** What each view reads now: a view is replaced only when its table changed, keeping its oid. */
  private final java.util.Map<TableName, String> defined = new java.util.HashMap<>();

  private String attached;

  FallbackViews(
      LakeCatalog catalog,
      EngineConnection connection,
      SessionSettings settings,
      java.util.function.Predicate<TableName> readable) {
    this.catalog = catalog;
    this.connection = connection;
    this.settings = settings;
    this.readable = readable;
  }

  void refresh() {
    if (attached == null) {
      // A database of the shared engine, so its name must be unique to this session.
      String name = "__tl_session_" + java.util.UUID.randomUUID().toString().replace("-", "");
      connection.execute("ATTACH ':memory:' AS " + name);
      connection.execute("USE " + name);
      // The signal aggregates are macros of the engine's own catalog; keep them visible.
      connection.execute(
          "SET search_path = " + SqlText.literal(name + ".main," + Engine.CATALOG + ".main"));
      attached = name;
    }
    Set<TableName> current = new HashSet<>(catalog.tables());
    current.removeIf(readable.negate());
    for (TableName gone : Set.copyOf(defined.keySet())) {
      if (!current.contains(gone)) {
        drop(gone);
      }
    }
    for (TableName name : current) {
      LoadedTable table = catalog.load(name).orElse(null);
      if (table == null) {
        drop(name);
        continue;
      }
      boolean dedup = settings.isEnabled(Settings.READ_DEDUP, table.contract());
      DedupStrategy strategy =
          DedupStrategy.parse(
              settings.resolve(Settings.READ_DEDUP_STRATEGY, table.contract()).orElse("merge"));
      String relation =
          ScanSql.relation(
              ScanPlanner.plan(table, Expressions.alwaysTrue(), dedup), strategy, table.files());
      if (relation.equals(defined.get(name))) {
        continue;
      }
      if (!schemas.contains(name.namespace())) {
        connection.execute("CREATE SCHEMA IF NOT EXISTS " + SqlText.identifier(name.namespace()));
        schemas.add(name.namespace());
      }
      connection.execute(
          "CREATE OR REPLACE VIEW "
              + SqlText.qualified(name.namespace(), name.name())
              + " AS "
              + relation);
      if (name.namespace().equals(TableName.DEFAULT_NAMESPACE)) {
        connection.execute(
            "CREATE OR REPLACE VIEW " + SqlText.qualified("main", name.name()) + " AS " + relation);
      }
      defined.put(name, relation); // only once the views exist: a failure is tried again
    }
  }

  /**
   * Forgets what was defined, after a ROLLBACK of the client's transaction: the database, schemas
   * and views created inside it are gone (the database is detached if it was attached before), so
   * the next {@link #refresh} makes them again.
   */
  void forget() {
    if (attached != null) {
      connection.execute("USE " + Engine.CATALOG);
      connection.execute("RESET search_path");
      connection.execute("DETACH DATABASE IF EXISTS " + attached);
    }
    attached = null;
    schemas.clear();
    defined.clear();
  }

  /** Detaches the session's database: it belongs to the shared engine, not to the session. */
  void close() {
    if (attached != null) {
      connection.execute("USE " + Engine.CATALOG);
      connection.execute("DETACH " + attached);
      attached = null;
    }
  }

  private void drop(TableName name) {
    if (defined.remove(name) == null) {
      return;
    }
    connection.execute("DROP VIEW IF EXISTS " + SqlText.qualified(name.namespace(), name.name()));
    if (name.namespace().equals(TableName.DEFAULT_NAMESPACE)) {
      connection.execute("DROP VIEW IF EXISTS " + SqlText.qualified("main", name.name()));
    }
  }
}
