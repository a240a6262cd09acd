package dev.timelake.jdbc;

import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlText;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Parameters of a prepared statement as SQL literals, through the project's one quoting helper: the
 * {@code ?} placeholders (outside string literals, quoted identifiers and comments) are found once,
 * and each execution places the literals of its values there. Timelake plans every statement from
 * its text, so parameters become literals rather than bound values.
 */
final class SqlParameters {
  private final List<String> pieces;

  private SqlParameters(List<String> pieces) {
    this.pieces = pieces;
  }

  /** The {@code ?} placeholders of {@code sql} outside literals, quoted names and comments. */
  static SqlParameters of(String sql) {
    List<String> pieces = new ArrayList<>();
    int at = 0;
    for (SqlLexer.Token token : SqlLexer.tokens(sql).tokens()) {
      if (token.kind() == SqlLexer.Kind.SYMBOL && token.text().equals("?")) {
        pieces.add(sql.substring(at, token.start()));
        at = token.end();
      }
    }
    pieces.add(sql.substring(at));
    return new SqlParameters(pieces);
  }

  /** How many placeholders there are. */
  int count() {
    return pieces.size() - 1;
  }

  /**
   * The statement with {@code literals} (by parameter number, from 1) in place of the placeholders.
   *
   * @throws SQLException naming the first parameter that is not set
   */
  String render(Map<Integer, String> literals) throws SQLException {
    StringBuilder sql = new StringBuilder(pieces.get(0));
    for (int p = 1; p < pieces.size(); p++) {
      String literal = literals.get(p);
      if (literal == null) {
        throw new SQLException(
            "Parameter " + p + " of " + count() + " is not set (call a set method for it)",
            "07001");
      }
      sql.append(literal).append(pieces.get(p));
    }
    return sql.toString();
  }

  /** The SQL literal of a parameter value; {@code NULL} for null. */
  static String literal(Object value) throws SQLException {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof String text) {
      return SqlText.literal(text);
    }
    if (value instanceof Boolean flag) {
      return flag ? "TRUE" : "FALSE";
    }
    if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
      return value.toString();
    }
    if (value instanceof Long || value instanceof BigInteger) {
      return value.toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof Float f) {
      return floating(f.doubleValue(), "FLOAT");
    }
    if (value instanceof Double d) {
      return floating(d, "DOUBLE");
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      return SqlText.literal(timestamp.toLocalDateTime().toString(), "TIMESTAMP");
    }
    if (value instanceof java.sql.Date date) {
      return SqlText.literal(date.toLocalDate().toString(), "DATE");
    }
    if (value instanceof java.sql.Time time) {
      return SqlText.literal(time.toLocalTime().toString(), "TIME");
    }
    if (value instanceof Instant instant) {
      return SqlText.literal(
          OffsetDateTime.ofInstant(instant, ZoneOffset.UTC).toString(), "TIMESTAMPTZ");
    }
    if (value instanceof OffsetDateTime time) {
      return SqlText.literal(time.toString(), "TIMESTAMPTZ");
    }
    if (value instanceof ZonedDateTime time) {
      return SqlText.literal(time.toOffsetDateTime().toString(), "TIMESTAMPTZ");
    }
    if (value instanceof LocalDateTime time) {
      return SqlText.literal(time.toString(), "TIMESTAMP");
    }
    if (value instanceof LocalDate date) {
      return SqlText.literal(date.toString(), "DATE");
    }
    if (value instanceof LocalTime time) {
      return SqlText.literal(time.toString(), "TIME");
    }
    if (value instanceof UUID uuid) {
      return SqlText.literal(uuid.toString(), "UUID");
    }
    throw new SQLFeatureNotSupportedException(
        "Parameters of type "
            + value.getClass().getName()
            + " are not supported (strings, numbers, booleans, dates, times, timestamps, UUIDs"
            + " and null are)");
  }

  /** Typed, so that 0.1 is the double the caller holds, not a DECIMAL. */
  private static String floating(double value, String type) {
    String text =
        Double.isFinite(value)
            ? Double.toString(value)
            : Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    return SqlText.literal(text, type);
  }
}
