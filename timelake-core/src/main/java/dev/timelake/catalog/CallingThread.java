package dev.timelake.catalog;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.SnapshotUpdate;

/**
 * Runs an Iceberg commit's manifest work on the committing thread. Iceberg hands that work to its
 * shared worker pool and then polls for the results with 10 ms sleeps (Tasks.waitFor), so a small
 * commit waited about 10 ms per step for work that takes well under a millisecond; a task run here
 * is done when submitted, and the first poll finds it so.
 */
public final class CallingThread extends AbstractExecutorService {
  private static final CallingThread INSTANCE = new CallingThread();

  private CallingThread() {}

  /** {@code update}, its manifests read and written on the thread that commits it. */
  public static <T extends SnapshotUpdate<T>> T manifestsOf(T update) {
    return update.scanManifestsWith(INSTANCE);
  }

  @Override
  public void execute(Runnable task) {
    task.run();
  }

  @Override
  public void shutdown() {
    // shared and stateless: nothing to stop
  }

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }
}
