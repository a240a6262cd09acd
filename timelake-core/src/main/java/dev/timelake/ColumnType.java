package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL type of a table column, spelled as in DuckDB. Every type maps to one Iceberg type, so
 * tables stay readable by other engines.
 */
public record ColumnType(Kind kind, int precision, int scale) {
  /** The supported kinds; unsigned integers have no Iceberg counterpart and are rejected. */
  public enum Kind {
    BOOLEAN("BOOLEAN"),
    INTEGER("INTEGER"),
    BIGINT("BIGINT"),
    FLOAT("FLOAT"),
    DOUBLE("DOUBLE"),
    DECIMAL("DECIMAL"),
    VARCHAR("VARCHAR"),
    DATE("DATE"),
    TIMESTAMP("TIMESTAMP"),
    TIMESTAMPTZ("TIMESTAMPTZ"),
    BLOB("BLOB");

    private final String sql;

    Kind(String sql) {
      this.sql = sql;
    }
  }

  public static final ColumnType BOOLEAN = of(Kind.BOOLEAN);
  public static final ColumnType INTEGER = of(Kind.INTEGER);
  public static final ColumnType BIGINT = of(Kind.BIGINT);
  public static final ColumnType FLOAT = of(Kind.FLOAT);
  public static final ColumnType DOUBLE = of(Kind.DOUBLE);
  public static final ColumnType VARCHAR = of(Kind.VARCHAR);
  public static final ColumnType DATE = of(Kind.DATE);
  public static final ColumnType TIMESTAMP = of(Kind.TIMESTAMP);
  public static final ColumnType TIMESTAMPTZ = of(Kind.TIMESTAMPTZ);
  public static final ColumnType BLOB = of(Kind.BLOB);

  private static final Pattern DECIMAL_PATTERN =
      Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

  public ColumnType {
    requireNonNull(kind, "kind is null");
    if (kind == Kind.DECIMAL
        && (precision < 1 || precision > 38 || scale < 0 || scale > precision)) {
      throw TimelakeException.validation(
          "Invalid type DECIMAL(%d,%d): precision must be 1..38 and scale 0..precision",
          precision, scale);
    }
  }

  private static ColumnType of(Kind kind) {
    return new ColumnType(kind, 0, 0);
  }

  /** A decimal type with the given precision and scale. */
  public static ColumnType decimal(int precision, int scale) {
    return new ColumnType(Kind.DECIMAL, precision, scale);
  }

  /**
   * Parses a DuckDB type name such as {@code VARCHAR}, {@code TIMESTAMP WITH TIME ZONE}, {@code
   * DOUBLE} or {@code DECIMAL(18,3)}.
   */
  public static ColumnType parse(String text) {
    requireNonNull(text, "text is null");
    String normalized = text.trim().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
    Matcher decimal = DECIMAL_PATTERN.matcher(normalized);
    if (decimal.matches()) {
      int scale = decimal.group(2) == null ? 0 : Integer.parseInt(decimal.group(2));
      return decimal(Integer.parseInt(decimal.group(1)), scale);
    }
    return switch (normalized) {
      case "BOOLEAN", "BOOL", "LOGICAL" -> BOOLEAN;
      case "INTEGER", "INT", "INT4", "INT32", "SIGNED" -> INTEGER;
      case "BIGINT", "INT8", "INT64", "LONG" -> BIGINT;
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
              "Unsupported column type '%s' (expected one of BOOLEAN, INTEGER, BIGINT, FLOAT, DOUBLE,"
                  + " DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP, TIMESTAMPTZ, BLOB)",
              text);
    };
  }

  /** The DuckDB spelling of this type. */
  public String sql() {
    return kind == Kind.DECIMAL ? "DECIMAL(" + precision + "," + scale + ")" : kind.sql;
  }

  @Override
  public String toString() {
    return sql();
  }
}
