package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.timelake.Lake;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users from a users file of SCRAM verifiers, TLS from PEM files for PostgreSQL clients and for
 * HTTPS line protocol, and the refusals: wrong password, unknown user, malformed files.
 */
class ServerSecurityTest {
  @TempDir static Path folder;
  private static SelfSignedCertificate certificate;

  @BeforeAll
  static void makeCertificate() throws Exception {
    certificate = SelfSignedCertificate.makeIn(folder);
  }

  private static Path usersFile(String... lines) throws Exception {
    Path file = Files.createTempFile(folder, "users", ".txt");
    Files.write(file, List.of(lines));
    return file;
  }

  @Test
  void usersOfAUsersFileLogInWithTheirOwnPasswords() throws Exception {
    Path users =
        usersFile(
            "# Timelake users",
            "alice:" + ScramSecret.of("alice pw").text(),
            "",
            "grafana:" + ScramSecret.of("grafana pw").text());
    try (Lake lake = Lake.open(folder.resolve("wh-users"));
        PgServer server =
            PgServer.start(
                lake, new InetSocketAddress("127.0.0.1", 0), Credentials.fromFile(users))) {
      String url = "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake";
      for (String user : List.of("alice", "grafana")) {
        try (Connection connection = DriverManager.getConnection(url, user, user + " pw");
            ResultSet rows = connection.createStatement().executeQuery("SELECT 42")) {
          rows.next();
          assertThat(rows.getInt(1)).isEqualTo(42);
        }
      }
      assertThatThrownBy(() -> DriverManager.getConnection(url, "alice", "grafana pw"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Password authentication failed for user \"alice\"");
      // An unknown user is told the same as a wrong password: the answer names no users.
      assertThatThrownBy(() -> DriverManager.getConnection(url, "mallory", "alice pw"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Password authentication failed for user \"mallory\"");
    }
  }

  @Test
  void anAddressThatKeepsGuessingPasswordsIsRefusedForAWhile() throws Exception {
    try (Lake lake = Lake.open(folder.resolve("wh-guessing"));
        PgServer server =
            PgServer.start(
                lake, new InetSocketAddress("127.0.0.1", 0), new Credentials("tl", "right pw"))) {
      String url = "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake";
      for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK; i++) {
        String guess = "guess " + i;
        assertThatThrownBy(() -> DriverManager.getConnection(url, "tl", guess))
            .hasMessageContaining("Password authentication failed");
      }
      // Even the right password is not checked now: the answer says when to try again.
      assertThatThrownBy(() -> DriverManager.getConnection(url, "tl", "right pw"))
          .hasMessageContaining(
              "Too many failed logins of user \"tl\" from 127.0.0.1 (or on this server): try"
                  + " again in");
    }
  }

  @Test
  void aClientThatHasNotLoggedInCannotMakeTheServerAllocateMuch() throws Exception {
    try (Lake lake = Lake.open(folder.resolve("wh-startup"));
        PgServer server =
            PgServer.start(
                lake, new InetSocketAddress("127.0.0.1", 0), new Credentials("tl", "pw"))) {
      try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
        socket.setSoTimeout(10_000);
        java.io.DataOutputStream out = new java.io.DataOutputStream(socket.getOutputStream());
        out.writeInt(64 << 20); // a 64 MiB startup packet announced, never sent
        out.flush();
        assertThat(socket.getInputStream().read()).isEqualTo(-1); // closed at once
      }
      try (Connection connection =
          DriverManager.getConnection(
              "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake", "tl", "pw")) {
        assertThat(connection.isValid(5)).isTrue(); // and it still serves others
      }
    }
  }

  @Test
  void malformedUsersFilesAreRefusedNamingTheLine() throws Exception {
    assertThatThrownBy(() -> Credentials.fromFile(usersFile("alice:secret")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 1")
        .hasMessageContaining("user 'alice'")
        .hasMessageContaining("not a SCRAM-SHA-256 verifier");
    String secret = ScramSecret.of("x").text();
    assertThatThrownBy(() -> Credentials.fromFile(usersFile("a:" + secret, "a:" + secret)))
        .hasMessageContaining("line 2")
        .hasMessageContaining("listed twice");
    assertThatThrownBy(() -> Credentials.fromFile(usersFile("# nobody")))
        .hasMessageContaining("lists no users");
    assertThat(ScramSecret.parse(secret).text()).isEqualTo(secret);
    assertThat(ScramSecret.parse(secret).matches("x")).isTrue();
    assertThat(ScramSecret.parse(secret).matches("y")).isFalse();
  }

  @Test
  void aServerThatRequiresTlsRefusesPlainClientsBeforeTheirPassword() throws Exception {
    try (Lake lake = Lake.open(folder.resolve("wh-tls-required"));
        PgServer server = tlsServer(lake, certificate.tls().required())) {
      String base = "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake";
      assertThatThrownBy(() -> DriverManager.getConnection(base + "?sslmode=disable", "tl", "x"))
          .hasMessageContaining("This server requires TLS: connect with sslmode=require");
      assertAnswersOverTls(base + "?sslmode=require");
    }
  }

  /** A server for user tl with password "tls pw", offering {@code tls}. */
  private static PgServer tlsServer(Lake lake, Tls tls) throws Exception {
    return PgServer.start(
        lake,
        new InetSocketAddress("127.0.0.1", 0),
        new Credentials("tl", "tls pw"),
        ServerLimits.DEFAULT,
        Optional.of(tls));
  }

  private static void assertAnswersOverTls(String url) throws Exception {
    try (Connection connection = DriverManager.getConnection(url, "tl", "tls pw");
        ResultSet rows = connection.createStatement().executeQuery("SELECT 'over tls'")) {
      rows.next();
      assertThat(rows.getString(1)).isEqualTo("over tls");
    }
  }

  @Test
  void postgresClientsMayAskForTls() throws Exception {
    try (Lake lake = Lake.open(folder.resolve("wh-tls"));
        PgServer server = tlsServer(lake, certificate.tls())) {
      assertAnswersOverTls(
          "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake?sslmode=require");
      // Without TLS, the same server still answers (sslmode=disable).
      try (Connection plain =
          DriverManager.getConnection(
              "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake?sslmode=disable",
              "tl",
              "tls pw")) {
        assertThat(plain.isValid(5)).isTrue();
      }
      assumeTrue(
          new ProcessBuilder("psql", "--version").start().waitFor() == 0,
          "psql is not installed (.ci/run installs it)");
      ProcessBuilder psql =
          new ProcessBuilder(
                  "psql",
                  "-X",
                  "-At",
                  "host=127.0.0.1 port="
                      + server.port()
                      + " user=tl dbname=timelake sslmode=require",
                  "-c",
                  "\\conninfo")
              .redirectErrorStream(true);
      psql.environment().put("PGPASSWORD", "tls pw");
      Process process = psql.start();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
          .contains("SSL connection (protocol: TLSv1.3");
    }
  }

  @Test
  void lineProtocolSpeaksHttpsWithTheSameCertificate() throws Exception {
    try (Lake lake = Lake.open(folder.resolve("wh-https"));
        LineProtocolServer server =
            LineProtocolServer.start(
                lake,
                new InetSocketAddress("127.0.0.1", 0),
                new Credentials("tl", "https pw"),
                Optional.of(certificate.tls()))) {
      HttpClient client = SelfSignedCertificate.trustingClient();
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(
                      URI.create("https://127.0.0.1:" + server.port() + "/api/v2/write?bucket=iot"))
                  .header("Authorization", "Token https pw")
                  .POST(
                      HttpRequest.BodyPublishers.ofString("cpu,host=a usage=1 1767225600000000000"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(204);
      assertThat(lake.tables()).extracting(Object::toString).containsExactly("iot.cpu");
    }
  }

  @Test
  void unusableKeyFilesAreRefusedWithTheWayOut() throws Exception {
    Path pkcs1 = folder.resolve("rsa.key");
    Files.writeString(
        pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    assertThatThrownBy(() -> Tls.fromPem(certificate.certificate(), pkcs1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an unencrypted PKCS #8 key")
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    assertThatThrownBy(() -> Tls.fromPem(certificate.key(), certificate.key()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("certificate");
  }
}
