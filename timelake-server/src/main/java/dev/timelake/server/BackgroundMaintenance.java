package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.table.Settings;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Inline maintenance of tables (what an append would run: compaction of the partitions it grew,
 * expiry) on one background thread, after their commits instead of before the answer: so requests
 * are answered when committed, and a stream of small commits still ends up compact. At most one run
 * of a table waits at a time, since a run covers every commit made before it starts.
 */
final class BackgroundMaintenance {
  private static final System.Logger LOG = System.getLogger(BackgroundMaintenance.class.getName());

  private final Lake lake;
  private final ExecutorService thread;

  /**
   * Tables with a run queued and not yet started: a commit to one of them needs no run of its own.
   */
  private final Set<TableName> waiting = ConcurrentHashMap.newKeySet();

  /** Maintains tables of {@code lake} on one daemon thread named {@code threadName}. */
  BackgroundMaintenance(Lake lake, String threadName) {
    this.lake = lake;
    this.thread = Executors.newSingleThreadExecutor(ServerThreads.daemons(threadName));
  }

  /**
   * Queues a run of {@code table}, just committed, unless its {@code auto-maintain} is off or a run
   * of it is already waiting; once closing, queues nothing (the next server maintains it).
   */
  void maintainLater(Table table) {
    TableName name = table.name();
    if (!autoMaintains(table) || !waiting.add(name)) {
      return;
    }
    try {
      thread.execute(() -> maintain(name));
    } catch (RejectedExecutionException e) {
      waiting.remove(name);
    }
  }

  /** Stops taking runs; a run in progress finishes first, for a minute at most. */
  void close() {
    ServerThreads.finish(thread);
  }

  private void maintain(TableName name) {
    // Removed before the run, not after: a commit during the run may need a run after this one.
    waiting.remove(name);
    try {
      lake.table(name).newMaintenance().inlineOnly().run();
    } catch (RuntimeException e) {
      // The data is committed and the next run tries again. Nobody waits for this run's answer, so
      // the log is the one place its failure shows: the exception goes with it, stack and all.
      LOG.log(
          System.Logger.Level.WARNING, "Background maintenance of " + name + " failed: " + e, e);
    }
  }

  private static boolean autoMaintains(Table table) {
    String enabled =
        table
            .settings()
            .getOrDefault(
                Settings.AUTO_MAINTAIN.name(),
                Settings.AUTO_MAINTAIN.defaultValue().orElse("true"));
    return Boolean.parseBoolean(enabled);
  }
}
