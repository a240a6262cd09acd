package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.TimelakeException;
import dev.timelake.server.PgServer;
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
      "Serves the warehouse over the PostgreSQL protocol, so that psql and PostgreSQL clients run"
          + " Timelake SQL on it (simple and extended query protocol); each connection has its own"
          + " session.",
      "There is no TLS and no password: it listens on 127.0.0.1 unless --host says otherwise."
          + " Stop it with Ctrl-C."
    },
    footer = {
      "%nExample:",
      "  timelake --warehouse ./warehouse serve --port 5433",
      "  psql -h 127.0.0.1 -p 5433 -c \"SELECT tag, max(value) FROM iot.readings GROUP BY tag\""
    })
final class ServeCommand extends LakeCommand {
  @Option(
      names = "--host",
      paramLabel = "ADDRESS",
      description = "The address to listen on (default: 127.0.0.1, this machine only).")
  private String host = "127.0.0.1";

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "The port to listen on (default: 5433; 0 picks a free one).")
  private int port = 5433;

  @Override
  int run() {
    Lake lake = main.openLake();
    PgServer server;
    try {
      server = PgServer.start(lake, new InetSocketAddress(host, port));
      if (!InetAddress.getByName(host).isLoopbackAddress()) {
        err()
            .println(
                "warning: listening on "
                    + host
                    + " without TLS or passwords: anyone who reaches it can read and write the"
                    + " warehouse");
      }
    } catch (IOException e) {
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
