package dev.timelake.server;

import dev.timelake.Lake;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The hot tier of a server that has no HTTP port (so no line-protocol writer to open it): its
 * PostgreSQL clients' INSERTs and COPYs are held and committed by the same rules, and what an
 * earlier server left in the log is committed first. With an HTTP port, {@link
 * LineProtocolServer#start} opens the tier instead; one process has one tier per lake.
 */
public final class PgHotTier implements AutoCloseable {
  private final BufferAllocator allocator;
  private final BackgroundMaintenance maintenance;
  private final HotTier tier;

  private PgHotTier(BufferAllocator allocator, BackgroundMaintenance maintenance, HotTier tier) {
    this.allocator = allocator;
    this.maintenance = maintenance;
    this.tier = tier;
  }

  /**
   * Opens {@code lake}'s tier with {@code settings}; start it before the PostgreSQL server, whose
   * sessions take the tier the lake has when they begin.
   *
   * @throws IOException when the log cannot be read or begun
   * @throws IllegalStateException when the lake has a tier in this process already
   */
  public static PgHotTier open(Lake lake, HotTierSettings settings) throws IOException {
    if (HotTier.of(lake).isPresent()) {
      throw new IllegalStateException("The lake has a hot tier in this process already");
    }
    BufferAllocator allocator = new RootAllocator();
    BackgroundMaintenance maintenance = new BackgroundMaintenance(lake, "timelake-pg-maintenance");
    try {
      return new PgHotTier(
          allocator, maintenance, HotTier.open(lake, settings, allocator, maintenance));
    } catch (IOException | RuntimeException e) {
      maintenance.close();
      allocator.close();
      throw e;
    }
  }

  /** Commits what the tier holds and stops it. */
  @Override
  public void close() {
    tier.close();
    maintenance.close();
    allocator.close();
  }
}
