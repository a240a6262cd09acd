package dev.timelake.server;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Interrupts a worker whose client takes longer than the limit to send its request or take the
 * answer: the JDK's server reads and writes blocking channels, which an interrupt closes. Never
 * interrupts once stopped, so the catalog's work in between is not disturbed. Thread-safe.
 *
 * <p>One limit, counted afresh from each {@link #start}; the line-protocol server's {@link
 * LineProtocolDeadline} differs: several deadlines counted from a request's first byte, and a
 * deadline once passed fails every later read.
 */
final class RestRequestDeadline {
  private static final ThreadLocal<RestRequestDeadline> CURRENT = new ThreadLocal<>();

  private final Thread worker;
  private final ScheduledExecutorService timer;
  private final Duration limit;
  private long started; // which start an expiry belongs to; guarded by this
  private ScheduledFuture<?> expiry; // guarded by this

  RestRequestDeadline(Thread worker, ScheduledExecutorService timer, Duration limit) {
    this.worker = worker;
    this.timer = timer;
    this.limit = limit;
  }

  /**
   * Runs one exchange of the JDK's server, which reads the request line and headers on this worker
   * (its first bytes have arrived by then) from a blocking channel, under a deadline of {@code
   * limit} that {@link #current} gives to the exchange's handler.
   */
  static void run(Runnable exchange, ScheduledExecutorService timer, Duration limit) {
    RestRequestDeadline deadline = new RestRequestDeadline(Thread.currentThread(), timer, limit);
    CURRENT.set(deadline);
    deadline.start();
    try {
      exchange.run();
    } finally {
      deadline.stop();
      CURRENT.remove();
      Thread.interrupted(); // an expiry's interrupt must not reach the next exchange
    }
  }

  /** The deadline of the exchange running on this worker. */
  static RestRequestDeadline current() {
    return CURRENT.get();
  }

  /** Counts the limit from now, in place of any earlier start. */
  synchronized void start() {
    stop();
    long start = ++started;
    expiry = timer.schedule(() -> expire(start), limit.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops counting: no interrupt comes until the next start. */
  synchronized void stop() {
    started++;
    if (expiry != null) {
      expiry.cancel(false);
      expiry = null;
    }
  }

  private synchronized void expire(long start) {
    if (start == started) {
      expiry = null;
      worker.interrupt();
    }
  }
}
