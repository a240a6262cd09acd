package dev.timelake.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/** What result sets may be: forward-only and read-only, as DuckDB's are. */
final class Results {
  private Results() {}

  static void checkForwardOnly(int type, int concurrency) throws SQLException {
    if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY) {
      throw new SQLFeatureNotSupportedException(
          "Timelake result sets are forward-only and read-only (TYPE_FORWARD_ONLY,"
              + " CONCUR_READ_ONLY)");
    }
  }
}
