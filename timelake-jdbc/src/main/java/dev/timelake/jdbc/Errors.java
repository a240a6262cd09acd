package dev.timelake.jdbc;

import dev.timelake.NotFoundException;
import dev.timelake.TimelakeException;
import dev.timelake.ValidationException;
import java.sql.SQLException;

/** Timelake's exceptions as JDBC's, with the message and an SQLSTATE class that fits. */
final class Errors {
  private Errors() {}

  static SQLException of(TimelakeException e) {
    String state =
        e instanceof NotFoundException
            ? "42P01"
            : e instanceof ValidationException ? "22023" : "XX000";
    return new SQLException(e.getMessage(), state, e);
  }
}
