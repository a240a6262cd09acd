package dev.timelake.engine;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Timers for deadlines set on every statement (a parse's time-out, a session's statement timeout):
 * one daemon thread each, and a cancelled deadline leaves the queue at once rather than when it was
 * due, since nearly every one is cancelled and thousands are set a second.
 */
public final class Watchdogs {
  private Watchdogs() {}

  /** One daemon thread named {@code name} for deadlines. */
  public static ScheduledExecutorService named(String name) {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            task -> {
              Thread thread = new Thread(task, name);
              thread.setDaemon(true);
              return thread;
            });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}
