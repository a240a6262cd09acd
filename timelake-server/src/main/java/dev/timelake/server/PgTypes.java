package dev.timelake.server;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.HexFormat;
import java.util.Locale;

/**
 * DuckDB's types as PostgreSQL type OIDs, and values in PostgreSQL's text format (what psql,
 * drivers and Grafana parse): {@code t}/{@code f}, {@code 2026-01-01 10:00:00.5+00}, {@code \x…}
 * for bytes, {@code {1,2}} for lists. Types PostgreSQL lacks (lists, structs, maps) are sent as
 * text.
 */
final class PgTypes {
  static final int BOOL = 16;
  static final int BYTEA = 17;
  static final int INT8 = 20;
  static final int INT2 = 21;
  static final int INT4 = 23;
  static final int TEXT = 25;
  static final int FLOAT4 = 700;
  static final int FLOAT8 = 701;
  static final int VARCHAR = 1043;
  static final int DATE = 1082;
  static final int TIME = 1083;
  static final int TIMESTAMP = 1114;
  static final int TIMESTAMPTZ = 1184;
  static final int INTERVAL = 1186;
  static final int NUMERIC = 1700;
  static final int UUID = 2950;

  /** PostgreSQL's epoch of binary dates and timestamps. */
  static final java.time.Instant EPOCH_2000 = java.time.Instant.parse("2000-01-01T00:00:00Z");

  private static final long EPOCH_2000_DAYS = EPOCH_2000.getEpochSecond() / 86_400;
  private static final long EPOCH_2000_MICROS = EPOCH_2000.getEpochSecond() * 1_000_000L;

  private static final DateTimeFormatter LOCAL_TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  private static final DateTimeFormatter DATE_TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd ")
          .append(LOCAL_TIME)
          .toFormatter(Locale.ROOT);

  private PgTypes() {}

  /** The OID of a column of DuckDB type {@code type} (as its JDBC metadata names it). */
  static int oid(String type) {
    String t = type.toUpperCase(Locale.ROOT);
    if (t.startsWith("DECIMAL")
        || t.equals("HUGEINT")
        || t.equals("UHUGEINT")
        || t.equals("UBIGINT")) {
      return NUMERIC;
    }
    return switch (t) {
      case "BOOLEAN" -> BOOL;
      case "TINYINT", "SMALLINT", "UTINYINT" -> INT2;
      case "INTEGER", "USMALLINT" -> INT4;
      case "BIGINT", "UINTEGER" -> INT8;
      case "FLOAT" -> FLOAT4;
      case "DOUBLE" -> FLOAT8;
      case "VARCHAR" -> VARCHAR;
      case "DATE" -> DATE;
      case "TIME" -> TIME;
      case "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS" -> TIMESTAMP;
      case "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ" -> TIMESTAMPTZ;
      case "INTERVAL" -> INTERVAL;
      case "UUID" -> UUID;
      case "BLOB" -> BYTEA;
      default -> TEXT;
    };
  }

  /** The fixed size of a type's values, -1 for variable ones. */
  static int size(int oid) {
    return switch (oid) {
      case BOOL -> 1;
      case INT2 -> 2;
      case INT4, FLOAT4, DATE -> 4;
      case INT8, FLOAT8, TIME, TIMESTAMP, TIMESTAMPTZ -> 8;
      case UUID -> 16;
      default -> -1;
    };
  }

  /** A value in PostgreSQL's text format, as UTF-8; null for SQL NULL. */
  static byte[] text(Object value, int oid) {
    return text(value, oid, ZoneOffset.UTC);
  }

  /**
   * A value in PostgreSQL's text format with instants shown in {@code zone} (the session's
   * TimeZone, as PostgreSQL shows them: {@code 2026-03-29 00:00:00+01}); null for SQL NULL.
   */
  static byte[] text(Object value, int oid, java.time.ZoneId zone) {
    if (value == null) {
      return null;
    }
    return format(value, oid, zone).getBytes(StandardCharsets.UTF_8);
  }

  /** A value in PostgreSQL's text format, instants shown in {@code zone}; null for SQL NULL. */
  static String textOf(Object value, int oid, java.time.ZoneId zone) {
    return value == null ? null : format(value, oid, zone);
  }

  /**
   * A value in PostgreSQL's binary format for the types clients ask that of (integers, floats,
   * booleans, text, dates and timestamps); null for SQL NULL.
   *
   * @throws IllegalArgumentException for another type
   */
  static byte[] binary(Object value, int oid) {
    if (value == null) {
      return null;
    }
    java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(8);
    switch (oid) {
      case BOOL -> buffer.put((byte) (Boolean.TRUE.equals(value) ? 1 : 0));
      case INT2 -> buffer.putShort(((Number) value).shortValue());
      case INT4 -> buffer.putInt(((Number) value).intValue());
      case INT8 -> buffer.putLong(((Number) value).longValue());
      case FLOAT4 -> buffer.putFloat(((Number) value).floatValue());
      case FLOAT8 -> buffer.putDouble(((Number) value).doubleValue());
      case DATE -> buffer.putInt((int) (localDate(value).toEpochDay() - EPOCH_2000_DAYS));
      case TIMESTAMP, TIMESTAMPTZ -> buffer.putLong(micros(value) - EPOCH_2000_MICROS);
      case TEXT, VARCHAR -> {
        return format(value, oid).getBytes(StandardCharsets.UTF_8);
      }
      default ->
          throw new IllegalArgumentException(
              "Binary results of type OID " + oid + " are not supported; ask for text");
    }
    byte[] bytes = new byte[buffer.position()];
    buffer.flip().get(bytes);
    return bytes;
  }

  /**
   * An instant in {@code zone}: its local date and time and its offset, {@code +01}, {@code
   * +05:30}.
   */
  private static String instant(java.time.Instant instant, java.time.ZoneId zone) {
    java.time.ZonedDateTime local = instant.atZone(zone);
    int seconds = local.getOffset().getTotalSeconds();
    int absolute = Math.abs(seconds);
    StringBuilder offset = new StringBuilder(seconds < 0 ? "-" : "+");
    offset.append(String.format(Locale.ROOT, "%02d", absolute / 3600));
    if (absolute % 3600 != 0) {
      offset.append(String.format(Locale.ROOT, ":%02d", absolute % 3600 / 60));
    }
    if (absolute % 60 != 0) {
      offset.append(String.format(Locale.ROOT, ":%02d", absolute % 60));
    }
    return DATE_TIME.format(local) + offset;
  }

  private static LocalDate localDate(Object value) {
    return value instanceof java.sql.Date date ? date.toLocalDate() : (LocalDate) value;
  }

  private static long micros(Object value) {
    java.time.Instant instant =
        value instanceof OffsetDateTime time
            ? time.toInstant()
            : value instanceof LocalDateTime time
                ? time.toInstant(ZoneOffset.UTC)
                : value instanceof java.sql.Timestamp timestamp
                    ? timestamp.toLocalDateTime().toInstant(ZoneOffset.UTC)
                    : (java.time.Instant) value;
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private static String format(Object value, int oid) {
    return format(value, oid, ZoneOffset.UTC);
  }

  private static String format(Object value, int oid, java.time.ZoneId zone) {
    if (value instanceof Boolean flag) {
      return flag ? "t" : "f";
    }
    if (value instanceof Double d) {
      return floating(d);
    }
    if (value instanceof Float f) {
      return floating(f.doubleValue());
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof OffsetDateTime time) {
      return instant(time.toInstant(), zone);
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      return oid == TIMESTAMPTZ
          ? instant(timestamp.toInstant(), zone)
          : DATE_TIME.format(timestamp.toLocalDateTime());
    }
    if (value instanceof LocalDateTime time) {
      return DATE_TIME.format(time);
    }
    if (value instanceof LocalDate date) {
      return date.toString();
    }
    if (value instanceof java.sql.Date date) {
      return date.toLocalDate().toString();
    }
    if (value instanceof LocalTime time) {
      return LOCAL_TIME.format(time);
    }
    if (value instanceof java.sql.Time time) {
      return LOCAL_TIME.format(time.toLocalTime());
    }
    if (value instanceof byte[] bytes) {
      return "\\x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof java.sql.Array list) {
      return array(list);
    }
    if (value instanceof java.sql.Struct struct) {
      return record(struct);
    }
    if (value instanceof java.sql.Blob blob) {
      try {
        return "\\x" + HexFormat.of().formatHex(blob.getBytes(1, (int) blob.length()));
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException("Cannot read a BLOB value: " + e.getMessage(), e);
      }
    }
    return value.toString();
  }

  /**
   * A list as PostgreSQL writes an array: {@code {1,2}}, {@code {"a b",NULL}}, nested lists nested;
   * an element is quoted (quotes and backslashes escaped) when it is empty, NULL as text, or holds
   * braces, quotes, commas, backslashes or white space.
   */
  private static String array(java.sql.Array list) {
    Object[] elements;
    try {
      elements = (Object[]) list.getArray();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("Cannot read a LIST value: " + e.getMessage(), e);
    }
    StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < elements.length; i++) {
      text.append(i == 0 ? "" : ",");
      Object element = elements[i];
      if (element == null) {
        text.append("NULL");
      } else if (element instanceof java.sql.Array inner) {
        text.append(array(inner));
      } else {
        text.append(arrayElement(format(element, TEXT)));
      }
    }
    return text.append('}').toString();
  }

  /**
   * A STRUCT as PostgreSQL writes a record: {@code (52.5,13.4)}, a NULL field empty, a field quoted
   * (quotes and backslashes doubled) when it is empty or holds parentheses, commas, quotes,
   * backslashes or white space.
   */
  private static String record(java.sql.Struct struct) {
    Object[] fields;
    try {
      fields = struct.getAttributes();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("Cannot read a STRUCT value: " + e.getMessage(), e);
    }
    StringBuilder text = new StringBuilder("(");
    for (int i = 0; i < fields.length; i++) {
      text.append(i == 0 ? "" : ",");
      if (fields[i] != null) {
        String field = format(fields[i], TEXT);
        boolean quoted =
            field.isEmpty()
                || field
                    .chars()
                    .anyMatch(c -> "(),\"\\".indexOf(c) >= 0 || Character.isWhitespace(c));
        text.append(quoted ? '"' + field.replace("\\", "\\\\").replace("\"", "\"\"") + '"' : field);
      }
    }
    return text.append(')').toString();
  }

  private static String arrayElement(String value) {
    boolean quoted =
        value.isEmpty()
            || value.equalsIgnoreCase("NULL")
            || value.chars().anyMatch(c -> "{}\",\\".indexOf(c) >= 0 || Character.isWhitespace(c));
    return quoted ? '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"' : value;
  }

  private static String floating(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    return Double.toString(value);
  }
}
