package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What `timelake serve` refuses before it listens (serving itself is tested in the server). */
class ServeCommandTest {
  @TempDir Path directory;

  /** {@code timelake serve --pg-port 0 ARGS} with TIMELAKE_PASSWORD set, on a new warehouse. */
  private Run serveWithPassword(String... args) {
    java.util.List<String> all =
        new java.util.ArrayList<>(
            java.util.List.of(
                "--warehouse", directory.resolve("w").toString(), "serve", "--pg-port", "0"));
    all.addAll(java.util.List.of(args));
    return CliRunner.runWithoutWarehouse(
        "", java.util.Map.of("TIMELAKE_PASSWORD", "pw"), all.toArray(String[]::new));
  }

  @Test
  void refusesToStartWithoutAPassword() {
    Run run = new CliRunner(directory.resolve("w")).run("serve", "--pg-port", "0");
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains("set TIMELAKE_PASSWORD")
        .contains("the server admits nobody without one");
  }

  @Test
  void refusesBadHotTierSettingsNamingThem() {
    Run mode = serveWithPassword("--hot-tier", "maybe");
    assertThat(mode.status()).isNotZero();
    assertThat(mode.err()).contains("--hot-tier is 'on' or 'off', not 'maybe'");
    Run rows = serveWithPassword("--hot-tier-max-rows", "0");
    assertThat(rows.status()).isNotZero();
    assertThat(rows.err()).contains("hot-tier-max-rows must be at least 1, not 0");
  }

  @Test
  void infoSaysWhatTheServersHotTierHoldsOfTheTable() throws Exception {
    Path warehouse = directory.resolve("w");
    try (dev.timelake.Lake lake = dev.timelake.Lake.open(warehouse);
        dev.timelake.server.LineProtocolServer server =
            dev.timelake.server.LineProtocolServer.start(
                lake,
                new java.net.InetSocketAddress("127.0.0.1", 0),
                new dev.timelake.server.Credentials("tl", "pw"),
                java.util.Optional.empty(),
                java.util.Optional.of(
                    new dev.timelake.server.HotTierSettings(
                        1_000_000, java.time.Duration.ofHours(1), 64L << 20)))) {
      java.net.http.HttpResponse<String> written =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(
                              "http://127.0.0.1:"
                                  + server.port()
                                  + "/api/v2/write?bucket=iot&precision=s"))
                      .header("Authorization", "Token pw")
                      .POST(
                          java.net.http.HttpRequest.BodyPublishers.ofString(
                              "readings,tag=a value=1 1767225600\n"
                                  + "readings,tag=b value=2 1767225600\n"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(written.statusCode()).isEqualTo(204);
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (dev.timelake.server.HotTierStatus.read(lake).map(s -> s.rows()).orElse(0L) == 0) {
        assertThat(System.nanoTime()).as("status written in time").isLessThan(deadline);
        Thread.sleep(20);
      }
      Run info = new CliRunner(warehouse).run("info", "iot.readings");
      assertThat(info.status()).isZero();
      assertThat(info.out())
          .contains("Hot tier: 2 rows answered by the server and not yet committed (the oldest");
    }
  }

  @Test
  void refusesABadStatementTimeout() {
    Run run =
        new CliRunner(directory.resolve("w"))
            .run("serve", "--pg-port", "0", "--statement-timeout", "soon");
    assertThat(run.status()).isNotZero();
    assertThat(run.err()).contains("Cannot serve").contains("expected a duration such as");
  }

  @Test
  void refusesAMalformedUsersFileNamingTheLine() throws Exception {
    Path users = directory.resolve("users.txt");
    java.nio.file.Files.writeString(users, "alice:plain-password\n");
    Run run =
        new CliRunner(directory.resolve("w"))
            .run("serve", "--pg-port", "0", "--http-port", "-1", "--users", users.toString());
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains("Cannot serve")
        .contains("users.txt line 1")
        .contains("timelake hash-password");
  }

  @Test
  void refusesHalfATlsConfiguration() throws Exception {
    Path certificate = directory.resolve("server.crt");
    java.nio.file.Files.writeString(certificate, "");
    Run run = serveWithPassword("--tls-cert", certificate.toString());
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains("TLS needs both --tls-cert and --tls-key (--tls-key is missing)");
  }

  @Test
  void refusesToRequireTlsWithThePlainHttpRestCatalog() {
    Run run = serveWithPassword("--rest-port", "0", "--require-tls");
    assertThat(run.status()).isNotZero();
    assertThat(run.err()).contains("--require-tls").contains("plain HTTP only");
  }

  @Test
  void refusesToRequireTlsWithoutACertificate() {
    Run run = serveWithPassword("--require-tls");
    assertThat(run.status()).isNotZero();
    assertThat(run.err()).contains("--require-tls needs --tls-cert and --tls-key");
  }

  @Test
  void hashPasswordPrintsAUsersFileLineWithTheUsersRole() throws Exception {
    Run run =
        new CliRunner(directory.resolve("w"))
            .runWithInput(
                "s3cret\n",
                "hash-password",
                "grafana",
                "--role",
                "read",
                "--namespaces",
                "iot,plant");
    assertThat(run.status()).as(run.err()).isZero();
    String line = run.out().strip();
    assertThat(line)
        .startsWith("grafana:SCRAM-SHA-256$4096:")
        .endsWith(" role=read namespaces=iot,plant");
    java.nio.file.Path users = directory.resolve("users.txt");
    java.nio.file.Files.writeString(users, line + "\n");
    assertThat(dev.timelake.server.Credentials.fromFile(users).accessOf("grafana"))
        .isEqualTo(
            new dev.timelake.ClientAccess(
                "grafana", dev.timelake.Role.READ, java.util.Set.of("iot", "plant")));

    Run refused =
        new CliRunner(directory.resolve("w"))
            .runWithInput("\n", "hash-password", "a:b", "--role", "read");
    assertThat(refused.status()).isNotZero();
    assertThat(refused.err()).contains("Invalid user name 'a:b'");
    Run noRole = new CliRunner(directory.resolve("w")).runWithInput("pw\n", "hash-password", "bob");
    assertThat(noRole.status()).isNotZero();
    assertThat(noRole.err()).contains("Missing required option: '--role=ROLE'");
    Run badRole =
        new CliRunner(directory.resolve("w"))
            .runWithInput("pw\n", "hash-password", "bob", "--role", "root");
    assertThat(badRole.status()).isNotZero();
    assertThat(badRole.err()).contains("Unknown role 'root' (expected read, write or admin)");
  }

  @Test
  void warnsOnlyWhenOtherMachinesReachItWithoutTls() throws Exception {
    assertThat(ServeCommand.restExposureWarning("127.0.0.1", 8181)).isEmpty();
    assertThat(ServeCommand.restExposureWarning("0.0.0.0", -1)).isEmpty();
    assertThat(ServeCommand.restExposureWarning("0.0.0.0", 8181))
        .hasValueSatisfying(warning -> assertThat(warning).contains("plain HTTP"));
    assertThat(ServeCommand.exposureWarning("127.0.0.1", false)).isEmpty();
    assertThat(ServeCommand.exposureWarning("localhost", false)).isEmpty();
    assertThat(ServeCommand.exposureWarning("0.0.0.0", true)).isEmpty();
    assertThat(ServeCommand.exposureWarning("0.0.0.0", false))
        .hasValueSatisfying(
            warning -> assertThat(warning).contains("0.0.0.0 without TLS").contains("--tls-cert"));
    assertThat(new CliRunner(directory.resolve("w")).run("serve", "--help").out())
        .contains("default: 127.0.0.1");
  }
}
