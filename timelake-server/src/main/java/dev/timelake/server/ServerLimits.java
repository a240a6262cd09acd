package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What one server allows: at most {@code maxConnections} clients at once (more are refused with
 * SQLSTATE 53300), and statements cancelled after {@code statementTimeout} (zero: no limit).
 */
public record ServerLimits(int maxConnections, Duration statementTimeout) {
  /** 64 clients, no statement timeout. */
  public static final ServerLimits DEFAULT = new ServerLimits(64, Duration.ZERO);

  public ServerLimits {
    if (maxConnections < 1) {
      throw new IllegalArgumentException(
          "The connection limit must be at least 1, not " + maxConnections);
    }
    requireNonNull(statementTimeout, "statementTimeout is null");
    if (statementTimeout.isNegative()) {
      throw new IllegalArgumentException("The statement timeout must not be negative");
    }
  }
}
