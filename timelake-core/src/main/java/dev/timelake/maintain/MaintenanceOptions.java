package dev.timelake.maintain;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * Inputs of one maintenance run: mode, the time it runs at, the partitions the triggering append
 * touched (empty: all), how often recent queries read each partition, and call-level overrides of
 * settings (e.g. {@code compact-min-files}).
 */
public record MaintenanceOptions(
    MaintenanceMode mode,
    Instant now,
    Set<Integer> touchedPartitions,
    Map<Integer, Long> heat,
    Map<String, String> overrides) {
  public MaintenanceOptions {
    requireNonNull(mode, "mode is null");
    requireNonNull(now, "now is null");
    touchedPartitions = Set.copyOf(touchedPartitions);
    heat = Map.copyOf(heat);
    overrides = Map.copyOf(overrides);
  }
}
