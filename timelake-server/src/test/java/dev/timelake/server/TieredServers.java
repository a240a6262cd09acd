package dev.timelake.server;

import dev.timelake.Lake;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;

/**
 * A lake served as `timelake serve` serves it, for the hot tier's tests: the line-protocol server
 * with a tier, the PostgreSQL server, and one pgjdbc connection for user tl — on 127.0.0.1, closed
 * together.
 */
final class TieredServers implements AutoCloseable {
  final LineProtocolServer lineProtocol;
  final PgServer pg;
  final Connection connection;

  private TieredServers(LineProtocolServer lineProtocol, PgServer pg, Connection connection) {
    this.lineProtocol = lineProtocol;
    this.pg = pg;
    this.connection = connection;
  }

  static TieredServers start(Lake lake, HotTierSettings settings) throws Exception {
    LineProtocolServer lineProtocol = WithLineProtocolServer.tiered(lake, settings);
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
      return new TieredServers(lineProtocol, pg, connection);
    } catch (Exception e) {
      if (pg != null) {
        pg.close();
      }
      lineProtocol.close();
      throw e;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      connection.close();
    } finally {
      pg.close();
      lineProtocol.close();
    }
  }
}
