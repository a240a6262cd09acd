package dev.timelake.sql;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.table.TableContract;
import dev.timelake.write.HeldColumns;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.statement.select.Values;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows of an {@code INSERT … VALUES} of constants as an Arrow batch in the table's column
 * types, converted in Java — or nothing, whenever a value is not one whose conversion is certain to
 * be DuckDB's (a string in a format not read here, a number that would be rounded, a local time in
 * a clock change, a type not handled, a NULL in a required column). Nothing means "let the INSERT
 * take its usual path", which stages the rows in DuckDB and gives its verdict and errors; so this
 * never accepts what that path refuses, and never gives another value than it would. What a driver
 * sends for one-row inserts (pgjdbc's bound parameters: strings, numbers, {@code CAST('…' AS
 * DOUBLE)}) is read here, without a statement to the engine.
 */
final class ConstantRows {
  private static final long MAX_EXACT_DOUBLE = 1L << 53;

  /**
   * A decimal numeral DuckDB reads as DECIMAL (no exponent): with at most 15 digits in all, its
   * unscaled value is exact as a double, so DuckDB's DECIMAL to DOUBLE (a division of two exact
   * doubles) and Java's parse both give the nearest double.
   */
  private static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]*)?|\\.[0-9]+");

  private static final int MAX_DECIMAL_DIGITS = 15;

  /** A number in a string: what DuckDB's cast reads as it is, with no spaces around it. */
  private static final Pattern NUMBER_TEXT =
      Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]{1,3})?");

  private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?[0-9]{1,19}");

  /** A date, a time of day and an offset, as PostgreSQL clients write instants. */
  private static final Pattern TIMESTAMP_TEXT =
      Pattern.compile(
          "([0-9]{4})-([0-9]{2})-([0-9]{2})"
              + "(?:[ T]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]{1,6}))?)?)?"
              + "(Z|[+-][0-9]{2}(?::[0-9]{2})?)?");

  private ConstantRows() {}

  /**
   * {@code values}' rows for {@code columns} of {@code table} (the INSERT's column list; empty for
   * the table's columns in order, less its insertion time), as a batch holding those columns and
   * the insertion-time column (left unset); instants without an offset are local times of {@code
   * zone} (converted here only when the zone is a fixed offset such as UTC). Empty when the rows
   * are not certain to convert as DuckDB converts them.
   */
  static Optional<VectorSchemaRoot> of(
      TableContract table,
      List<String> columns,
      Values values,
      ZoneId zone,
      BufferAllocator allocator) {
    Optional<List<Column>> targets = HeldColumns.of(table, columns);
    Optional<List<List<Object>>> rows = rows(values);
    if (targets.isEmpty() || rows.isEmpty()) {
      return Optional.empty();
    }
    if (rows.get().size() > 1 && !sameKindPerColumn(rows.get())) {
      return Optional.empty();
    }
    List<List<Object>> converted = new ArrayList<>();
    for (List<Object> row : rows.get()) {
      if (row.size() != targets.get().size()) {
        return Optional.empty();
      }
      List<Object> values2 = new ArrayList<>(row.size());
      for (int i = 0; i < row.size(); i++) {
        Column column = targets.get().get(i);
        Optional<Object> value = convert(row.get(i), column.type(), zone);
        if (value.isEmpty() || (value.get() == NULL && !column.isNullable())) {
          return Optional.empty();
        }
        values2.add(value.get() == NULL ? null : value.get());
      }
      converted.add(values2);
    }
    for (Column column : table.columns()) {
      boolean filled = targets.get().contains(column);
      boolean ingest = table.ingestTimeColumn().map(column.name()::equals).orElse(false);
      if (!filled && !ingest && !column.isNullable()) {
        return Optional.empty(); // a required column the INSERT leaves NULL
      }
    }
    return Optional.of(HeldColumns.batch(table, targets.get(), converted, allocator));
  }

  /**
   * Whether each column's values are of one kind in every row (NULLs aside). DuckDB gives a VALUES
   * list's column one type, combined from its rows' (a string and a TIMESTAMPTZ do not combine; an
   * integer and a fraction become a wider DECIMAL), then casts it; values of one kind keep their
   * own meaning, which is what is converted here.
   */
  private static boolean sameKindPerColumn(List<List<Object>> rows) {
    int width = rows.get(0).size();
    for (int c = 0; c < width; c++) {
      String kind = null;
      for (List<Object> row : rows) {
        if (row.size() != width) {
          return false;
        }
        String own = kind(row.get(c));
        if (own.equals("NULL")) {
          continue;
        }
        if (kind != null && !kind.equals(own)) {
          return false;
        }
        kind = own;
      }
    }
    return true;
  }

  /** A constant's kind as a VALUES column's type is combined: fractions by their scale. */
  private static String kind(Object expression) {
    Object value =
        expression instanceof SignedExpression signed ? signed.getExpression() : expression;
    if (value instanceof NullValue) {
      return "NULL";
    } else if (value instanceof LongValue) {
      return "INTEGER";
    } else if (value instanceof DoubleValue fraction) {
      String text = fraction.toString();
      int point = text.indexOf('.');
      return "DECIMAL " + (point < 0 ? text : text.substring(point + 1).length());
    } else if (value instanceof CastExpression cast && cast.getColDataType() != null) {
      return "CAST " + cast.getColDataType().getDataType().toUpperCase(Locale.ROOT);
    } else if (value instanceof DateTimeLiteralExpression typed) {
      return "TYPED " + typed.getType();
    }
    return value.getClass().getSimpleName(); // StringValue, BooleanValue, …
  }

  /** A NULL, apart from "no certain value". */
  private static final Object NULL = new Object();

  /** The rows of a VALUES list, each a list of its expressions; empty for other shapes. */
  private static Optional<List<List<Object>>> rows(Values values) {
    ExpressionList<?> list = values.getExpressions();
    if (list == null || list.isEmpty()) {
      return Optional.empty();
    }
    List<List<Object>> rows = new ArrayList<>();
    boolean nested = list.stream().anyMatch(e -> e instanceof ExpressionList<?>);
    if (!nested && list instanceof ParenthesedExpressionList<?>) {
      rows.add(new ArrayList<>(list)); // VALUES (a, b): one row
      return Optional.of(rows);
    }
    if (list.size() > HeldColumns.MAX_ROWS) {
      return Optional.empty();
    }
    for (Object row : list) {
      if (!(row instanceof ParenthesedExpressionList<?> values2)) {
        return Optional.empty();
      }
      rows.add(new ArrayList<>(values2));
    }
    return Optional.of(rows);
  }

  /** One constant as a value of {@code type}: a Java value, {@link #NULL}, or empty. */
  static Optional<Object> convert(Object expression, ColumnType type, ZoneId zone) {
    if (expression instanceof NullValue) {
      return Optional.of(NULL);
    }
    if (expression instanceof StringValue text) {
      // A plain '…' string (not E'…' with escapes), its doubled quotes as written.
      return text.getPrefix() == null
          ? fromText(text.getValue().replace("''", "'"), type, zone)
          : Optional.empty();
    }
    if (expression instanceof CastExpression cast) {
      // CAST('…' AS DOUBLE) and '…'::TIMESTAMPTZ, where the cast's type is the column's.
      boolean plainCast =
          cast.isUseCastKeyword() ? "CAST".equalsIgnoreCase(cast.keyword) : cast.keyword == null;
      if (!plainCast || cast.getColDataType() == null) {
        return Optional.empty();
      }
      String castType = cast.getColDataType().getDataType().toUpperCase(Locale.ROOT);
      if (!sameType(castType, type)) {
        return Optional.empty();
      }
      Expression inner = cast.getLeftExpression();
      return inner instanceof NullValue || inner instanceof StringValue
          ? convert(inner, type, zone)
          : Optional.empty();
    }
    if (expression instanceof DateTimeLiteralExpression typed) {
      String literal = typed.getValue();
      if (typed.getType() == null
          || !sameType(typed.getType().name(), type)
          || literal.length() < 2
          || !literal.startsWith("'")
          || !literal.endsWith("'")
          || literal.substring(1, literal.length() - 1).contains("'")) {
        return Optional.empty();
      }
      return fromText(literal.substring(1, literal.length() - 1), type, zone);
    }
    if (expression instanceof BooleanValue bool) {
      return type.kind() == ColumnType.Kind.BOOLEAN
          ? Optional.of(bool.getValue())
          : Optional.empty();
    }
    if (expression instanceof SignedExpression signed) {
      Expression inner = signed.getExpression();
      if (!(inner instanceof LongValue || inner instanceof DoubleValue)) {
        return Optional.empty();
      }
      String sign = signed.getSign() == '-' ? "-" : "";
      return signed.getSign() == '-' || signed.getSign() == '+'
          ? fromNumeral(sign + numeral(inner), type)
          : Optional.empty();
    }
    if (expression instanceof LongValue || expression instanceof DoubleValue) {
      return fromNumeral(numeral((Expression) expression), type);
    }
    return Optional.empty();
  }

  private static String numeral(Expression number) {
    return number instanceof LongValue whole
        ? whole.getStringValue()
        : ((DoubleValue) number).toString();
  }

  /** Whether a cast's type names the column's type (its spelling as DuckDB writes types). */
  private static boolean sameType(String castType, ColumnType type) {
    String name =
        switch (castType) {
          case "FLOAT8", "DOUBLE PRECISION" -> "DOUBLE";
          case "FLOAT4", "REAL" -> "FLOAT";
          case "INT", "INT4", "INTEGER" -> "INTEGER";
          case "INT8", "LONG" -> "BIGINT";
          case "TEXT", "STRING" -> "VARCHAR";
          case "BOOL" -> "BOOLEAN";
          case "TIMESTAMP WITH TIME ZONE" -> "TIMESTAMPTZ";
          default -> castType;
        };
    return name.equals(type.kind().name());
  }

  /** A number written in the statement (DuckDB: an integer, or a DECIMAL for a fraction). */
  private static Optional<Object> fromNumeral(String numeral, ColumnType type) {
    boolean negative = numeral.startsWith("-");
    String digits = negative ? numeral.substring(1) : numeral;
    if (digits.indexOf('.') < 0 && digits.indexOf('e') < 0 && digits.indexOf('E') < 0) {
      return integer(new BigInteger(numeral), type);
    }
    // A fraction: exact only into DOUBLE/FLOAT, where few digits read as Java reads them.
    if (!PLAIN_DECIMAL.matcher(digits).matches()
        || digits.chars().filter(Character::isDigit).count() > MAX_DECIMAL_DIGITS) {
      return Optional.empty();
    }
    // A DECIMAL has no negative zero: -0.0 written in a statement is 0.
    return fraction(Double.parseDouble(numeral) + 0.0, type);
  }

  private static Optional<Object> integer(BigInteger value, ColumnType type) {
    return switch (type.kind()) {
      case BIGINT -> value.bitLength() < 64 ? Optional.of(value.longValue()) : Optional.empty();
      case INTEGER -> value.bitLength() < 32 ? Optional.of(value.intValue()) : Optional.empty();
      case DOUBLE ->
          value.abs().compareTo(BigInteger.valueOf(MAX_EXACT_DOUBLE)) <= 0
              ? Optional.of(value.doubleValue())
              : Optional.empty();
      case FLOAT ->
          value.abs().compareTo(BigInteger.valueOf(1L << 24)) <= 0
              ? Optional.of(value.floatValue())
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  private static Optional<Object> fraction(double value, ColumnType type) {
    return switch (type.kind()) {
      case DOUBLE -> Optional.of(value);
      case FLOAT -> (double) (float) value == value ? Optional.of((float) value) : Optional.empty();
      default -> Optional.empty();
    };
  }

  /** A string constant as the column's type, as DuckDB's cast from VARCHAR reads it. */
  private static Optional<Object> fromText(String text, ColumnType type, ZoneId zone) {
    return switch (type.kind()) {
      case VARCHAR -> Optional.of(text);
      case BIGINT, INTEGER ->
          INTEGER_TEXT.matcher(text).matches()
              ? integer(new BigInteger(text), type)
              : Optional.empty();
      case DOUBLE, FLOAT ->
          NUMBER_TEXT.matcher(text).matches()
              ? fraction(Double.parseDouble(text), type)
              : Optional.empty();
      case DATE -> date(text).map(Object.class::cast);
      case TIMESTAMP -> instant(text, Optional.empty()).map(Object.class::cast);
      case TIMESTAMPTZ -> instant(text, Optional.of(zone)).map(Object.class::cast);
      default -> Optional.empty();
    };
  }

  private static Optional<LocalDate> date(String text) {
    Matcher match = TIMESTAMP_TEXT.matcher(text);
    if (!match.matches() || match.group(4) != null || match.group(8) != null) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          LocalDate.of(
              Integer.parseInt(match.group(1)),
              Integer.parseInt(match.group(2)),
              Integer.parseInt(match.group(3))));
    } catch (DateTimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Microseconds since 1970-01-01: of an instant ({@code zone} present: a local time without an
   * offset is one of that zone when the zone is a fixed offset such as UTC), or of a local
   * timestamp read as UTC (zone empty; no offset allowed).
   */
  private static Optional<Long> instant(String text, Optional<ZoneId> zone) {
    Matcher match = TIMESTAMP_TEXT.matcher(text);
    if (!match.matches()) {
      return Optional.empty();
    }
    LocalDateTime local;
    try {
      String fraction = match.group(7) == null ? "" : match.group(7);
      local =
          LocalDateTime.of(
              LocalDate.of(
                  Integer.parseInt(match.group(1)),
                  Integer.parseInt(match.group(2)),
                  Integer.parseInt(match.group(3))),
              match.group(4) == null
                  ? LocalTime.MIDNIGHT
                  : LocalTime.of(
                      Integer.parseInt(match.group(4)),
                      Integer.parseInt(match.group(5)),
                      match.group(6) == null ? 0 : Integer.parseInt(match.group(6)),
                      fraction.isEmpty()
                          ? 0
                          : Integer.parseInt((fraction + "000000").substring(0, 6)) * 1000));
    } catch (DateTimeException e) {
      return Optional.empty();
    }
    String offsetText = match.group(8);
    ZoneOffset offset;
    if (zone.isEmpty()) {
      if (offsetText != null) {
        return Optional.empty();
      }
      offset = ZoneOffset.UTC;
    } else if (offsetText != null) {
      offset = ZoneOffset.of(offsetText.equals("Z") ? "Z" : offsetText);
    } else if (zone.get().getRules().isFixedOffset()) {
      offset = zone.get().getRules().getOffset(java.time.Instant.EPOCH);
    } else {
      // A local time of a zone with rules: Java's time-zone data and DuckDB's (ICU's) can be of
      // different releases, and a zone whose rules changed between them would give another
      // instant; and a clock change may skip or repeat it. DuckDB reads it.
      return Optional.empty();
    }
    return Optional.of(
        ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), local)
            - offset.getTotalSeconds() * 1_000_000L);
  }
}
