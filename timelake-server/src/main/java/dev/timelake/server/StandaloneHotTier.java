package dev.timelake.server;

import dev.timelake.Lake;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A hot tier opened on its own, without the line-protocol server that otherwise opens it: for
 * {@code serve --http-port -1}, whose PostgreSQL clients' INSERTs and COPYs it holds, and for an
 * embedded program that wants its sessions' small writes held too ({@link #heldWrites}, given to
 * {@link dev.timelake.Session#holdWritesIn}). The same log, rules and recovery: what an earlier
 * process left in the log is committed first. One tier per lake in a process.
 *
 * <pre>{@code
 * try (StandaloneHotTier tier = StandaloneHotTier.open(lake, HotTierSettings.DEFAULT);
 *     Session session = lake.newSession().holdWritesIn(tier.heldWrites("loader"))) {
 *   // Answered once durable; constants only (a value DuckDB must compute commits at once):
 *   session.sql("INSERT INTO iot.readings VALUES ('pump-1', '2026-01-01 00:00:00+00', 1.5)").close();
 * } // closing the tier commits what it holds
 * }</pre>
 */
public final class StandaloneHotTier implements AutoCloseable {
  private final BufferAllocator allocator;
  private final BackgroundMaintenance maintenance;
  private final HotTier tier;

  private StandaloneHotTier(
      BufferAllocator allocator, BackgroundMaintenance maintenance, HotTier tier) {
    this.allocator = allocator;
    this.maintenance = maintenance;
    this.tier = tier;
  }

  /**
   * Opens {@code lake}'s tier with {@code settings}; a server opens it before its PostgreSQL
   * server, whose sessions take the tier the lake has when they begin.
   *
   * @throws IOException when the log cannot be read or begun
   * @throws IllegalStateException when the lake has a tier in this process already
   */
  public static StandaloneHotTier open(Lake lake, HotTierSettings settings) throws IOException {
    if (HotTier.of(lake).isPresent()) {
      throw new IllegalStateException("The lake has a hot tier in this process already");
    }
    BufferAllocator allocator = new RootAllocator();
    BackgroundMaintenance maintenance =
        new BackgroundMaintenance(lake, "timelake-tier-maintenance");
    try {
      return new StandaloneHotTier(
          allocator, maintenance, HotTier.open(lake, settings, allocator, maintenance));
    } catch (IOException | RuntimeException e) {
      maintenance.close();
      allocator.close();
      throw e;
    }
  }

  /**
   * The tier as a session's {@link dev.timelake.HeldWrites}: each write it takes is forced to disk
   * before the statement returns; {@code source} names the writer in the server's ingest view.
   */
  public dev.timelake.HeldWrites heldWrites(String source) {
    return tier.heldWrites(source);
  }

  /** Commits what the tier holds and stops it. */
  @Override
  public void close() {
    tier.close();
    maintenance.close();
    allocator.close();
  }
}
