package dev.timelake.server;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The request threads of one line-protocol server. The JDK's server hands a connection over as soon
 * as a request's first byte arrives, and the thread it runs on reads the headers itself: so each
 * request gets a thread of its own (up to a limit) and a {@link LineProtocolDeadline} from that
 * moment, and a client that sends slowly holds only its own thread until the deadline cuts it off.
 * A request beyond the limit runs on one of a few spare threads, only to be answered 503; beyond
 * those, the JDK's server closes its connection.
 */
final class LineProtocolRequestThreads implements Executor, AutoCloseable {
  static final int SPARE_THREADS = 4;

  private final ThreadPoolExecutor threads;
  private final ThreadPoolExecutor spares;
  private final Duration headerDeadline;
  private final ScheduledExecutorService timers;

  LineProtocolRequestThreads(int limit, Duration headerDeadline, ScheduledExecutorService timers) {
    this.threads = pool(limit, "timelake-http");
    this.spares = pool(SPARE_THREADS, "timelake-http-spare");
    this.headerDeadline = headerDeadline;
    this.timers = timers;
  }

  /** Up to {@code size} threads, started as needed and none kept waiting in a queue. */
  private static ThreadPoolExecutor pool(int size, String name) {
    return new ThreadPoolExecutor(
        0, size, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), ServerThreads.daemons(name));
  }

  @Override
  public void execute(Runnable exchange) {
    long firstByte = System.nanoTime();
    try {
      threads.execute(() -> run(exchange, firstByte, false));
    } catch (RejectedExecutionException e) {
      // When the spares are busy too, this throws, and the JDK's server closes the connection.
      spares.execute(() -> run(exchange, firstByte, true));
    }
  }

  private void run(Runnable exchange, long firstByte, boolean spare) {
    LineProtocolDeadline deadline = new LineProtocolDeadline(firstByte, spare, timers);
    LineProtocolDeadline.CURRENT.set(deadline);
    try {
      deadline.start(headerDeadline);
      exchange.run();
    } finally {
      LineProtocolDeadline.CURRENT.remove();
      deadline.finish();
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
    spares.shutdownNow();
  }
}
