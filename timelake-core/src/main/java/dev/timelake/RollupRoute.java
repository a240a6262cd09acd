package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * How rollup routing answered one SELECT of a statement over {@code table}, a raw table with
 * rollups: the rollups it read (empty when not routed) and, when not routed, why; and which
 * stretches of time each rollup answered and which were read from raw data ({@link #spans}). The
 * statement's explanation says the rest.
 */
public record RollupRoute(
    TableName table, List<TableName> rollups, Optional<String> reason, List<Span> spans) {
  public RollupRoute {
    requireNonNull(table, "table is null");
    rollups = List.copyOf(rollups);
    requireNonNull(reason, "reason is null");
    spans = List.copyOf(spans);
  }

  /** A route without its spans. */
  public RollupRoute(TableName table, List<TableName> rollups, Optional<String> reason) {
    this(table, rollups, reason, List.of());
  }

  /**
   * A stretch of time {@code [startMicros, endMicros)} (µs since 1970; {@link Long#MIN_VALUE} and
   * {@link Long#MAX_VALUE} for no bound) answered from {@code rollup}, or from raw data when empty:
   * rows changed since the rollup's refresh, partial edges, buckets the rollups do not nest in.
   */
  public record Span(Optional<TableName> rollup, long startMicros, long endMicros) {
    public Span {
      requireNonNull(rollup, "rollup is null");
    }

    /** True when raw data answers it. */
    public boolean isRaw() {
      return rollup.isEmpty();
    }
  }

  /** True when rollups answer (part of) the SELECT. */
  public boolean isRouted() {
    return !rollups.isEmpty();
  }
}
