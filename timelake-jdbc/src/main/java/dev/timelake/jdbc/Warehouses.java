package dev.timelake.jdbc;

import dev.timelake.Lake;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The warehouses open in this process, one {@link Lake} each, shared by every connection to it and
 * closed with the last: opening a lake starts an engine and a catalog, which a pool of connections
 * should not pay once per connection.
 */
final class Warehouses {
  private static final Map<Path, Open> OPEN = new HashMap<>();

  private Warehouses() {}

  private static final class Open {
    final Lake lake;
    int leases;

    Open(Lake lake) {
      this.lake = lake;
    }
  }

  /** One connection's hold on an open warehouse. */
  static final class Lease implements AutoCloseable {
    private final Path warehouse;
    private final Lake lake;
    private boolean closed;

    private Lease(Path warehouse, Lake lake) {
      this.warehouse = warehouse;
      this.lake = lake;
    }

    Lake lake() {
      return lake;
    }

    @Override
    public void close() {
      synchronized (OPEN) {
        if (closed) {
          return;
        }
        closed = true;
        Open open = OPEN.get(warehouse);
        if (open != null && --open.leases == 0) {
          OPEN.remove(warehouse);
          open.lake.close();
        }
      }
    }
  }

  /** A lease on the warehouse at {@code warehouse}, opening it if no connection has. */
  static Lease open(Path warehouse) {
    synchronized (OPEN) {
      Open open = OPEN.get(warehouse);
      if (open == null) {
        open = new Open(Lake.open(warehouse));
        OPEN.put(warehouse, open);
      }
      open.leases++;
      return new Lease(warehouse, open.lake);
    }
  }
}
