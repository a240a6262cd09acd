package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.catalog.Catalogs;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each user of a users file does what its role allows on every port: a read user (Grafana) only
 * queries; a write user appends to existing tables, over SQL, COPY and line protocol, in its
 * namespaces; an admin also creates tables (also through line protocol) and uses the REST catalog.
 * Every refusal names the user, the role and what was needed, and changes nothing.
 */
class ServerRolesTest {
  private static final String PASSWORD = "pw";

  @TempDir Path folder;
  private Lake lake;
  private PgServer postgres;
  private LineProtocolServer lineProtocol;
  private Credentials users;

  @BeforeEach
  void start() throws Exception {
    Path file = folder.resolve("users.txt");
    String secret = ScramSecret.of(PASSWORD).text();
    Files.write(
        file,
        List.of(
            "grafana:" + secret + " role=read",
            "telegraf:" + secret + " role=write namespaces=iot",
            "root:" + secret + " role=admin"));
    users = Credentials.fromFile(file);
    lake = Lake.open(folder.resolve("warehouse"));
    try (Session local = lake.newSession()) {
      local
          .sql(
              "CREATE TABLE iot.cpu (host VARCHAR, time TIMESTAMPTZ, usage DOUBLE)"
                  + " WITH (time_column = 'time', series_key = 'host')")
          .close();
      local
          .sql(
              "CREATE TABLE plant.p (host VARCHAR, time TIMESTAMPTZ, usage DOUBLE)"
                  + " WITH (time_column = 'time', series_key = 'host')")
          .close();
    }
    postgres = PgServer.start(lake, new InetSocketAddress("127.0.0.1", 0), users);
    lineProtocol = LineProtocolServer.start(lake, new InetSocketAddress("127.0.0.1", 0), users);
  }

  @AfterEach
  void stop() throws Exception {
    lineProtocol.close();
    postgres.close();
    lake.close();
  }

  @Test
  void aReadUserQueriesAndIsRefusedEveryWrite() throws Exception {
    try (Connection connection = connect("grafana");
        Statement statement = connection.createStatement()) {
      try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM iot.cpu")) {
        rows.next();
        assertThat(rows.getLong(1)).isZero();
      }
      assertThatThrownBy(
              () ->
                  statement.executeUpdate(
                      "INSERT INTO iot.cpu VALUES ('a', '2026-01-01 00:00:00+00', 1)"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining(
              "Cannot INSERT INTO iot.cpu: user grafana has the role read, which may only read"
                  + " (write needed)")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42501");
      assertThatThrownBy(() -> statement.execute("DROP TABLE iot.cpu"))
          .hasMessageContaining("(admin needed)");
    }
    assertThat(write("grafana", "iot", "cpu,host=a usage=1 1").statusCode()).isEqualTo(403);
    assertThat(count("iot.cpu")).isZero();
  }

  @Test
  void aWriteUserAppendsToExistingTablesOfItsNamespaces() throws Exception {
    try (Connection connection = connect("telegraf");
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO iot.cpu VALUES ('a', '2026-01-01 00:00:00+00', 1)");
      org.postgresql.copy.CopyManager copy =
          connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      copy.copyIn(
          "COPY iot.cpu FROM STDIN (FORMAT csv)",
          new java.io.StringReader("b,2026-01-01 00:00:00+00,2\n"));
      assertThatThrownBy(
              () ->
                  statement.executeUpdate(
                      "INSERT INTO plant.p VALUES ('a', '2026-01-01 00:00:00+00', 1)"))
          .hasMessageContaining(
              "Cannot INSERT INTO plant.p: user telegraf may use only the namespaces iot, not"
                  + " plant");
    }
    assertThat(write("telegraf", "iot", "cpu,host=c usage=3 1").statusCode()).isEqualTo(204);
    HttpResponse<String> create = write("telegraf", "iot", "mem,host=c used=3 1");
    assertThat(create.statusCode()).isEqualTo(403);
    assertThat(create.body())
        .contains(
            "Cannot create table iot.mem for measurement mem: user telegraf has the role write");
    HttpResponse<String> widen = write("telegraf", "iot", "cpu,host=c usage=3,temp=40 2");
    assertThat(widen.statusCode()).isEqualTo(403);
    assertThat(widen.body()).contains("Cannot add columns temp to iot.cpu");
    assertThat(count("iot.cpu")).isEqualTo(3);
    assertThat(lake.tables()).hasSize(2);
  }

  @Test
  void anAdminCreatesTablesThroughLineProtocol() throws Exception {
    assertThat(write("root", "iot", "mem,host=c used=3 1").statusCode()).isEqualTo(204);
    assertThat(count("iot.mem")).isEqualTo(1);
  }

  @Test
  void onlyAnAdminUsesTheRestCatalog() throws Exception {
    Catalog backing = Catalogs.openEmbedded(folder.resolve("rest"));
    try (IcebergRestServer rest =
        IcebergRestServer.start(
            backing, new InetSocketAddress("127.0.0.1", 0), Optional.of(users))) {
      HttpClient http = HttpClient.newHttpClient();
      for (String user : List.of("grafana", "telegraf", "root")) {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(rest.uri().resolve("/v1/namespaces"))
                    .header("Authorization", "Bearer " + user + ":" + PASSWORD)
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(user).isEqualTo(user.equals("root") ? 200 : 403);
        if (!user.equals("root")) {
          assertThat(answer.body()).contains("Cannot use the REST catalog: user " + user);
        }
      }
    } finally {
      if (backing instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }

  private Connection connect(String user) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/timelake", user, PASSWORD);
  }

  private HttpResponse<String> write(String user, String bucket, String lines) throws Exception {
    String basic = Base64.getEncoder().encodeToString((user + ":" + PASSWORD).getBytes("UTF-8"));
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + lineProtocol.port()
                            + "/api/v2/write?bucket="
                            + bucket
                            + "&precision=s"))
                .header("Authorization", "Basic " + basic)
                .POST(HttpRequest.BodyPublishers.ofString(lines))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private long count(String table) {
    try (Session local = lake.newSession();
        var result = local.sql("SELECT count(*) FROM " + table)) {
      return ((Number) result.rows().get(0).get(0)).longValue();
    }
  }
}
