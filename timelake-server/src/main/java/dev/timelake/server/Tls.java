package dev.timelake.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * TLS for the servers, from a certificate chain and its private key in PEM files (what PostgreSQL's
 * {@code ssl_cert_file} and {@code ssl_key_file} take): the key unencrypted PKCS #8 ({@code BEGIN
 * PRIVATE KEY}, RSA or EC). TLS 1.2 and 1.3 only.
 */
public final class Tls {
  private static final Pattern PKCS8 =
      Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

  private final SSLContext context;
  private final boolean required;

  private Tls(SSLContext context, boolean required) {
    this.context = context;
    this.required = required;
  }

  /**
   * The same TLS, required: a PostgreSQL client that does not ask for it is refused after its
   * startup packet, before any password is exchanged (PostgreSQL's {@code hostssl}). The HTTP
   * server speaks only HTTPS whenever it has TLS, so this changes nothing there.
   */
  public Tls required() {
    return new Tls(context, true);
  }

  /** True when clients must use TLS. */
  public boolean isRequired() {
    return required;
  }

  /**
   * Reads {@code certificate} (PEM, the server's certificate first) and {@code key}.
   *
   * @throws IllegalArgumentException naming the file that cannot be used, and why
   */
  public static Tls fromPem(Path certificate, Path key) throws IOException {
    Collection<? extends Certificate> chain;
    try {
      chain =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(certificate)));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "Cannot read the TLS certificate " + certificate + ": " + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new IllegalArgumentException(
          "The TLS certificate file " + certificate + " holds no certificate");
    }
    PrivateKey privateKey = privateKey(key);
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("server", privateKey, new char[0], chain.toArray(Certificate[]::new));
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, new char[0]);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return new Tls(context, false);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "The TLS key " + key + " does not fit the certificate " + certificate + ": " + e, e);
    }
  }

  private static PrivateKey privateKey(Path key) throws IOException {
    String pem = Files.readString(key, StandardCharsets.US_ASCII);
    Matcher matcher = PKCS8.matcher(pem);
    if (!matcher.find()) {
      throw new IllegalArgumentException(
          "The TLS key "
              + key
              + " is not an unencrypted PKCS #8 key (BEGIN PRIVATE KEY); convert it with"
              + " `openssl pkcs8 -topk8 -nocrypt -in "
              + key
              + " -out server-key.pem`");
    }
    byte[] der = Base64.getMimeDecoder().decode(matcher.group(1));
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // the next algorithm
      }
    }
    throw new IllegalArgumentException(
        "The TLS key " + key + " is neither an RSA, an EC nor an Ed25519 key");
  }

  /** The server's end of TLS over {@code socket}, handshake done. */
  SSLSocket accept(Socket socket) throws IOException {
    SSLSocket tls =
        (SSLSocket)
            context
                .getSocketFactory()
                .createSocket(
                    socket, socket.getInetAddress().getHostAddress(), socket.getPort(), true);
    tls.setUseClientMode(false);
    tls.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
    tls.startHandshake();
    return tls;
  }

  /** The context, for the HTTP server. */
  SSLContext context() {
    return context;
  }
}
