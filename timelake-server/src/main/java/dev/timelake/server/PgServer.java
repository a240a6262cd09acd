package dev.timelake.server;

import dev.timelake.Lake;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A PostgreSQL-protocol server over one open {@link Lake}: psql and other PostgreSQL clients run
 * Timelake SQL through it, each connection in its own session and thread. Clients log in with its
 * {@link Credentials} by SCRAM-SHA-256, over TLS when the server has a certificate ({@link Tls}).
 * The lake's file access is confined to its warehouse folder ({@link Lake#confineFileAccess}).
 * Start with {@link #start}, stop with {@link #close}.
 */
public final class PgServer implements AutoCloseable {
  /** Sockets beyond the connection limit, for cancel requests and logins about to be refused. */
  static final int SPARE_SOCKETS = 16;

  /**
   * Connections one address may have that have not logged in yet: clients that never log in cannot
   * take every place of the server (each also has a deadline to log in).
   */
  static final int UNAUTHENTICATED_PER_ADDRESS = 16;

  private final java.util.concurrent.ConcurrentMap<java.net.InetAddress, Integer> loggingIn =
      new ConcurrentHashMap<>();

  private final Lake lake;
  private final Credentials credentials;
  private final ServerSocket listener;
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
  private final PgCancels cancels = new PgCancels();
  private final ServerLimits limits;
  private final java.util.Optional<Tls> tls;
  private final java.util.concurrent.ScheduledExecutorService timer =
      ServerThreads.timer("timelake-pg-timeout");
  private final Thread acceptor;

  private PgServer(
      Lake lake,
      Credentials credentials,
      ServerLimits limits,
      java.util.Optional<Tls> tls,
      ServerSocket listener) {
    this.lake = lake;
    this.tls = tls;
    this.credentials = credentials;
    this.limits = limits;
    this.listener = listener;
    this.acceptor = ServerThreads.daemons("timelake-pg-accept").newThread(this::accept);
  }

  /**
   * Listens on {@code address} (port 0: any free port) and serves {@code lake} until closed;
   * clients log in with {@code credentials} (SCRAM-SHA-256): the server admits nobody without a
   * password.
   *
   * @throws IOException when the address cannot be bound, e.g. the port is taken
   * @throws IllegalArgumentException without credentials
   * @throws dev.timelake.ValidationException for a lake that is not a warehouse folder, whose file
   *     access cannot be confined to it
   */
  public static PgServer start(Lake lake, InetSocketAddress address, Credentials credentials)
      throws IOException {
    return start(lake, address, credentials, ServerLimits.DEFAULT);
  }

  /**
   * Like {@link #start(Lake, InetSocketAddress, Credentials)}, with {@code limits} on connections
   * and statement time.
   */
  public static PgServer start(
      Lake lake, InetSocketAddress address, Credentials credentials, ServerLimits limits)
      throws IOException {
    return start(lake, address, credentials, limits, java.util.Optional.empty());
  }

  /**
   * Like {@link #start(Lake, InetSocketAddress, Credentials, ServerLimits)}, offering {@code tls}
   * to clients that ask for it (psql's {@code sslmode=require}, pgjdbc's {@code ssl=true}).
   */
  public static PgServer start(
      Lake lake,
      InetSocketAddress address,
      Credentials credentials,
      ServerLimits limits,
      java.util.Optional<Tls> tls)
      throws IOException {
    if (credentials == null) {
      throw new IllegalArgumentException(
          "A server admits nobody without a password: set "
              + Credentials.PASSWORD_VARIABLE
              + " (and "
              + Credentials.USER_VARIABLE
              + ")");
    }
    // Clients reach DuckDB's SQL: read_csv('/etc/passwd') and COPY … TO must fail.
    lake.confineFileAccess();
    ServerSocket listener = new ServerSocket();
    listener.setReuseAddress(true);
    try {
      listener.bind(address);
    } catch (IOException e) {
      listener.close();
      throw new IOException(
          "Cannot listen on "
              + address.getHostString()
              + ":"
              + address.getPort()
              + ": "
              + e.getMessage(),
          e);
    }
    PgServer server = new PgServer(lake, credentials, limits, tls, listener);
    server.acceptor.start();
    return server;
  }

  /** The port the server listens on. */
  public int port() {
    return listener.getLocalPort();
  }

  /** The address the server listens on, e.g. {@code 127.0.0.1:5433}. */
  public String address() {
    return listener.getInetAddress().getHostAddress() + ":" + port();
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket socket;
      try {
        socket = listener.accept();
      } catch (SocketException e) {
        return; // closed
      } catch (IOException e) {
        continue;
      }
      // Places are counted before login too: unauthenticated sockets cannot pile up threads and
      // memory, nor one address take every place.
      java.net.InetAddress address = socket.getInetAddress();
      if (clients.size() >= limits.maxConnections() + SPARE_SOCKETS || !enterLogin(address)) {
        try {
          socket.close();
        } catch (IOException e) {
          // closed anyway
        }
        continue;
      }
      clients.add(socket);
      ServerThreads.daemons("timelake-pg-" + socket.getPort())
          .newThread(() -> serve(socket, address))
          .start();
    }
  }

  /** Serves one client on its own thread; the socket is forgotten when the connection ends. */
  private void serve(Socket socket, java.net.InetAddress address) {
    try {
      new PgConnection(
              socket, lake, credentials, cancels, limits, timer, tls, () -> leaveLogin(address))
          .run();
    } finally {
      clients.remove(socket);
    }
  }

  /** Takes a place among {@code address}'s connections not logged in yet; false when full. */
  private boolean enterLogin(java.net.InetAddress address) {
    boolean[] entered = {false};
    loggingIn.compute(
        address,
        (key, count) -> {
          int now = count == null ? 0 : count;
          if (now >= UNAUTHENTICATED_PER_ADDRESS) {
            return count;
          }
          entered[0] = true;
          return now + 1;
        });
    return entered[0];
  }

  private void leaveLogin(java.net.InetAddress address) {
    loggingIn.computeIfPresent(address, (key, count) -> count <= 1 ? null : count - 1);
  }

  /** Stops listening and closes every client connection. */
  @Override
  public void close() throws IOException {
    listener.close();
    timer.shutdownNow();
    for (Socket socket : clients) {
      socket.close();
    }
    try {
      acceptor.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
