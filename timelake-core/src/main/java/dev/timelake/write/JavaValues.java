package dev.timelake.write;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/** Converts Java row values to what DuckDB's JDBC driver binds. */
final class JavaValues {
  private JavaValues() {}

  static Object toJdbc(Object value) {
    if (value instanceof Instant instant) {
      return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
    if (value instanceof ZonedDateTime zoned) {
      return zoned.toOffsetDateTime();
    }
    if (value instanceof Timestamp timestamp) {
      return OffsetDateTime.ofInstant(timestamp.toInstant(), ZoneOffset.UTC);
    }
    return value;
  }
}
