package dev.timelake.server;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A PostgreSQL client's start-up, before it has a session: TLS when it asks and the server has a
 * certificate (or requires one), its startup packet or cancel request, the connection limit and the
 * login throttle, and a SCRAM-SHA-256 login against the server's credentials (an unknown user fails
 * the same exchange as a wrong password). {@link PgConnection} greets a client this logged in and
 * serves its queries. Every length a client sends before logging in is bounded ({@link
 * PgMessages#MAX_BEFORE_LOGIN}).
 */
final class PgLogin {
  private static final int PROTOCOL_3 = 196608;
  private static final int SSL_REQUEST = 80877103;
  private static final int GSS_REQUEST = 80877104;
  private static final int CANCEL_REQUEST = 80877102;

  private volatile Socket socket;
  private final Optional<Tls> tls;
  private final Credentials credentials;
  private final PgCancels cancels;
  private final ServerLimits limits;
  private final Map<String, String> startup = new LinkedHashMap<>();
  private DataInputStream in;
  private PgMessages.Writer out;

  PgLogin(
      Socket socket,
      Optional<Tls> tls,
      Credentials credentials,
      PgCancels cancels,
      ServerLimits limits)
      throws IOException {
    this.socket = socket;
    this.tls = tls;
    this.credentials = credentials;
    this.cancels = cancels;
    this.limits = limits;
    streams();
  }

  /** The client's socket: the one it connected on, or the TLS socket over it. */
  Socket socket() {
    return socket;
  }

  DataInputStream in() {
    return in;
  }

  PgMessages.Writer out() {
    return out;
  }

  /** The parameters of the client's startup packet (user, database, application_name, …). */
  Map<String, String> startup() {
    return startup;
  }

  /**
   * Reads the startup packets (TLS first when asked and configured) and logs the client in; the
   * user, or empty when the client only asked to cancel a statement or was refused (and told why).
   */
  Optional<String> run() throws IOException {
    while (true) {
      PgMessages.Reader startPacket = new PgMessages.Reader(PgMessages.readStartup(in).body());
      int code = startPacket.int32();
      if (code == SSL_REQUEST && tls.isPresent() && !(socket instanceof javax.net.ssl.SSLSocket)) {
        out.raw('S');
        out.flush();
        socket = tls.get().accept(socket);
        streams();
        continue;
      }
      if (code == SSL_REQUEST || code == GSS_REQUEST) {
        out.raw('N'); // no TLS configured (or GSSAPI asked): the client may go on unencrypted
        continue;
      }
      if (code == CANCEL_REQUEST) {
        // A client's Ctrl-C or statement timeout, on a connection of its own: pid and secret.
        cancels.cancel(startPacket.int32(), startPacket.int32());
        return Optional.empty();
      }
      if (code != PROTOCOL_3) {
        error(
            "0A000",
            "Protocol version "
                + (code >> 16)
                + "."
                + (code & 0xffff)
                + " is not supported (3.0 is)");
        out.flush();
        return Optional.empty();
      }
      while (startPacket.hasMore()) {
        String name = startPacket.string();
        if (name.isEmpty()) {
          break;
        }
        startup.put(name, startPacket.string());
      }
      break;
    }
    if (tls.isPresent() && tls.get().isRequired() && !(socket instanceof javax.net.ssl.SSLSocket)) {
      fatal(
          "28000",
          "This server requires TLS: connect with sslmode=require (psql, libpq) or ssl=true"
              + " (pgjdbc)");
      return Optional.empty();
    }
    if (cancels.size() >= limits.maxConnections()) {
      // Counted after the startup packet: a cancel request, on its own connection, is not one.
      fatal(
          "53300",
          "Too many connections: this server admits " + limits.maxConnections() + " at once");
      return Optional.empty();
    }
    String user = startup.getOrDefault("user", "");
    Optional<Duration> blocked = credentials.throttle().reserve(socket.getInetAddress(), user);
    if (blocked.isPresent()) {
      fatal("28000", LoginThrottle.refusal(socket.getInetAddress(), user, blocked.get()));
      return Optional.empty();
    }
    if (!authenticate(in, credentials)) {
      return Optional.empty();
    }
    credentials.throttle().succeeded(socket.getInetAddress(), user);
    return Optional.of(user);
  }

  /** SCRAM-SHA-256; false (the client told why) when the user or the password is wrong. */
  private boolean authenticate(DataInputStream in, Credentials credentials) throws IOException {
    String user = startup.getOrDefault("user", "");
    // An unknown user goes through the same exchange with a secret nobody knows, and fails the
    // same way as a wrong password: the answer does not tell which users exist.
    Scram scram = new Scram(credentials.secretOf(user).orElseGet(() -> credentials.decoy(user)));
    out.begin('R').int32(10).string(Scram.MECHANISM).int8(0).end();
    out.flush();
    PgMessages.Message first = PgMessages.read(in, PgMessages.MAX_BEFORE_LOGIN);
    if (first == null || first.type() != 'p') {
      return false;
    }
    PgMessages.Reader initial = new PgMessages.Reader(first.body());
    // A client answering with a cleartext or MD5 password sends no mechanism name; the length of
    // SCRAM's data is checked against the message before anything is allocated.
    String mechanism = "";
    byte[] clientFirst = null;
    try {
      mechanism = initial.string();
      if (Scram.MECHANISM.equals(mechanism)) {
        clientFirst = initial.bytes(initial.int32());
      }
    } catch (PgMessages.ProtocolException e) {
      // answered below
    }
    if (!Scram.MECHANISM.equals(mechanism) || clientFirst == null) {
      fatal(
          "28000",
          "Only SCRAM-SHA-256 authentication is supported (the client sent "
              + (Scram.MECHANISM.equals(mechanism) ? "no SCRAM data" : "another method")
              + "): use a client that supports it (libpq 10+, pgjdbc 42.2+, psycopg2 2.8+)");
      return false;
    }
    String serverFirst;
    try {
      serverFirst = scram.serverFirst(new String(clientFirst, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      fatal("28000", e.getMessage());
      return false;
    }
    out.begin('R').int32(11).bytes(serverFirst.getBytes(StandardCharsets.UTF_8)).end();
    out.flush();
    PgMessages.Message last = PgMessages.read(in, PgMessages.MAX_BEFORE_LOGIN);
    if (last == null || last.type() != 'p') {
      return false;
    }
    String serverFinal = scram.serverFinal(new String(last.body(), StandardCharsets.UTF_8));
    if (serverFinal.isEmpty()) {
      fatal("28P01", "Password authentication failed for user \"" + user + "\"");
      return false;
    }
    out.begin('R').int32(12).bytes(serverFinal.getBytes(StandardCharsets.UTF_8)).end();
    return true;
  }

  /** Refuses the client: a FATAL ErrorResponse, sent now. */
  void fatal(String state, String message) throws IOException {
    out.errorResponse("FATAL", state, message, null);
    out.flush();
  }

  private void error(String state, String message) {
    out.errorResponse("ERROR", state, message, message);
  }

  private void streams() throws IOException {
    in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    out = new PgMessages.Writer(new BufferedOutputStream(socket.getOutputStream()));
  }
}
