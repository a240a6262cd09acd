package dev.timelake.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/**
 * What result sets may be (forward-only and read-only, as DuckDB's are), and the one way the
 * driver's objects unwrap.
 */
final class Results {
  private Results() {}

  /** {@code self} as {@code type}, which it must be; {@code what} names it in the error. */
  static <T> T unwrap(Object self, Class<T> type, String what) throws SQLException {
    if (type.isInstance(self)) {
      return type.cast(self);
    }
    throw new SQLException(what + " is not a " + type.getName());
  }

  static void checkForwardOnly(int type, int concurrency) throws SQLException {
    if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY) {
      throw new SQLFeatureNotSupportedException(
          "Timelake result sets are forward-only and read-only (TYPE_FORWARD_ONLY,"
              + " CONCUR_READ_ONLY)");
    }
  }
}
