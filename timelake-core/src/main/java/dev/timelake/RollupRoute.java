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
   * {@link Long#MAX_VALUE} for no bound) answered from {@code rollup}, or from raw data when empty,
   * then with the reason.
   */
  public record Span(
      Optional<TableName> rollup, long startMicros, long endMicros, Optional<RawReason> reason) {
    public Span {
      requireNonNull(rollup, "rollup is null");
      requireNonNull(reason, "reason is null");
      if (rollup.isPresent() == reason.isPresent()) {
        throw new IllegalArgumentException(
            "A span is answered from a rollup or, for a reason, from raw data: " + rollup);
      }
    }

    /** A stretch a rollup answered. */
    public Span(TableName rollup, long startMicros, long endMicros) {
      this(Optional.of(rollup), startMicros, endMicros, Optional.empty());
    }

    /** A stretch raw data answered, for {@code reason}. */
    public Span(RawReason reason, long startMicros, long endMicros) {
      this(Optional.empty(), startMicros, endMicros, Optional.of(reason));
    }

    /** True when raw data answers it. */
    public boolean isRaw() {
      return rollup.isEmpty();
    }
  }

  /** Why a stretch of a routed answer was read from raw data. */
  public enum RawReason {
    /** Part of a bucket at an edge of the query's range (or of a calendar bucket): not whole. */
    PARTIAL_BUCKET("partial bucket at an edge of the range"),
    /**
     * Whole buckets whose rows changed or were added after the rollup's refresh (late rows, new
     * rows, deletes), or that no rollup's buckets nest in.
     */
    CHANGED_SINCE_REFRESH("changed since the rollup's refresh");

    private final String description;

    RawReason(String description) {
      this.description = description;
    }

    /** The reason in words, for a plan view. */
    public String description() {
      return description;
    }
  }

  /** True when rollups answer (part of) the SELECT. */
  public boolean isRouted() {
    return !rollups.isEmpty();
  }
}
