package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each test's lake in a temporary folder and a line-protocol server on it for user tl with {@link
 * #PASSWORD}, and what tests send the one and ask of the other.
 */
abstract class WithLineProtocolServer {
  static final String PASSWORD = "line secret";

  @TempDir Path warehouse;
  Lake lake;
  LineProtocolServer server;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void startServer() throws IOException {
    lake = Lake.open(warehouse);
    server =
        LineProtocolServer.start(
            lake, new InetSocketAddress("127.0.0.1", 0), new Credentials("tl", PASSWORD));
  }

  @AfterEach
  void stopServer() {
    server.close();
    lake.close();
  }

  /** A server of {@code on} on loopback for user tl, with a hot tier of {@code settings}. */
  static LineProtocolServer tiered(Lake on, HotTierSettings settings) throws IOException {
    return LineProtocolServer.start(
        on,
        new InetSocketAddress("127.0.0.1", 0),
        new Credentials("tl", PASSWORD),
        java.util.Optional.empty(),
        java.util.Optional.of(settings));
  }

  /** A server of {@code lake} on loopback for user tl with {@code password}, within limits. */
  static LineProtocolServer start(Lake lake, String password, LineProtocolServer.Limits limits)
      throws IOException {
    return LineProtocolServer.start(
        lake,
        new InetSocketAddress("127.0.0.1", 0),
        new Credentials("tl", password),
        Optional.empty(),
        limits);
  }

  /** POSTs {@code body} to {@code pathAndQuery}, with the Authorization header when not null. */
  HttpResponse<String> post(String pathAndQuery, String authorization, byte[] body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The rows {@code sql} selects from the lake. */
  List<List<Object>> rows(String sql) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  /** Runs {@code statement} on the lake. */
  void sql(String statement) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(statement)) {
      result.rows();
    }
  }

  /** How many snapshots {@code table} has. */
  int snapshots(String table) {
    return lake.table(TableName.parse(table)).info().snapshots().size();
  }
}
