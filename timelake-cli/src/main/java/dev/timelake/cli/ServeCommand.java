package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.TimelakeException;
import dev.timelake.server.Credentials;
import dev.timelake.server.LineProtocolServer;
import dev.timelake.server.PgServer;
import dev.timelake.server.ServerLimits;
import dev.timelake.server.Tls;
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
      "Serves the warehouse over the PostgreSQL protocol, so that psql, pgjdbc, Grafana and"
          + " other PostgreSQL clients run Timelake SQL on it (simple and extended query protocol,"
          + " COPY FROM STDIN, the catalog queries of psql and Grafana); each connection has its"
          + " own session. Over HTTP it takes InfluxDB line protocol (/api/v2/write?bucket=NS and"
          + " /write?db=NS, with precision), so Telegraf and InfluxDB or QuestDB clients append"
          + " readings: one table per measurement, created on first write (tags: the series key);"
          + " Prometheus remote write (/api/v1/write) and OpenTelemetry metrics over OTLP/HTTP"
          + " (/v1/metrics) the same way. Writes are answered once in the hot tier's log on disk"
          + " and committed in large appends (--hot-tier)."
          + " The same port serves a web console at /console/: SQL with a result table, a line"
          + " chart and the plan that answered it (rollups, files read), for the same users.",
      "Clients log in with the password in TIMELAKE_PASSWORD (SCRAM-SHA-256; the user name in"
          + " TIMELAKE_USER, any name when unset) or as a user of --users; it does not start"
          + " without one. Line-protocol clients send the same password (Authorization: Token"
          + " PASSWORD, HTTP Basic, or u and p). It listens on 127.0.0.1 unless --listen says"
          + " otherwise. With --tls-cert and --tls-key, PostgreSQL clients may ask for TLS and the"
          + " HTTP port speaks HTTPS. Stop it with Ctrl-C."
    },
    footer = {
      "%nExamples:",
      "  TIMELAKE_PASSWORD=secret timelake --warehouse ./warehouse serve --pg-port 5432",
      "  PGPASSWORD=secret psql -h 127.0.0.1 -p 5432 -c \"SELECT count(*) FROM iot.readings\"",
      "  curl -H 'Authorization: Token secret' --data-binary 'readings,device=a value=1.5'"
          + " 'http://127.0.0.1:9000/api/v2/write?bucket=iot&precision=s'",
      "  timelake hash-password alice >> users.txt   # then: serve --users users.txt"
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
      names = "--http-port",
      paramLabel = "PORT",
      description =
          "The line-protocol and web-console (HTTP) port (default: 9000; 0 picks a free one;"
              + " -1: no HTTP).")
  private int httpPort = 9000;

  @Option(
      names = "--rest-port",
      paramLabel = "PORT",
      description =
          "Also serve the lake's catalog over the Iceberg REST protocol on this port (plain HTTP;"
              + " clients give --catalog type=rest --catalog uri=http://HOST:PORT --catalog"
              + " token=USER:PASSWORD and need the warehouse's storage; default: -1, off; 0 picks"
              + " a free one).")
  private int restPort = -1;

  @Option(
      names = "--users",
      paramLabel = "FILE",
      description =
          "A users file: name:SCRAM-SHA-256$… lines, as `timelake hash-password NAME` prints"
              + " them (with or without TIMELAKE_PASSWORD); read again when it changes, so"
              + " users are added, removed or given new passwords without a restart.")
  private java.nio.file.Path usersFile;

  @Option(
      names = "--tls-cert",
      paramLabel = "FILE",
      description = "The server's certificate chain (PEM); with --tls-key, TLS is offered.")
  private java.nio.file.Path tlsCertificate;

  @Option(
      names = "--tls-key",
      paramLabel = "FILE",
      description = "The certificate's private key (PEM, unencrypted PKCS #8).")
  private java.nio.file.Path tlsKey;

  @Option(
      names = "--require-tls",
      description =
          "Refuse PostgreSQL clients that do not ask for TLS (before any password is sent);"
              + " needs --tls-cert and --tls-key. The HTTP port speaks only HTTPS whenever TLS is"
              + " configured.")
  private boolean requireTls;

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

  @Option(
      names = "--hot-tier",
      paramLabel = "on|off",
      description =
          "Line-protocol writes, and PostgreSQL clients' INSERTs of constants and COPYs outside a"
              + " transaction, are answered once in the hot tier's log on disk (fsync'd) and"
              + " committed to their tables in large appends (on, the default), or each is"
              + " answered once committed (off; a request can ask for that with sync=commit)."
              + " Statements of this server's clients read what it answered first; other"
              + " processes see it once committed.")
  private String hotTier = "on";

  @Option(
      names = "--hot-tier-max-rows",
      paramLabel = "N",
      description = "Commits a table's held rows once it holds this many (default: 1000000).")
  private long hotTierMaxRows = dev.timelake.server.HotTierSettings.DEFAULT.maxRows();

  @Option(
      names = "--hot-tier-max-age",
      paramLabel = "DURATION",
      description = "Commits a table's held rows once the oldest is this old (default: 2s).")
  private String hotTierMaxAge = "2s";

  @Option(
      names = "--hot-tier-max-bytes",
      paramLabel = "BYTES",
      description =
          "The most log the tier holds; beyond it writes wait, then are answered 503 (default:"
              + " 268435456, 256 MiB).")
  private long hotTierMaxBytes = dev.timelake.server.HotTierSettings.DEFAULT.maxBytes();

  /** The hot tier's settings, or empty when it is off. */
  private java.util.Optional<dev.timelake.server.HotTierSettings> hotTierSettings() {
    if (hotTier.equals("off")) {
      return java.util.Optional.empty();
    }
    if (!hotTier.equals("on")) {
      throw TimelakeException.validation(
          "Cannot serve: --hot-tier is 'on' or 'off', not '%s'", hotTier);
    }
    try {
      return java.util.Optional.of(
          new dev.timelake.server.HotTierSettings(
              hotTierMaxRows, dev.timelake.table.Durations.parse(hotTierMaxAge), hotTierMaxBytes));
    } catch (IllegalArgumentException e) {
      throw TimelakeException.validation("Cannot serve: %s", e.getMessage());
    }
  }

  @Override
  int run() {
    if (requireTls && restPort >= 0) {
      throw TimelakeException.validation(
          "Cannot serve: --require-tls, but the Iceberg REST catalog (--rest-port) is served over"
              + " plain HTTP only");
    }
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
    java.util.Optional<dev.timelake.server.HotTierSettings> hotTierSettings = hotTierSettings();
    Credentials credentials = credentials();
    java.util.Optional<Tls> tls = tls();
    Lake lake = main.openLake();
    PgServer server;
    LineProtocolServer http = null;
    dev.timelake.server.StandaloneHotTier standaloneTier = null;
    try {
      if (httpPort < 0 && hotTierSettings.isPresent()) {
        // No line-protocol writer to open the tier: opened here, before the sessions that take it.
        standaloneTier = dev.timelake.server.StandaloneHotTier.open(lake, hotTierSettings.get());
      }
      try {
        server =
            PgServer.start(lake, new InetSocketAddress(listen, port), credentials, limits, tls);
      } catch (IOException | IllegalArgumentException e) {
        closeQuietly(standaloneTier);
        throw e;
      }
      if (httpPort >= 0) {
        try {
          http =
              LineProtocolServer.start(
                      lake,
                      new InetSocketAddress(listen, httpPort),
                      credentials,
                      tls,
                      hotTierSettings)
                  .consoleStatementTimeout(limits.statementTimeout());
        } catch (IOException | IllegalArgumentException e) {
          server.close();
          closeQuietly(standaloneTier);
          throw e;
        }
      }
      exposureWarning(listen, tls.isPresent()).ifPresent(err()::println);
      if (!credentials.usersWithoutRole().isEmpty()) {
        err()
            .println(
                "warning: users without a role in "
                    + usersFile
                    + " ("
                    + String.join(", ", credentials.usersWithoutRole())
                    + ") are admins; give each a role (timelake hash-password NAME --role"
                    + " read|write|admin)");
      }
      restExposureWarning(listen, restPort).ifPresent(err()::println);
    } catch (IOException | IllegalArgumentException e) {
      lake.close();
      throw TimelakeException.validation("Cannot serve %s: %s", lake.description(), e.getMessage());
    }
    dev.timelake.server.IcebergRestServer rest = null;
    if (restPort >= 0) {
      try {
        rest =
            dev.timelake.server.IcebergRestServer.start(
                dev.timelake.catalog.Catalogs.openWarehouse(
                    dev.timelake.storage.Warehouse.parse(main.warehouseLocation()),
                    main.catalogProperties()),
                new InetSocketAddress(listen, restPort),
                java.util.Optional.of(credentials));
      } catch (IOException | IllegalArgumentException e) {
        closeQuietly(http, server, standaloneTier, lake);
        throw TimelakeException.validation(
            "Cannot serve the Iceberg REST catalog on port %d: %s", restPort, e.getMessage());
      }
    }
    dev.timelake.server.IcebergRestServer restCatalog = rest;
    LineProtocolServer lineProtocol = http;
    dev.timelake.server.StandaloneHotTier tierWithoutHttp = standaloneTier;
    out()
        .printf(
            "Serving %s over the PostgreSQL protocol on %s%s%s%s; stop with Ctrl-C%n",
            lake.description(),
            server.address(),
            tls.isEmpty() ? "" : tls.get().isRequired() ? " (TLS required)" : " (TLS offered)",
            lineProtocol == null
                ? ""
                : ", line protocol on port "
                    + lineProtocol.port()
                    + ", the web console at "
                    + (tls.isPresent() ? "https://" : "http://")
                    + listen
                    + ":"
                    + lineProtocol.port()
                    + "/console/",
            restCatalog == null ? "" : ", Iceberg REST catalog on " + restCatalog.uri());
    out().flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  // The JVM waits for hooks, not for this command: close here, in order.
                  try (lake) {
                    if (restCatalog != null) {
                      restCatalog.close();
                    }
                    if (lineProtocol != null) {
                      lineProtocol.close();
                    }
                    server.close();
                    if (tierWithoutHttp != null) {
                      tierWithoutHttp.close(); // after its clients: commits what it holds
                    }
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

  /** Closes what started before a later start failed; null items are skipped. */
  private static void closeQuietly(AutoCloseable... started) {
    for (AutoCloseable item : started) {
      try {
        if (item != null) {
          item.close();
        }
      } catch (Exception e) {
        // Failing anyway: the first error is the one to report.
      }
    }
  }

  /**
   * The warning for the REST catalog on an address other machines reach: it is plain HTTP, so its
   * tokens (the password) and the tables' metadata travel unencrypted.
   */
  static java.util.Optional<String> restExposureWarning(String listen, int restPort)
      throws java.net.UnknownHostException {
    if (restPort < 0 || InetAddress.getByName(listen).isLoopbackAddress()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        "warning: the Iceberg REST catalog listens on "
            + listen
            + " over plain HTTP: its clients' tokens (the password) and the tables' metadata are"
            + " not encrypted; serve it on a private network only");
  }

  /**
   * The warning for an address other machines reach without TLS: passwords are safe (SCRAM),
   * queries and rows are not.
   */
  static java.util.Optional<String> exposureWarning(String listen, boolean tls)
      throws java.net.UnknownHostException {
    if (tls || InetAddress.getByName(listen).isLoopbackAddress()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        "warning: listening on "
            + listen
            + " without TLS: passwords are safe (SCRAM), queries and rows are not;"
            + " give --tls-cert and --tls-key");
  }

  /** The environment's password and the users file's users; refuses to serve without any. */
  private Credentials credentials() {
    java.util.Optional<Credentials> environment = Credentials.fromEnvironment(main.environment());
    if (usersFile == null) {
      return environment.orElseThrow(
          () ->
              TimelakeException.validation(
                  "Cannot serve: set %s to the password clients log in with (and %s to"
                      + " their user name), or give --users FILE; the server admits nobody"
                      + " without one",
                  Credentials.PASSWORD_VARIABLE, Credentials.USER_VARIABLE));
    }
    Credentials users;
    try {
      users = Credentials.fromFile(usersFile);
    } catch (IOException e) {
      throw TimelakeException.validation(
          "Cannot serve: cannot read the users file %s: %s", usersFile, e.getMessage());
    } catch (IllegalArgumentException e) {
      throw TimelakeException.validation("Cannot serve: %s", e.getMessage());
    }
    return environment.map(users::and).orElse(users);
  }

  private java.util.Optional<Tls> tls() {
    if (tlsCertificate == null && tlsKey == null) {
      if (requireTls) {
        throw TimelakeException.validation(
            "Cannot serve: --require-tls needs --tls-cert and --tls-key");
      }
      return java.util.Optional.empty();
    }
    if (tlsCertificate == null || tlsKey == null) {
      throw TimelakeException.validation(
          "Cannot serve: TLS needs both --tls-cert and --tls-key (%s is missing)",
          tlsCertificate == null ? "--tls-cert" : "--tls-key");
    }
    try {
      Tls tls = Tls.fromPem(tlsCertificate, tlsKey);
      return java.util.Optional.of(requireTls ? tls.required() : tls);
    } catch (IOException e) {
      throw TimelakeException.validation("Cannot serve: cannot read %s", e.getMessage());
    } catch (IllegalArgumentException e) {
      throw TimelakeException.validation("Cannot serve: %s", e.getMessage());
    }
  }
}
