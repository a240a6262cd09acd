package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What `timelake serve` refuses before it listens (serving itself is tested in the server). */
class ServeCommandTest {
  @TempDir Path directory;

  @Test
  void refusesToStartWithoutAPassword() {
    Run run = new CliRunner(directory.resolve("w")).run("serve", "--pg-port", "0");
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains("set TIMELAKE_PASSWORD")
        .contains("the server admits nobody without one");
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
    Run run =
        CliRunner.runWithoutWarehouse(
            "",
            java.util.Map.of("TIMELAKE_PASSWORD", "pw"),
            "--warehouse",
            directory.resolve("w").toString(),
            "serve",
            "--pg-port",
            "0",
            "--tls-cert",
            certificate.toString());
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains("TLS needs both --tls-cert and --tls-key (--tls-key is missing)");
  }

  @Test
  void refusesToRequireTlsWithThePlainHttpRestCatalog() {
    Run run =
        CliRunner.runWithoutWarehouse(
            "",
            java.util.Map.of("TIMELAKE_PASSWORD", "pw"),
            "--warehouse",
            directory.resolve("w").toString(),
            "serve",
            "--pg-port",
            "0",
            "--rest-port",
            "0",
            "--require-tls");
    assertThat(run.status()).isNotZero();
    assertThat(run.err()).contains("--require-tls").contains("plain HTTP only");
  }

  @Test
  void refusesToRequireTlsWithoutACertificate() {
    Run run =
        CliRunner.runWithoutWarehouse(
            "",
            java.util.Map.of("TIMELAKE_PASSWORD", "pw"),
            "--warehouse",
            directory.resolve("w").toString(),
            "serve",
            "--pg-port",
            "0",
            "--require-tls");
    assertThat(run.status()).isNotZero();
    assertThat(run.err()).contains("--require-tls needs --tls-cert and --tls-key");
  }

  @Test
  void hashPasswordPrintsAUsersFileLineThatLogsIn() {
    Run run =
        new CliRunner(directory.resolve("w")).runWithInput("s3cret\n", "hash-password", "grafana");
    assertThat(run.status()).isZero();
    String line = run.out().strip();
    assertThat(line).startsWith("grafana:SCRAM-SHA-256$4096:");
    assertThat(dev.timelake.server.ScramSecret.parse(line.substring("grafana:".length())).text())
        .isEqualTo(line.substring("grafana:".length()));
    Run refused = new CliRunner(directory.resolve("w")).runWithInput("\n", "hash-password", "a:b");
    assertThat(refused.status()).isNotZero();
    assertThat(refused.err()).contains("Invalid user name 'a:b'");
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
