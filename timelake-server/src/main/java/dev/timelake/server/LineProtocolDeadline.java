package dev.timelake.server;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The deadlines of one request, counted from its first byte, on the thread handling it. While the
 * thread reads from the client (the headers, the body) or writes the answer, a deadline that passes
 * interrupts the thread, which closes the connection's channel and ends a blocked read or write
 * with an {@link IOException}; while it works (parses, writes to the lake) nothing interrupts it.
 * Only the request's own thread calls its methods but {@link #fire}.
 *
 * <p>Not the REST server's {@link RestRequestDeadline}, which counts one limit afresh from each
 * start: here the headers and the body have deadlines counted from the first byte, and once one has
 * passed every later read or write fails at once.
 */
final class LineProtocolDeadline {
  static final ThreadLocal<LineProtocolDeadline> CURRENT = new ThreadLocal<>();

  private final Thread thread = Thread.currentThread();
  private final long firstByte;
  private final boolean spare;
  private final ScheduledExecutorService timers;
  // Guarded by this: the timer thread interrupts only while the request thread reads.
  private ScheduledFuture<?> timer;
  private long generation;
  private boolean reading;
  private boolean expired;
  private boolean finished;

  LineProtocolDeadline(long firstByte, boolean spare, ScheduledExecutorService timers) {
    this.firstByte = firstByte;
    this.spare = spare;
    this.timers = timers;
  }

  /** The deadline of the request running on this thread. */
  static LineProtocolDeadline current() {
    LineProtocolDeadline deadline = CURRENT.get();
    if (deadline == null) {
      throw new IllegalStateException("Not a request thread of a line-protocol server");
    }
    return deadline;
  }

  /** Whether the request runs on a spare thread, beyond the server's limit. */
  boolean isSpare() {
    return spare;
  }

  /**
   * Reads the headers until {@code afterFirstByte} after the request's first byte. When that has
   * passed already, the thread is interrupted at once: the exchange's first read fails, and the
   * JDK's server closes the connection.
   */
  synchronized void start(Duration afterFirstByte) {
    try {
      read(afterFirstByte);
    } catch (IOException e) {
      thread.interrupt();
    }
  }

  /**
   * Reads from the client until {@code afterFirstByte} after the request's first byte.
   *
   * @throws IOException when that time has passed, or an earlier deadline did
   */
  synchronized void read(Duration afterFirstByte) throws IOException {
    readUntil(firstByte + afterFirstByte.toNanos());
  }

  /**
   * Writes the answer, until {@code fromNow} from now.
   *
   * @throws IOException when an earlier deadline passed
   */
  synchronized void answer(Duration fromNow) throws IOException {
    readUntil(System.nanoTime() + fromNow.toNanos());
  }

  /**
   * Works without any deadline.
   *
   * @throws IOException when an earlier deadline passed (the connection is closed or closing)
   */
  synchronized void work() throws IOException {
    requireOpen();
    stopTimer();
    reading = false;
  }

  private void readUntil(long nanoTime) throws IOException {
    requireOpen();
    stopTimer();
    reading = true;
    long delay = nanoTime - System.nanoTime();
    if (delay <= 0) {
      expired = true;
      throw new IOException("The request's deadline has passed");
    }
    long expected = generation;
    try {
      timer = timers.schedule(() -> fire(expected), delay, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      expired = true;
      throw new IOException("The server is stopping", e);
    }
  }

  private void requireOpen() throws IOException {
    if (expired) {
      throw new IOException("The request's deadline has passed");
    }
  }

  private void stopTimer() {
    generation++;
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  /** The timer: cuts the client off when the thread still reads under this deadline. */
  private synchronized void fire(long expected) {
    if (expected == generation && reading && !expired && !finished) {
      expired = true;
      thread.interrupt();
    }
  }

  /** The request is done: no interrupt comes after this, and none is left pending. */
  synchronized void finish() {
    stopTimer();
    finished = true;
    Thread.interrupted();
  }
}
