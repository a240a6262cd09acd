package dev.timelake.cli;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.SQLException;
import java.sql.Struct;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the CLI spells the values a query returns. Timestamps with time zone print as ISO-8601
 * instants in UTC ({@code 2026-01-01T10:00:00Z}, fractional seconds kept when present), or with
 * their offset when the session's TimeZone moved them ({@code 2026-03-01T00:00:00+01:00});
 * timestamps without time zone as ISO local date-times; decimals without exponent; lists as {@code
 * [a, b]}.
 */
final class Values {
  private Values() {}

  /** The text of a non-null value. */
  static String text(Object value) {
    Object plain = plain(value);
    if (plain instanceof List<?> list) {
      List<String> items = new ArrayList<>(list.size());
      for (Object item : list) {
        items.add(item == null ? "NULL" : text(item));
      }
      return "[" + String.join(", ", items) + "]";
    }
    return String.valueOf(plain);
  }

  /** Appends {@code value} as a JSON value: numbers and booleans bare, null, else a string. */
  static void appendJson(StringBuilder json, Object value) {
    Object plain = value == null ? null : plain(value);
    if (plain == null) {
      json.append("null");
    } else if (value instanceof BigDecimal) {
      json.append(plain);
    } else if (plain instanceof Boolean || isFiniteNumber(plain)) {
      json.append(plain);
    } else if (plain instanceof List<?> list) {
      json.append('[');
      for (int i = 0; i < list.size(); i++) {
        json.append(i == 0 ? "" : ",");
        appendJson(json, list.get(i));
      }
      json.append(']');
    } else {
      appendJsonString(json, String.valueOf(plain));
    }
  }

  private static boolean isFiniteNumber(Object value) {
    if (value instanceof Double d) {
      return Double.isFinite(d);
    }
    if (value instanceof Float f) {
      return Float.isFinite(f);
    }
    return value instanceof Number;
  }

  /** Appends a JSON string literal with the escapes RFC 8259 requires. */
  static void appendJsonString(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        case '\b' -> json.append("\\b");
        case '\f' -> json.append("\\f");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }

  /**
   * The value as a string, number, boolean or list: temporal values become their ISO text, JDBC
   * arrays become lists, decimals plain text.
   */
  private static Object plain(Object value) {
    if (value instanceof OffsetDateTime time) {
      return time.getOffset().getTotalSeconds() == 0
          ? DateTimeFormatter.ISO_INSTANT.format(time.toInstant())
          : DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(time);
    } else if (value instanceof ZonedDateTime time) {
      return DateTimeFormatter.ISO_INSTANT.format(time.toInstant());
    } else if (value instanceof Instant time) {
      return DateTimeFormatter.ISO_INSTANT.format(time);
    } else if (value instanceof java.sql.Timestamp time) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(time.toLocalDateTime());
    } else if (value instanceof LocalDateTime time) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(time);
    } else if (value instanceof java.sql.Date date) {
      return date.toLocalDate().toString();
    } else if (value instanceof java.sql.Time time) {
      return DateTimeFormatter.ISO_LOCAL_TIME.format(time.toLocalTime());
    } else if (value instanceof LocalTime time) {
      return DateTimeFormatter.ISO_LOCAL_TIME.format(time);
    } else if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    } else if (value instanceof byte[] bytes) {
      return hex(bytes);
    } else if (value instanceof Blob blob) {
      return hex(blobBytes(blob));
    } else if (value instanceof Array array) {
      return arrayItems(array);
    } else if (value instanceof Struct struct) {
      return structText(struct);
    } else if (value instanceof Map<?, ?> map) {
      return map.toString();
    }
    return value;
  }

  private static String hex(byte[] bytes) {
    StringBuilder text = new StringBuilder(bytes.length * 4);
    for (byte b : bytes) {
      text.append(String.format("\\x%02X", b & 0xff));
    }
    return text.toString();
  }

  private static byte[] blobBytes(Blob blob) {
    try {
      return blob.getBytes(1, (int) blob.length());
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot read a BLOB value: " + e.getMessage(), e);
    }
  }

  private static List<Object> arrayItems(Array array) {
    try {
      return java.util.Arrays.asList((Object[]) array.getArray());
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot read a LIST value: " + e.getMessage(), e);
    }
  }

  private static String structText(Struct struct) {
    try {
      List<String> items = new ArrayList<>();
      for (Object item : struct.getAttributes()) {
        items.add(item == null ? "NULL" : text(item));
      }
      return "(" + String.join(", ", items) + ")";
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot read a STRUCT value: " + e.getMessage(), e);
    }
  }
}
