package dev.timelake.server;

import dev.timelake.Lake;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;

/**
 * A lake served as `timelake serve` serves it, for the hot tier's tests: the line-protocol server
 * with a tier (or, as with {@code --http-port -1}, the tier alone), the PostgreSQL server, and one
 * pgjdbc connection for user tl — on 127.0.0.1, closed together.
 */
final class TieredServers implements AutoCloseable {
  /** The line-protocol server; null when the tier was opened without one. */
  final LineProtocolServer lineProtocol;

  final PgServer pg;
  final Connection connection;
  private final AutoCloseable tier;

  private TieredServers(
      LineProtocolServer lineProtocol, AutoCloseable tier, PgServer pg, Connection connection) {
    this.lineProtocol = lineProtocol;
    this.tier = tier;
    this.pg = pg;
    this.connection = connection;
  }

  static TieredServers start(Lake lake, HotTierSettings settings) throws Exception {
    LineProtocolServer lineProtocol = WithLineProtocolServer.tiered(lake, settings);
    return start(lake, lineProtocol, lineProtocol);
  }

  /** The tier and the PostgreSQL server without an HTTP port. */
  static TieredServers startWithoutHttp(Lake lake, HotTierSettings settings) throws Exception {
    return start(lake, null, StandaloneHotTier.open(lake, settings));
  }

  private static TieredServers start(Lake lake, LineProtocolServer lineProtocol, AutoCloseable tier)
      throws Exception {
    PgServer pg = null;
    try {
      pg =
          PgServer.start(
              lake,
              new InetSocketAddress("127.0.0.1", 0),
              new Credentials("tl", WithLineProtocolServer.PASSWORD));
      Connection connection =
          DriverManager.getConnection(
              "jdbc:postgresql://127.0.0.1:" + pg.port() + "/timelake",
              "tl",
              WithLineProtocolServer.PASSWORD);
      return new TieredServers(lineProtocol, tier, pg, connection);
    } catch (Exception e) {
      if (pg != null) {
        pg.close();
      }
      tier.close();
      throw e;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      connection.close();
    } finally {
      pg.close();
      tier.close();
    }
  }
}
