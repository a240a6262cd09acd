package dev.timelake.write;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Aligns an input's columns to a table's schema: matches names, allows only lossless widening
 * (integers into a DOUBLE or FLOAT column when every value is exact there, checked row by row;
 * timestamps without time zone into TIMESTAMPTZ as UTC), fills missing nullable columns with null
 * and the insertion time with the append's start. The result is a SELECT list; nothing is read or
 * written here.
 */
final class SchemaAlignment {
  private static final Map<ColumnType.Kind, Set<String>> WIDENINGS =
      Map.of(
          ColumnType.Kind.INTEGER, Set.of("TINYINT", "SMALLINT"),
          ColumnType.Kind.BIGINT, Set.of("TINYINT", "SMALLINT", "INTEGER"),
          ColumnType.Kind.DOUBLE, Set.of("FLOAT", "TINYINT", "SMALLINT", "INTEGER"),
          ColumnType.Kind.FLOAT, Set.of("TINYINT", "SMALLINT"),
          ColumnType.Kind.TIMESTAMPTZ,
              Set.of("TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"),
          ColumnType.Kind.TIMESTAMP, Set.of("TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"));

  /**
   * Integers that go into a floating-point column only when every value is exact there (checked row
   * by row): a DOUBLE holds every integer up to 2^53 in magnitude, a FLOAT up to 2^24.
   */
  private static final Map<ColumnType.Kind, Set<String>> EXACT_INTEGERS =
      Map.of(
          ColumnType.Kind.DOUBLE, Set.of("BIGINT"),
          ColumnType.Kind.FLOAT, Set.of("INTEGER", "BIGINT"));

  /** Integers that may count time units since the epoch (what --time-format converts). */
  static final Set<String> EPOCH_INPUTS = Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT");

  /** Signed numbers (unsigned ones are refused: Iceberg has no unsigned type). */
  private static final Set<String> NUMERIC_INPUTS =
      Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "FLOAT", "DOUBLE", "DECIMAL");

  private static final Set<ColumnType.Kind> NUMERIC_COLUMNS =
      Set.of(
          ColumnType.Kind.INTEGER,
          ColumnType.Kind.BIGINT,
          ColumnType.Kind.FLOAT,
          ColumnType.Kind.DOUBLE,
          ColumnType.Kind.DECIMAL);

  /** The inputs an unsigned (UBIGINT) column takes as they are. */
  private static final Set<String> UNSIGNED_INPUTS =
      Set.of("UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT");

  private SchemaAlignment() {}

  /**
   * The input columns going into UBIGINT columns, whose values must lie in 0 … 2^64 − 1 (any
   * integer of a SQL statement or a Java row may arrive here; the stored type, DECIMAL(20,0), holds
   * more).
   */
  static List<InputColumn> unsignedInputs(
      TableContract contract, List<InputColumn> input, AppendSource.Casting casting) {
    List<InputColumn> unsigned = new ArrayList<>();
    if (casting == AppendSource.Casting.INTERNAL) {
      return unsigned;
    }
    for (InputColumn source : input) {
      for (Column column : contract.columns()) {
        if (column.name().equalsIgnoreCase(source.name()) && contract.isUnsigned(column.name())) {
          unsigned.add(source);
        }
      }
    }
    return unsigned;
  }

  /**
   * The SELECT list that turns the input into the table's columns, in table order.
   *
   * @param ingestMicros the append's start, for an insertion-time column the input lacks
   */
  static String selectList(
      TableContract contract,
      List<InputColumn> input,
      String sourceName,
      long ingestMicros,
      AppendSource.Casting casting) {
    Map<String, InputColumn> byName = new HashMap<>();
    for (InputColumn column : input) {
      if (byName.put(column.name().toLowerCase(Locale.ROOT), column) != null) {
        throw rejected(contract, "column '%s' appears twice in %s", column.name(), sourceName);
      }
    }
    Set<String> known = new java.util.HashSet<>();
    contract.columnNames().forEach(name -> known.add(name.toLowerCase(Locale.ROOT)));
    for (InputColumn column : input) {
      if (!known.contains(column.name().toLowerCase(Locale.ROOT))) {
        throw rejected(
            contract,
            "%s has column '%s', which the table does not have (columns: %s)",
            sourceName,
            column.name(),
            String.join(", ", contract.columnNames()));
      }
    }
    List<String> select = new ArrayList<>();
    Optional<String> ingest = contract.ingestTimeColumn();
    for (Column column : contract.columns()) {
      InputColumn source = byName.get(column.name().toLowerCase(Locale.ROOT));
      String target = SqlText.identifier(column.name());
      boolean isIngest = ingest.isPresent() && ingest.get().equals(column.name());
      if (source == null && isIngest) {
        select.add(ingestLiteral(ingestMicros) + " AS " + target);
      } else if (source == null && column.isNullable()) {
        select.add("CAST(NULL AS " + column.type().sql() + ") AS " + target);
      } else if (source == null) {
        throw rejected(
            contract, "required column '%s' is missing from %s", column.name(), sourceName);
      } else {
        String value =
            casting == AppendSource.Casting.LITERALS || casting == AppendSource.Casting.INTERNAL
                ? "CAST(" + SqlText.identifier(source.name()) + " AS " + column.type().sql() + ")"
                : converted(contract, column, source, sourceName, casting);
        select.add(
            (isIngest ? "coalesce(" + value + ", " + ingestLiteral(ingestMicros) + ")" : value)
                + " AS "
                + target);
      }
    }
    return String.join(", ", select);
  }

  static String ingestLiteral(long micros) {
    return "make_timestamptz(CAST(" + micros + " AS BIGINT))";
  }

  /**
   * The input columns whose numbers must be checked before an assignment cast: a number going into
   * a numeric column of another type that is not a lossless widening (BIGINT into INTEGER, DOUBLE
   * into INTEGER, DECIMAL into DOUBLE, …). Each row's value must survive the cast unchanged.
   */
  static List<Narrowing> narrowings(
      TableContract contract, List<InputColumn> input, AppendSource.Casting casting) {
    List<Narrowing> narrowings = new ArrayList<>();
    if (casting == AppendSource.Casting.INTERNAL) {
      return narrowings;
    }
    boolean assignment = casting != AppendSource.Casting.LOSSLESS;
    for (InputColumn source : input) {
      for (Column column : contract.columns()) {
        if (column.name().equalsIgnoreCase(source.name())
            && ((assignment && isNarrowing(column, source))
                || isExactInteger(column, source)
                || losesNanoseconds(column, source))) {
          narrowings.add(
              new Narrowing(
                  column,
                  source,
                  !(assignment && isNarrowing(column, source)) && isExactInteger(column, source)));
        }
      }
    }
    return narrowings;
  }

  /**
   * A number cast into a numeric column that may not hold it unchanged; {@code integerFromFile}
   * when it is a file's integer going into a floating-point column (no cast was asked for).
   */
  record Narrowing(Column column, InputColumn source, boolean integerFromFile) {
    /** The input's type, as DuckDB spells it. */
    String inputType() {
      return normalize(source.duckdbType());
    }
  }

  /** An integer into a floating-point column that may not hold every value of its type exactly. */
  private static boolean isExactInteger(Column column, InputColumn source) {
    return EXACT_INTEGERS
        .getOrDefault(column.type().kind(), Set.of())
        .contains(normalize(source.duckdbType()));
  }

  /** True when {@code column} is a timestamp column the input fills with integers. */
  static boolean isIntegerTime(Column column, InputColumn source) {
    return EPOCH_INPUTS.contains(normalize(source.duckdbType()))
        && (column.type().kind() == ColumnType.Kind.TIMESTAMPTZ
            || column.type().kind() == ColumnType.Kind.TIMESTAMP);
  }

  /**
   * Nanosecond timestamps go into µs columns only when no row has digits below the µs: no value may
   * lose precision silently.
   */
  private static boolean losesNanoseconds(Column column, InputColumn source) {
    return normalize(source.duckdbType()).equals("TIMESTAMP_NS")
        && (column.type().kind() == ColumnType.Kind.TIMESTAMPTZ
            || column.type().kind() == ColumnType.Kind.TIMESTAMP);
  }

  /**
   * A table with an index granularity takes its index in ms, µs or ns, never in seconds (seed 003:
   * no timestamps in seconds, no timestamps from integers).
   */
  private static void requireIndexType(
      TableContract contract, Column column, InputColumn source, String sourceName) {
    if (contract.hasIndexGranularity()
        && contract.timeColumn().filter(column.name()::equals).isPresent()
        && normalize(source.duckdbType()).equals("TIMESTAMP_S")) {
      throw rejected(
          contract,
          "index column '%s' is TIMESTAMP_S (seconds) in %s; an ordered index takes timestamps in"
              + " ms, µs or ns (TIMESTAMP_MS, TIMESTAMP, TIMESTAMPTZ, TIMESTAMP_NS)",
          column.name(),
          sourceName);
    }
  }

  private static boolean isNarrowing(Column column, InputColumn source) {
    String inputType = normalize(source.duckdbType());
    return NUMERIC_INPUTS.contains(baseType(inputType))
        && NUMERIC_COLUMNS.contains(column.type().kind())
        && !inputType.equals(column.type().sql())
        && !WIDENINGS.getOrDefault(column.type().kind(), Set.of()).contains(inputType);
  }

  private static String baseType(String type) {
    int parenthesis = type.indexOf('(');
    return parenthesis < 0 ? type : type.substring(0, parenthesis);
  }

  private static String converted(
      TableContract contract,
      Column column,
      InputColumn source,
      String sourceName,
      AppendSource.Casting casting) {
    String reference = SqlText.identifier(source.name());
    requireIndexType(contract, column, source, sourceName);
    if (contract.isUnsigned(column.name())) {
      return unsigned(contract, column, source, sourceName, casting);
    }
    if (column.type().isNested() && sameType(source, column)) {
      return reference;
    }
    String inputType = normalize(source.duckdbType());
    String tableType = column.type().sql();
    if (inputType.equals(tableType) || inputType.equals("\"NULL\"") || inputType.equals("NULL")) {
      return inputType.equals(tableType)
          ? reference
          : "CAST(" + reference + " AS " + tableType + ")";
    }
    if (WIDENINGS.getOrDefault(column.type().kind(), Set.of()).contains(inputType)
        || isExactInteger(column, source)
        || (casting == AppendSource.Casting.ASSIGNMENT && isNarrowing(column, source))) {
      return "CAST(" + reference + " AS " + tableType + ")";
    }
    if (isIntegerTime(column, source)) {
      throw rejected(
          contract,
          "column '%s' is %s in %s but %s in the table; say what the integers count (timelake"
              + " import --time-format epoch-s|epoch-ms|epoch-us|epoch-ns for the time column,"
              + " Append.timeFromEpoch in Java) or convert them, e.g. to_timestamp(seconds)",
          column.name(),
          source.duckdbType(),
          sourceName,
          tableType);
    }
    throw rejected(
        contract,
        "column '%s' is %s in %s but %s in the table (only lossless widening is allowed, e.g."
            + " INTEGER to BIGINT or FLOAT to DOUBLE; cast the input)",
        column.name(),
        source.duckdbType(),
        sourceName,
        tableType);
  }

  /**
   * An input into a UBIGINT column: unsigned integers, and decimals of scale 0 (the stored type,
   * and Java rows, which arrive in it); from SQL statements any integer. Its values are checked to
   * fit (see {@link #unsignedInputs}); signed input from files is refused (seed 003: no
   * signed/unsigned conversion).
   */
  private static String unsigned(
      TableContract contract,
      Column column,
      InputColumn source,
      String sourceName,
      AppendSource.Casting casting) {
    String inputType = normalize(source.duckdbType());
    boolean integral =
        UNSIGNED_INPUTS.contains(inputType)
            || inputType.matches("DECIMAL\\(\\d+,0\\)")
            || inputType.equals("NULL")
            || inputType.equals("\"NULL\"")
            || (casting == AppendSource.Casting.ASSIGNMENT
                && Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT")
                    .contains(inputType));
    if (!integral) {
      throw rejected(
          contract,
          "column '%s' is UBIGINT in the table (stored as %s) but %s in %s; it takes UTINYINT,"
              + " USMALLINT, UINTEGER or UBIGINT (no signed/unsigned conversion: cast the input to"
              + " UBIGINT)",
          column.name(),
          column.type().sql(),
          source.duckdbType(),
          sourceName);
    }
    return "CAST(" + SqlText.identifier(source.name()) + " AS " + column.type().sql() + ")";
  }

  /** True when the input's type, spelled as DuckDB does, is the column's (nested types). */
  private static boolean sameType(InputColumn source, Column column) {
    try {
      return ColumnType.parse(source.duckdbType()).equals(column.type());
    } catch (TimelakeException e) {
      return false;
    }
  }

  private static String normalize(String duckdbType) {
    String upper = duckdbType.trim().toUpperCase(Locale.ROOT);
    return switch (upper) {
      case "TIMESTAMP WITH TIME ZONE" -> "TIMESTAMPTZ";
      case "TIMESTAMP_US" -> "TIMESTAMP";
      case "DECIMAL" -> "DECIMAL(18,3)";
      default -> upper.replace(", ", ",");
    };
  }

  static TimelakeException rejected(TableContract contract, String format, Object... args) {
    return TimelakeException.validation(
        "Cannot append to %s: %s", contract.name(), String.format(format, args));
  }
}
