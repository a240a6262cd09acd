package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * How rollup routing answered one SELECT of a statement over {@code table}, a raw table with
 * rollups: the rollups it read (empty when not routed) and, when not routed, why. The statement's
 * explanation says the rest.
 */
public record RollupRoute(TableName table, List<TableName> rollups, Optional<String> reason) {
  public RollupRoute {
    requireNonNull(table, "table is null");
    rollups = List.copyOf(rollups);
    requireNonNull(reason, "reason is null");
  }

  /** True when rollups answer (part of) the SELECT. */
  public boolean isRouted() {
    return !rollups.isEmpty();
  }
}
