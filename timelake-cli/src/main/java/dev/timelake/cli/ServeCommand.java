package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.TimelakeException;
import dev.timelake.server.Credentials;
import dev.timelake.server.PgServer;
import dev.timelake.server.ServerLimits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Serves the warehouse over the PostgreSQL protocol until the process is stopped. */
@Command(
    name = "serve",
    description = {
      "Serves the warehouse over the PostgreSQL protocol, so that psql, pgjdbc and other"
          + " PostgreSQL clients run Timelake SQL on it (simple and extended query protocol); each"
          + " connection has its own session.",
      "Clients log in with the password in TIMELAKE_PASSWORD (SCRAM-SHA-256; the user name in"
          + " TIMELAKE_USER, any name when unset); it does not start without one. It listens on"
          + " 127.0.0.1 unless --listen says otherwise. There is no TLS. Stop it with Ctrl-C."
    },
    footer = {
      "%nExample:",
      "  TIMELAKE_PASSWORD=secret timelake --warehouse ./warehouse serve --pg-port 5432",
      "  PGPASSWORD=secret psql -h 127.0.0.1 -p 5432 -c \"SELECT count(*) FROM iot.readings\""
    })
final class ServeCommand extends LakeCommand {
  @Option(
      names = "--listen",
      paramLabel = "ADDRESS",
      description = "The address to listen on (default: 127.0.0.1, this machine only).")
  private String listen = "127.0.0.1";

  @Option(
      names = "--pg-port",
      paramLabel = "PORT",
      description = "The PostgreSQL-protocol port (default: 5432; 0 picks a free one).")
  private int port = 5432;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description = "Clients served at once; more are refused (default: 64).")
  private int maxConnections = ServerLimits.DEFAULT.maxConnections();

  @Option(
      names = "--statement-timeout",
      paramLabel = "DURATION",
      description = "Cancels statements running longer, e.g. 30s or 5m (default: no limit).")
  private String statementTimeout;

  @Override
  int run() {
    ServerLimits limits;
    try {
      limits =
          new ServerLimits(
              maxConnections,
              statementTimeout == null
                  ? java.time.Duration.ZERO
                  : dev.timelake.table.Durations.parse(statementTimeout));
    } catch (IllegalArgumentException e) {
      throw TimelakeException.validation("Cannot serve: %s", e.getMessage());
    }
    Credentials credentials =
        Credentials.fromEnvironment(main.environment())
            .orElseThrow(
                () ->
                    TimelakeException.validation(
                        "Cannot serve: set %s to the password clients log in with (and %s to"
                            + " their user name); the server admits nobody without one",
                        Credentials.PASSWORD_VARIABLE, Credentials.USER_VARIABLE));
    Lake lake = main.openLake();
    PgServer server;
    try {
      server = PgServer.start(lake, new InetSocketAddress(listen, port), credentials, limits);
      if (!InetAddress.getByName(listen).isLoopbackAddress()) {
        err()
            .println(
                "warning: listening on "
                    + listen
                    + " without TLS: passwords are safe (SCRAM), queries and rows are not");
      }
    } catch (IOException | IllegalArgumentException e) {
      lake.close();
      throw TimelakeException.validation("Cannot serve %s: %s", lake.description(), e.getMessage());
    }
    out()
        .printf(
            "Serving %s over the PostgreSQL protocol on %s; stop with Ctrl-C%n",
            lake.description(), server.address());
    out().flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  // The JVM waits for hooks, not for this command: close here, in order.
                  try (lake) {
                    server.close();
                  } catch (IOException e) {
                    // Stopping anyway.
                  } finally {
                    stopped.countDown();
                  }
                }));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }
}
