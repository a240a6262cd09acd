package dev.timelake.server;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * The threads the servers start: daemons, so a server never keeps the JVM alive, named after their
 * job, so a thread dump tells them apart.
 */
final class ServerThreads {
  private ServerThreads() {}

  /** Threads named {@code name} that do not keep the JVM alive. */
  static ThreadFactory daemons(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * Stops {@code executor} taking work and waits, a minute at most, for what it runs to finish:
   * each task is one commit, better finished than cut off.
   */
  static void finish(java.util.concurrent.ExecutorService executor) {
    executor.shutdown();
    try {
      executor.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One daemon thread named {@code name} for deadlines and timeouts. Requests set one and mostly
   * cancel it; a cancelled one leaves the queue at once, rather than when it was due.
   */
  static ScheduledExecutorService timer(String name) {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, daemons(name));
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}
