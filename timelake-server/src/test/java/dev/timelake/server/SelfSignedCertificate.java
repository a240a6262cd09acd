package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A self-signed certificate for 127.0.0.1 made by the JDK's keytool, written out as PEM by Java,
 * for the servers' TLS tests; and a client that trusts it.
 */
record SelfSignedCertificate(Path certificate, Path key) {
  /**
   * Makes the certificate and its key in {@code folder} ({@code server.crt}, {@code server.key}).
   */
  static SelfSignedCertificate makeIn(Path folder) throws Exception {
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
    Path certificate = folder.resolve("server.crt");
    Path key = folder.resolve("server.key");
    Files.writeString(certificate, pem("CERTIFICATE", keys.getCertificate("server").getEncoded()));
    Files.writeString(
        key, pem("PRIVATE KEY", keys.getKey("server", "changeit".toCharArray()).getEncoded()));
    return new SelfSignedCertificate(certificate, key);
  }

  /** The server's TLS from these files. */
  Tls tls() throws java.io.IOException {
    return Tls.fromPem(certificate, key);
  }

  /** An HTTPS client that trusts this (and any) certificate, as curl -k does. */
  static HttpClient trustingClient() throws Exception {
    return HttpClient.newBuilder().sslContext(trustingEveryone()).build();
  }

  private static SSLContext trustingEveryone() throws Exception {
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

  private static String pem(String kind, byte[] der) {
    return "-----BEGIN "
        + kind
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + kind
        + "-----\n";
  }
}
