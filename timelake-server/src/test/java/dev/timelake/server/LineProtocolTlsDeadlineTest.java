package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over HTTPS the TLS handshake is read on the request's thread too: clients that start one and stop
 * are cut off at the header deadline, and a normal client is served meanwhile.
 */
class LineProtocolTlsDeadlineTest {
  private static final String PASSWORD = "tls line pw";

  @TempDir Path folder;

  @Test
  void clientsThatStallTheirHandshakeAreCutOffWhileANormalClientIsServed() throws Exception {
    SelfSignedCertificate certificate = SelfSignedCertificate.makeIn(folder);
    try (Lake lake = Lake.open(folder.resolve("lake"));
        LineProtocolServer server =
            LineProtocolServer.start(
                lake,
                new InetSocketAddress("127.0.0.1", 0),
                new Credentials("tl", PASSWORD),
                Optional.of(certificate.tls()),
                LineProtocolServer.Limits.DEFAULT.withDeadlines(
                    Duration.ofSeconds(2), Duration.ofSeconds(120)))) {
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < 100; i++) {
          Socket socket = new Socket("127.0.0.1", server.port());
          stalled.add(socket);
          socket.setSoTimeout(30_000);
          socket.getOutputStream().write(0x16); // the first byte of a TLS handshake record
          socket.getOutputStream().flush();
        }
        HttpClient client = SelfSignedCertificate.trustingClient();
        HttpResponse<String> written =
            client.send(
                HttpRequest.newBuilder(
                        URI.create(
                            "https://127.0.0.1:" + server.port() + "/api/v2/write?bucket=iot"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Token " + PASSWORD)
                    .POST(HttpRequest.BodyPublishers.ofString("cpu,host=a usage=1 1767225600"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(written.statusCode()).as(written.body()).isEqualTo(204);
        for (Socket socket : stalled) {
          assertThat(isCutOff(socket)).isTrue();
        }
      } finally {
        for (Socket socket : stalled) {
          socket.close();
        }
      }
      try (Session session = lake.newSession();
          QueryResult rows = session.sql("SELECT host, usage FROM iot.cpu")) {
        assertThat(rows.rows()).containsExactly(List.of("a", 1.0));
      }
    }
  }

  /** Whether the server ended the connection (an end of stream or a reset). */
  private static boolean isCutOff(Socket socket) throws Exception {
    try {
      return socket.getInputStream().read() == -1;
    } catch (SocketException reset) {
      return true;
    }
  }
}
