package dev.timelake.server;

import dev.timelake.catalog.Catalogs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each test's warehouse in a temporary folder, its embedded catalog ({@link #backing}) served to
 * anyone by an {@link IcebergRestServer} on loopback.
 */
abstract class WithRestCatalog {
  @TempDir Path warehouse;
  Catalog backing;
  IcebergRestServer server;

  @BeforeEach
  void startServer() throws Exception {
    backing = Catalogs.openEmbedded(warehouse);
    server = IcebergRestServer.start(backing, loopback());
  }

  @AfterEach
  void stopServer() throws Exception {
    server.close();
    if (backing instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  /**
   * Stops the server and serves the catalog again on another port, to clients presenting {@code
   * credentials}, within {@code requestDeadline}.
   */
  void restart(Optional<Credentials> credentials, Duration requestDeadline) throws IOException {
    server.close();
    server = IcebergRestServer.start(backing, loopback(), credentials, requestDeadline);
  }

  private static InetSocketAddress loopback() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }
}
