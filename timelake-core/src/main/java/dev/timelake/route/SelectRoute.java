package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;

/** How routing answered one SELECT over {@code table}, a raw table with rollups. */
public record SelectRoute(TableName table, RouteDecision decision) {
  public SelectRoute {
    requireNonNull(table, "table is null");
    requireNonNull(decision, "decision is null");
  }
}
