package dev.timelake.server;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows password guessing, shared by the PostgreSQL and the HTTP server: after {@value
 * #FAILURES_BEFORE_BLOCK} failed logins from one address, each less than {@link #BLOCK} after the
 * one before, that address is refused without a password check until {@link #BLOCK} after its last
 * failure. At most 10 guesses a minute per address, then; a user who mistypes a few times is not
 * locked out, and a success forgets the address's failures. Refusing at once (rather than delaying
 * the answer) keeps a guessing client from holding the servers' threads.
 */
final class LoginThrottle {
  static final int FAILURES_BEFORE_BLOCK = 10;
  static final Duration BLOCK = Duration.ofSeconds(60);

  /** Beyond this many remembered addresses, forgotten failures are swept on the next failure. */
  private static final int SWEEP_ABOVE = 10_000;

  private record Failures(int count, Instant last) {}

  private final Map<InetAddress, Failures> failures = new ConcurrentHashMap<>();
  private final Clock clock;

  LoginThrottle(Clock clock) {
    this.clock = clock;
  }

  /** How long {@code address} must still wait before it may try again; empty when it may now. */
  Optional<Duration> blocked(InetAddress address) {
    Failures recent = failures.get(address);
    if (recent == null || recent.count() < FAILURES_BEFORE_BLOCK) {
      return Optional.empty();
    }
    Duration left = Duration.between(clock.instant(), recent.last().plus(BLOCK));
    return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
  }

  /** Counts a wrong password (or an unknown user) from {@code address}. */
  void failed(InetAddress address) {
    Instant now = clock.instant();
    failures.compute(
        address,
        (key, before) ->
            before == null || before.last().plus(BLOCK).isBefore(now)
                ? new Failures(1, now)
                : new Failures(before.count() + 1, now));
    if (failures.size() > SWEEP_ABOVE) {
      failures.values().removeIf(f -> f.last().plus(BLOCK).isBefore(now));
    }
  }

  /** A login from {@code address} succeeded: its failures are forgotten. */
  void succeeded(InetAddress address) {
    failures.remove(address);
  }

  /** The message a refused client gets. */
  static String refusal(InetAddress address, Duration left) {
    return "Too many failed logins from "
        + address.getHostAddress()
        + ": try again in "
        + Math.max(1, (left.toMillis() + 999) / 1000)
        + " s";
  }
}
