package dev.timelake.server;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Slows password guessing, shared by the PostgreSQL, line-protocol and REST servers. Failures are
 * counted per address and user: after {@value #FAILURES_BEFORE_BLOCK} failed logins of one user
 * from one address, each less than {@link #BLOCK} after the one before, that user is refused from
 * that address without a password check until {@link #BLOCK} after the last failure — so a local
 * process guessing one user's password cannot lock every other user out. Across every address and
 * user at most {@value #FAILURES_PER_MINUTE} failures a minute are let through, a ceiling on
 * guessing from many addresses or names at once.
 *
 * <p>A login first {@link #reserve reserves} its password check, which counts as a failure until
 * {@link #succeeded} says otherwise: concurrent attempts cannot get more checks than the limit.
 * Refusing at once (rather than delaying the answer) keeps a guessing client from holding the
 * servers' threads. Thread-safe.
 */
final class LoginThrottle {
  static final int FAILURES_BEFORE_BLOCK = 10;
  static final int FAILURES_PER_MINUTE = 100;
  static final Duration BLOCK = Duration.ofSeconds(60);

  /** Beyond this many remembered keys, forgotten failures are swept on the next failure. */
  private static final int SWEEP_ABOVE = 10_000;

  private record Key(InetAddress address, String user) {}

  private record Failures(int count, Instant last) {}

  private final Map<Key, Failures> failures = new HashMap<>();
  private final Deque<Instant> recent = new ArrayDeque<>();
  private final Clock clock;

  LoginThrottle(Clock clock) {
    this.clock = clock;
  }

  /**
   * Reserves one password check of {@code user} from {@code address}: empty when it may go ahead
   * (it counts as failed until {@link #succeeded}), else how long the client must wait.
   */
  synchronized Optional<Duration> reserve(InetAddress address, String user) {
    Instant now = clock.instant();
    Key key = new Key(address, user);
    Optional<Duration> blocked = blocked(key, now);
    if (blocked.isPresent()) {
      return blocked;
    }
    while (!recent.isEmpty() && !recent.peekFirst().plus(BLOCK).isAfter(now)) {
      recent.removeFirst();
    }
    if (recent.size() >= FAILURES_PER_MINUTE) {
      return Optional.of(Duration.between(now, recent.peekFirst().plus(BLOCK)));
    }
    recent.addLast(now);
    failures.compute(
        key,
        (k, before) ->
            before == null || before.last().plus(BLOCK).isBefore(now)
                ? new Failures(1, now)
                : new Failures(before.count() + 1, now));
    if (failures.size() > SWEEP_ABOVE) {
      failures.values().removeIf(f -> f.last().plus(BLOCK).isBefore(now));
    }
    return Optional.empty();
  }

  /** The login of {@code user} from {@code address} succeeded: its failures are forgotten. */
  synchronized void succeeded(InetAddress address, String user) {
    if (failures.remove(new Key(address, user)) != null && !recent.isEmpty()) {
      recent.removeLast();
    }
  }

  private Optional<Duration> blocked(Key key, Instant now) {
    Failures past = failures.get(key);
    if (past == null || past.count() < FAILURES_BEFORE_BLOCK) {
      return Optional.empty();
    }
    Duration left = Duration.between(now, past.last().plus(BLOCK));
    return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
  }

  /** The message a client refused a login of {@code user} gets. */
  static String refusal(InetAddress address, String user, Duration left) {
    return "Too many failed logins of user \""
        + user
        + "\" from "
        + address.getHostAddress()
        + " (or on this server): try again in "
        + Math.max(1, (left.toMillis() + 999) / 1000)
        + " s";
  }
}
