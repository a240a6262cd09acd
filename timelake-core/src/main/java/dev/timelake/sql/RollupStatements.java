package dev.timelake.sql;

import dev.timelake.NotFoundException;
import dev.timelake.RefreshReport;
import dev.timelake.StatementKind;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.maintain.InlineMaintenance;
import dev.timelake.refresh.RefreshPlan;
import dev.timelake.refresh.RefreshScheduler;
import dev.timelake.rollup.RollupDefinition;
import dev.timelake.rollup.RollupDefinitions;
import dev.timelake.rollup.RollupStatement;
import dev.timelake.rollup.RollupStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The rollup statements of a session: CREATE (the definition checked, the table created and filled
 * by a first refresh), REFRESH, DROP, and EXPLAIN REFRESH (the refresh's plan, nothing changed).
 */
final class RollupStatements {
  private final LakeCatalog catalog;

  /** Timelake's own connection of the session, never the client's. */
  private final java.util.function.Supplier<EngineConnection> connection;

  private final SqlSession session;

  RollupStatements(
      LakeCatalog catalog,
      java.util.function.Supplier<EngineConnection> connection,
      SqlSession session) {
    this.catalog = catalog;
    this.connection = connection;
    this.session = session;
  }

  StatementOutcome run(RollupStatement statement, Instant now) {
    RefreshScheduler refreshes = new RefreshScheduler(catalog, connection.get(), message -> {});
    return switch (statement.kind()) {
      case CREATE -> {
        if (statement.conditional() && catalog.exists(statement.name())) {
          yield StatementOutcome.message(
              StatementKind.CREATE_ROLLUP, "Rollup " + statement.name() + " already exists");
        }
        RollupDefinition definition =
            RollupDefinitions.define(
                statement,
                name -> catalog.require(name).contract(),
                new ConstantEvaluator(connection.get()));
        RefreshReport report = refreshes.create(definition, now);
        InlineMaintenance.afterRefresh(catalog, statement.name(), connection.get(), now, m -> {});
        yield StatementOutcome.wrote(
            StatementKind.CREATE_ROLLUP,
            "Created rollup " + statement.name() + " (" + report.rowsWritten() + " rows)",
            report.rowsWritten(),
            report.explanation());
      }
      case REFRESH -> {
        RefreshReport report = refreshes.refresh(statement.name(), now);
        InlineMaintenance.afterRefresh(catalog, statement.name(), connection.get(), now, m -> {});
        yield StatementOutcome.wrote(
            StatementKind.REFRESH_ROLLUP,
            "Refreshed rollup "
                + statement.name()
                + ": "
                + report.rowsWritten()
                + (report.rowsWritten() == 1 ? " row in " : " rows in ")
                + report.windows()
                + (report.windows() == 1 ? " window" : " windows")
                + (report.rebuilt() ? " (rebuilt)" : ""),
            report.rowsWritten(),
            report.explanation());
      }
      case DROP -> {
        if (RollupStore.drop(catalog, statement.name())) {
          yield StatementOutcome.message(
              StatementKind.DROP_ROLLUP, "Dropped rollup " + statement.name());
        }
        if (statement.conditional()) {
          yield StatementOutcome.message(
              StatementKind.DROP_ROLLUP, "Rollup " + statement.name() + " does not exist");
        }
        throw new NotFoundException(
            "Cannot drop rollup " + statement.name() + ": it does not exist");
      }
    };
  }

  /** EXPLAIN REFRESH MATERIALIZED ROLLUP: the plan's lines as rows; nothing is refreshed. */
  StatementOutcome explain(RollupStatement statement) {
    RefreshPlan plan =
        new RefreshScheduler(catalog, connection.get(), message -> {}).plan(statement.name());
    List<List<String>> rows = new ArrayList<>();
    plan.explanation().forEach(line -> rows.add(List.of("timelake", line)));
    return session.values(StatementKind.EXPLAIN, List.of("part", "explain"), rows);
  }
}
