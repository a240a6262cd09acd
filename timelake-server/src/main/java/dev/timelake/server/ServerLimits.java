package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What one server allows: at most {@code maxConnections} clients at once (more are refused with
 * SQLSTATE 53300), statements cancelled after {@code statementTimeout} (zero: no limit), {@code
 * loginTimeout} in all from connecting to being logged in, however slowly a client sends, and at
 * most {@code copyBytes} sent by one {@code COPY … FROM STDIN} (staged on the server's disk).
 */
public record ServerLimits(
    int maxConnections, Duration statementTimeout, Duration loginTimeout, long copyBytes) {
  /** How long a client may take to log in by default (PostgreSQL: 1 minute). */
  public static final Duration LOGIN_TIMEOUT = Duration.ofSeconds(30);

  /** 64 clients, no statement timeout, 30 s to log in. */
  public static final ServerLimits DEFAULT = new ServerLimits(64, Duration.ZERO);

  /** The most one COPY … FROM STDIN may send by default. */
  public static final long COPY_BYTES = 1L << 30;

  /** {@code maxConnections} and {@code statementTimeout}, 30 s to log in, 1 GiB per COPY. */
  public ServerLimits(int maxConnections, Duration statementTimeout) {
    this(maxConnections, statementTimeout, LOGIN_TIMEOUT);
  }

  /** {@code maxConnections}, {@code statementTimeout} and {@code loginTimeout}, 1 GiB per COPY. */
  public ServerLimits(int maxConnections, Duration statementTimeout, Duration loginTimeout) {
    this(maxConnections, statementTimeout, loginTimeout, COPY_BYTES);
  }

  public ServerLimits {
    if (copyBytes < 1) {
      throw new IllegalArgumentException("The COPY limit must be at least 1 byte");
    }
    requireNonNull(loginTimeout, "loginTimeout is null");
    if (loginTimeout.isNegative() || loginTimeout.isZero()) {
      throw new IllegalArgumentException("The login timeout must be positive");
    }
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
