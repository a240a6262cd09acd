package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each test's lake in a temporary folder and a PostgreSQL-protocol server on it for user tl, and
 * pgjdbc connections and psql command lines to it.
 */
abstract class WithPgServer {
  private final String password;
  private final ServerLimits limits;

  @TempDir Path warehouse;
  Lake lake;
  PgServer server;

  /** A server for user tl with {@code password}, within the default limits. */
  WithPgServer(String password) {
    this(password, ServerLimits.DEFAULT);
  }

  /** A server for user tl with {@code password}, within {@code limits}. */
  WithPgServer(String password, ServerLimits limits) {
    this.password = password;
    this.limits = limits;
  }

  @BeforeEach
  void startServer() throws IOException {
    lake = Lake.open(warehouse);
    server =
        PgServer.start(
            lake, new InetSocketAddress("127.0.0.1", 0), new Credentials("tl", password), limits);
  }

  @AfterEach
  void stopServer() throws IOException {
    server.close();
    lake.close();
  }

  /** The pgjdbc URL of database timelake on the server. */
  String url() {
    return "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake";
  }

  /** A connection of user tl. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), "tl", password);
  }

  /** A connection of user tl in pgjdbc's {@code preferQueryMode} {@code mode}. */
  Connection connect(String mode) throws SQLException {
    return DriverManager.getConnection(url() + "?preferQueryMode=" + mode, "tl", password);
  }

  /** psql's command line for user tl and database timelake on {@code port}, then {@code more}. */
  static List<String> psqlCommand(int port, String... more) {
    List<String> command =
        new ArrayList<>(
            List.of(
                "psql",
                "-X",
                "-h",
                "127.0.0.1",
                "-p",
                Integer.toString(port),
                "-U",
                "tl",
                "-d",
                "timelake",
                "-At"));
    command.addAll(List.of(more));
    return command;
  }

  /**
   * The lines {@code command} writes (standard output and error) when run with PGPASSWORD {@code
   * password} (none when null), failing unless it ends within {@code timeout}.
   */
  static List<String> outputOf(List<String> command, String password, Duration timeout)
      throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("PGPASSWORD");
    if (password != null) {
      builder.environment().put("PGPASSWORD", password);
    }
    Process process = builder.start();
    process.getOutputStream().close();
    assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
        .lines()
        .toList();
  }
}
