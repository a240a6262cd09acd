package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over HTTPS the TLS handshake is read on the request's thread too: clients that start one and stop
 * are cut off at the header deadline, and a normal client is served meanwhile.
 */
class LineProtocolTlsDeadlineTest {
  private static final String PASSWORD = "tls line pw";

  @TempDir static Path folder;
  private static Path certificate;
  private static Path key;

  /** A self-signed certificate made by the JDK's keytool, written out as PEM by Java. */
  @BeforeAll
  static void makeCertificate() throws Exception {
    Path store = folder.resolve("server.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=IP:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue()).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(store.toFile())) {
      keys.load(in, "changeit".toCharArray());
    }
    certificate = folder.resolve("server.crt");
    key = folder.resolve("server.key");
    Files.writeString(certificate, pem("CERTIFICATE", keys.getCertificate("server").getEncoded()));
    Files.writeString(
        key, pem("PRIVATE KEY", keys.getKey("server", "changeit".toCharArray()).getEncoded()));
  }

  private static String pem(String kind, byte[] der) {
    return "-----BEGIN "
        + kind
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + kind
        + "-----\n";
  }

  @Test
  void clientsThatStallTheirHandshakeAreCutOffWhileANormalClientIsServed() throws Exception {
    try (Lake lake = Lake.open(folder.resolve("lake"));
        LineProtocolServer server =
            LineProtocolServer.start(
                lake,
                new InetSocketAddress("127.0.0.1", 0),
                new Credentials("tl", PASSWORD),
                Optional.of(Tls.fromPem(certificate, key)),
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
        HttpClient client = HttpClient.newBuilder().sslContext(trusting()).build();
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

  /** Trusts the test's self-signed certificate (as curl -k would). */
  private static SSLContext trusting() throws Exception {
    TrustManager trustAll =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {trustAll}, null);
    return context;
  }
}
