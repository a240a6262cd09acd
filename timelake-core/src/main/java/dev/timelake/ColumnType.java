package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL type of a table column, spelled as in DuckDB. Every type maps to one Iceberg type, so
 * tables stay readable by other engines. {@code STRUCT(name TYPE, …)} and {@code TYPE[]} nest any
 * types (a rollup's stored states are such values); their fields and elements may be null.
 *
 * @param fields the fields of a STRUCT, in order; empty for other kinds
 * @param element the element type of a LIST, null for other kinds
 */
public record ColumnType(
    Kind kind, int precision, int scale, List<Field> fields, ColumnType element) {
  /** A named field of a STRUCT type. */
  public record Field(String name, ColumnType type) {
    public Field {
      requireNonNull(name, "name is null");
      requireNonNull(type, "type is null");
    }
  }

  /**
   * The supported kinds. Iceberg has no unsigned type: a {@code UBIGINT} column is declared as such
   * and stored as {@code DECIMAL(20,0)} (every value fits), which is the type a table's contract
   * and its readers see; the table records it in {@code timelake.unsigned-columns}.
   */
  public enum Kind {
    BOOLEAN("BOOLEAN"),
    INTEGER("INTEGER"),
    BIGINT("BIGINT"),
    UBIGINT("UBIGINT"),
    FLOAT("FLOAT"),
    DOUBLE("DOUBLE"),
    DECIMAL("DECIMAL"),
    VARCHAR("VARCHAR"),
    DATE("DATE"),
    TIMESTAMP("TIMESTAMP"),
    TIMESTAMPTZ("TIMESTAMPTZ"),
    BLOB("BLOB"),
    STRUCT("STRUCT"),
    LIST("LIST");

    private final String sql;

    Kind(String sql) {
      this.sql = sql;
    }
  }

  public static final ColumnType BOOLEAN = of(Kind.BOOLEAN);
  public static final ColumnType INTEGER = of(Kind.INTEGER);
  public static final ColumnType BIGINT = of(Kind.BIGINT);

  /** An unsigned 64-bit integer column, stored as {@link #UNSIGNED_STORAGE}. */
  public static final ColumnType UBIGINT = of(Kind.UBIGINT);

  public static final ColumnType FLOAT = of(Kind.FLOAT);
  public static final ColumnType DOUBLE = of(Kind.DOUBLE);
  public static final ColumnType VARCHAR = of(Kind.VARCHAR);
  public static final ColumnType DATE = of(Kind.DATE);
  public static final ColumnType TIMESTAMP = of(Kind.TIMESTAMP);
  public static final ColumnType TIMESTAMPTZ = of(Kind.TIMESTAMPTZ);
  public static final ColumnType BLOB = of(Kind.BLOB);

  /** How a UBIGINT column is stored: every unsigned 64-bit value fits, losslessly. */
  public static final ColumnType UNSIGNED_STORAGE = decimal(20, 0);

  private static final Pattern TEXT_PATTERN =
      Pattern.compile(
          "(?:VARCHAR|CHAR|CHARACTER|CHARACTER VARYING|BPCHAR|TEXT|STRING)(?:\\s*\\(\\s*\\d+\\s*\\))?");

  private static final Pattern DECIMAL_PATTERN =
      Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

  public ColumnType {
    requireNonNull(kind, "kind is null");
    fields = List.copyOf(fields);
    if ((kind == Kind.STRUCT) == fields.isEmpty() || (kind == Kind.LIST) == (element == null)) {
      throw TimelakeException.validation(
          "Invalid type %s: a STRUCT needs fields and a LIST an element type, no other kind has"
              + " either",
          kind);
    }
    if (kind == Kind.DECIMAL
        && (precision < 1 || precision > 38 || scale < 0 || scale > precision)) {
      throw TimelakeException.validation(
          "Invalid type DECIMAL(%d,%d): precision must be 1..38 and scale 0..precision",
          precision, scale);
    }
  }

  /** A type of {@code kind} with a precision and scale (DECIMAL) or neither. */
  public ColumnType(Kind kind, int precision, int scale) {
    this(kind, precision, scale, List.of(), null);
  }

  private static ColumnType of(Kind kind) {
    return new ColumnType(kind, 0, 0);
  }

  /** A decimal type with the given precision and scale. */
  public static ColumnType decimal(int precision, int scale) {
    return new ColumnType(Kind.DECIMAL, precision, scale);
  }

  /** {@code STRUCT(fields…)}. */
  public static ColumnType struct(List<Field> fields) {
    return new ColumnType(Kind.STRUCT, 0, 0, fields, null);
  }

  /** {@code element[]}. */
  public static ColumnType list(ColumnType element) {
    return new ColumnType(Kind.LIST, 0, 0, List.of(), requireNonNull(element, "element is null"));
  }

  /** True for STRUCT and LIST. */
  public boolean isNested() {
    return kind == Kind.STRUCT || kind == Kind.LIST;
  }

  /**
   * Parses a DuckDB type name such as {@code VARCHAR}, {@code TIMESTAMP WITH TIME ZONE}, {@code
   * DOUBLE} or {@code DECIMAL(18,3)}.
   */
  public static ColumnType parse(String text) {
    requireNonNull(text, "text is null");
    String trimmed = text.trim();
    if (trimmed.endsWith("[]")) {
      return list(parse(trimmed.substring(0, trimmed.length() - 2)));
    }
    if (trimmed.regionMatches(true, 0, "STRUCT", 0, 6)
        && trimmed.substring(6).trim().startsWith("(")
        && trimmed.endsWith(")")) {
      String body = trimmed.substring(trimmed.indexOf('(') + 1, trimmed.length() - 1);
      List<Field> fields = new ArrayList<>();
      for (String part : splitTopLevel(body, text)) {
        fields.add(field(part.trim(), text));
      }
      return struct(fields);
    }
    String normalized = trimmed.replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
    if (TEXT_PATTERN.matcher(normalized).matches()) {
      return VARCHAR; // a length is a PostgreSQL habit; DuckDB and Iceberg strings have none
    }
    Matcher decimal = DECIMAL_PATTERN.matcher(normalized);
    if (decimal.matches()) {
      int scale = decimal.group(2) == null ? 0 : Integer.parseInt(decimal.group(2));
      return decimal(Integer.parseInt(decimal.group(1)), scale);
    }
    return switch (normalized) {
      case "BOOLEAN", "BOOL", "LOGICAL" -> BOOLEAN;
      case "INTEGER", "INT", "INT4", "INT32", "SIGNED" -> INTEGER;
      case "BIGINT", "INT8", "INT64", "LONG" -> BIGINT;
      case "UBIGINT", "UINT64", "BIGINT UNSIGNED" -> UBIGINT;
      case "FLOAT", "REAL", "FLOAT4" -> FLOAT;
      case "DOUBLE", "FLOAT8", "DOUBLE PRECISION" -> DOUBLE;
      case "DECIMAL", "NUMERIC" -> decimal(18, 3);
      case "VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR" -> VARCHAR;
      case "DATE" -> DATE;
      case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE" -> TIMESTAMP;
      case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE" -> TIMESTAMPTZ;
      case "BLOB", "BYTEA", "BINARY", "VARBINARY" -> BLOB;
      default ->
          throw TimelakeException.validation(
              "Unsupported column type '%s' (expected one of BOOLEAN, INTEGER, BIGINT, UBIGINT, FLOAT,"
                  + " DOUBLE,"
                  + " DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP, TIMESTAMPTZ, BLOB, STRUCT(name TYPE,"
                  + " …) or TYPE[])",
              text);
    };
  }

  /** The DuckDB spelling of this type; field names are always quoted. */
  public String sql() {
    return switch (kind) {
      case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
      case LIST -> element.sql() + "[]";
      case STRUCT -> {
        List<String> parts = new ArrayList<>();
        for (Field field : fields) {
          parts.add("\"" + field.name().replace("\"", "\"\"") + "\" " + field.type().sql());
        }
        yield "STRUCT(" + String.join(", ", parts) + ")";
      }
      default -> kind.sql;
    };
  }

  /** {@code name TYPE}, the name bare or double-quoted. */
  private static Field field(String text, String whole) {
    String name;
    String rest;
    if (text.startsWith("\"")) {
      int end = 1;
      StringBuilder unquoted = new StringBuilder();
      while (end < text.length()) {
        char c = text.charAt(end);
        if (c == '"' && end + 1 < text.length() && text.charAt(end + 1) == '"') {
          unquoted.append('"');
          end += 2;
        } else if (c == '"') {
          break;
        } else {
          unquoted.append(c);
          end++;
        }
      }
      name = unquoted.toString();
      rest = end + 1 <= text.length() ? text.substring(end + 1) : "";
    } else {
      int space = text.indexOf(' ');
      name = space < 0 ? text : text.substring(0, space);
      rest = space < 0 ? "" : text.substring(space);
    }
    if (name.isEmpty() || rest.isBlank()) {
      throw TimelakeException.validation(
          "Unsupported column type '%s': a STRUCT field is written 'name TYPE', not '%s'",
          whole, text);
    }
    return new Field(name, parse(rest));
  }

  /** Splits at commas outside parentheses and double quotes. */
  private static List<String> splitTopLevel(String body, String whole) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')') {
        depth--;
      } else if (!quoted && depth == 0 && c == ',') {
        parts.add(body.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(body.substring(start));
    if (depth != 0 || quoted || parts.stream().anyMatch(String::isBlank)) {
      throw TimelakeException.validation("Unsupported column type '%s': unbalanced STRUCT", whole);
    }
    return parts;
  }

  @Override
  public String toString() {
    return sql();
  }
}
