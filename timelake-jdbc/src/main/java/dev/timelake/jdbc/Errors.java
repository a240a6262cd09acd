package dev.timelake.jdbc;

import dev.timelake.TimelakeException;
import java.sql.SQLException;

/** Timelake's exceptions as JDBC's, with the message and the SQLSTATE Timelake gives them. */
final class Errors {
  private Errors() {}

  static SQLException of(TimelakeException e) {
    return new SQLException(e.getMessage(), e.sqlState(), e);
  }
}
