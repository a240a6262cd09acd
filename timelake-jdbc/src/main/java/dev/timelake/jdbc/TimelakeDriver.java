package dev.timelake.jdbc;

import dev.timelake.Session;
import dev.timelake.TimelakeException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The JDBC driver of an embedded Timelake warehouse: {@code jdbc:timelake:/path/to/warehouse}, in
 * process. Connection properties (or {@code ?name=value&…} after the path) are session settings,
 * e.g. {@code rollup-routing=false}; {@code user} and {@code password} are accepted and ignored.
 * Connections to one warehouse share one open {@link dev.timelake.Lake}; each has its own session.
 * Registered through {@link java.util.ServiceLoader} and with {@link DriverManager}.
 */
public final class TimelakeDriver implements Driver {
  /** The URL prefix this driver accepts. */
  public static final String PREFIX = "jdbc:timelake:";

  static final int MAJOR_VERSION = 0;
  static final int MINOR_VERSION = 1;

  private static final Set<String> IGNORED = Set.of("user", "password");

  static {
    try {
      DriverManager.registerDriver(new TimelakeDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null; // another driver's URL, as the JDBC contract asks
    }
    String rest = url.substring(PREFIX.length());
    int query = rest.indexOf('?');
    String location = query < 0 ? rest : rest.substring(0, query);
    if (location.isBlank()) {
      throw new SQLException(
          "The URL " + url + " names no warehouse: use jdbc:timelake:/path/to/warehouse", "08001");
    }
    Map<String, String> settings = new LinkedHashMap<>();
    if (query >= 0) {
      for (String pair : rest.substring(query + 1).split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int equals = pair.indexOf('=');
        if (equals < 1) {
          throw new SQLException(
              "The URL " + url + " has '" + pair + "' where name=value was expected", "08001");
        }
        settings.put(pair.substring(0, equals), pair.substring(equals + 1));
      }
    }
    if (info != null) {
      for (String name : info.stringPropertyNames()) {
        settings.put(name, info.getProperty(name));
      }
    }
    Path warehouse = Path.of(location).toAbsolutePath().normalize();
    Warehouses.Lease lease;
    try {
      lease = Warehouses.open(warehouse);
    } catch (TimelakeException e) {
      throw new SQLException(
          "Cannot open the warehouse " + warehouse + ": " + e.getMessage(), "08001", e);
    }
    Session session = lease.lake().newSession();
    try {
      settings.forEach(
          (name, value) -> {
            if (!IGNORED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
              session.set(name, value);
            }
          });
    } catch (TimelakeException e) {
      session.close();
      lease.close();
      throw new SQLException("Cannot connect to " + url + ": " + e.getMessage(), "08001", e);
    }
    return new TimelakeConnection(url, lease, session);
  }

  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return MAJOR_VERSION;
  }

  @Override
  public int getMinorVersion() {
    return MINOR_VERSION;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("Timelake's JDBC driver does not log through JUL");
  }
}
