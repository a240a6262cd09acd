package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Before a client has logged in it can make the server do little: nothing is allocated from a
 * length it sends before the length is checked, the whole login has one deadline however slowly it
 * sends, one address holds a bounded number of places, and a password sent in a form the server
 * does not take is answered, not thrown. After each attack a normal client logs in.
 */
class PreLoginLimitsTest extends WithPgServer {
  private static final String PASSWORD = "pw";

  PreLoginLimitsTest() {
    super(PASSWORD, new ServerLimits(64, Duration.ZERO, Duration.ofSeconds(2), 1000));
  }

  @Test
  void aSaslMessageAnnouncingHugeInnerDataIsRefusedWithoutAllocatingIt() throws Exception {
    try (Socket socket = rawSocket()) {
      DataOutputStream out = startup(socket);
      expectSaslRequest(socket);
      byte[] mechanism = "SCRAM-SHA-256\0".getBytes(StandardCharsets.US_ASCII);
      out.writeByte('p');
      out.writeInt(4 + mechanism.length + 4);
      out.write(mechanism);
      out.writeInt(Integer.MAX_VALUE); // 2 GiB of client-first data announced, none sent
      out.flush();

      assertThat(errorText(socket)).contains("SCRAM-SHA-256").contains("no SCRAM data");
    }
    assertALoginWorks();
  }

  @Test
  void aCleartextPasswordIsAnsweredWithTheMethodToUse() throws Exception {
    try (Socket socket = rawSocket()) {
      DataOutputStream out = startup(socket);
      expectSaslRequest(socket);
      byte[] password = (PASSWORD + "\0").getBytes(StandardCharsets.US_ASCII);
      out.writeByte('p');
      out.writeInt(4 + password.length);
      out.write(password);
      out.flush();

      assertThat(errorText(socket))
          .contains("Only SCRAM-SHA-256 authentication is supported (the client sent another");
    }
    assertALoginWorks();
  }

  @Test
  void aLoginSentByteByByteEndsAtItsDeadline() throws Exception {
    try (Socket socket = rawSocket()) {
      socket.setSoTimeout(30_000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      long started = System.nanoTime();
      boolean closed = false;
      // One byte of a startup packet every 300 ms: never a read timeout, but the deadline holds.
      for (int i = 0; i < 100 && !closed; i++) {
        try {
          out.write(0);
          out.flush();
          Thread.sleep(300);
        } catch (IOException e) {
          closed = true;
        }
      }
      if (!closed) {
        closed = socket.getInputStream().read() == -1;
      }
      assertThat(closed).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
    }
    assertALoginWorks();
  }

  @Test
  void oneAddressHoldsABoundedNumberOfPlacesBeforeLogin() throws Exception {
    List<Socket> idle = new ArrayList<>();
    try {
      for (int i = 0; i < PgServer.UNAUTHENTICATED_PER_ADDRESS; i++) {
        idle.add(rawSocket());
      }
      try (Socket extra = rawSocket()) {
        extra.setSoTimeout(10_000);
        assertThat(extra.getInputStream().read()).isEqualTo(-1); // closed at once
      }
    } finally {
      for (Socket socket : idle) {
        socket.close();
      }
    }
    // The server frees the places as it sees the sockets close.
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      try {
        assertALoginWorks();
        return;
      } catch (java.sql.SQLException e) {
        if (System.nanoTime() > until) {
          throw e;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
      }
    }
  }

  @Test
  void aMalformedMessageAfterLoginIsAProtocolErrorNotAJavaException() throws Exception {
    try (Connection connection = connect()) {
      assertThat(connection.isValid(5)).isTrue();
    }
    assertThatThrownBy(() -> DriverManager.getConnection(url(), "tl", "wrong"))
        .hasMessageContaining("Password authentication failed");
  }

  @Test
  void aCopyBeyondItsLimitAppendsNothingAndTheSessionGoesOn() throws Exception {
    try (Connection connection = connect();
        java.sql.Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE iot.c (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'tag')");
      org.postgresql.copy.CopyManager copy =
          connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      StringBuilder data = new StringBuilder();
      for (int i = 0; i < 100; i++) {
        data.append("t").append(i).append(",2026-01-01 00:00:00+00,").append(i).append('\n');
      }

      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY iot.c FROM STDIN (FORMAT csv)",
                      new java.io.StringReader(data.toString())))
          .hasMessageContaining("more than the 1000 bytes one COPY may hold; nothing was appended");
      try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM iot.c")) {
        rows.next();
        assertThat(rows.getLong(1)).isZero();
      }
    }
    assertThat(java.nio.file.Files.list(lake.stagingDirectory())).isEmpty();
  }

  /** A socket to the server, no PostgreSQL client on it yet. */
  private Socket rawSocket() throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static DataOutputStream startup(Socket socket) throws IOException {
    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
    byte[] parameters = "user\0tl\0\0".getBytes(StandardCharsets.US_ASCII);
    out.writeInt(8 + parameters.length);
    out.writeInt(196608);
    out.write(parameters);
    out.flush();
    return out;
  }

  /** Reads AuthenticationSASL. */
  private static void expectSaslRequest(Socket socket) throws IOException {
    DataInputStream in = new DataInputStream(socket.getInputStream());
    assertThat((char) in.readByte()).isEqualTo('R');
    byte[] body = new byte[in.readInt() - 4];
    in.readFully(body);
  }

  /** The next ErrorResponse's fields as text. */
  private static String errorText(Socket socket) throws IOException {
    DataInputStream in = new DataInputStream(socket.getInputStream());
    char type = (char) in.readByte();
    byte[] body = new byte[in.readInt() - 4];
    in.readFully(body);
    assertThat(type).isEqualTo('E');
    return new String(body, StandardCharsets.UTF_8);
  }

  private void assertALoginWorks() throws Exception {
    try (Connection connection = connect();
        ResultSet rows = connection.createStatement().executeQuery("SELECT 41 + 1")) {
      rows.next();
      assertThat(rows.getInt(1)).isEqualTo(42);
    }
  }
}
