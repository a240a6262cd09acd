package dev.timelake.sql;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.table.TableOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;

/**
 * Turns a parsed {@code CREATE TABLE ns.t (col type [NOT NULL], …) WITH (key = 'value', …)} into a
 * {@link TableDefinition}. WITH keys are settings of level create or table.
 */
final class DdlParser {
  private static final Pattern WITH_CLAUSE = Pattern.compile("(?is)^\\s*WITH\\s*\\((.*)\\)\\s*$");

  private DdlParser() {}

  static TableDefinition definition(CreateTable create) {
    TableName name = SyntaxNames.tableName(create.getTable());
    TableDefinition.Builder builder = TableDefinition.builder(name);
    if (create.getColumnDefinitions() == null || create.getColumnDefinitions().isEmpty()) {
      throw TimelakeException.validation(
          "Cannot create %s: list its columns, e.g. CREATE TABLE %s (device VARCHAR, time"
              + " TIMESTAMPTZ, value DOUBLE) WITH (time_column = 'time', series_key = 'device')",
          name, name);
    }
    for (ColumnDefinition column : create.getColumnDefinitions()) {
      builder.column(column(column));
    }
    List<String> options = create.getTableOptionsStrings();
    if (options != null && !options.isEmpty()) {
      parseOptions(name, String.join(" ", options), builder);
    }
    return builder.build();
  }

  /**
   * The definition of a table created from a query: its result's {@code columns}, and the options
   * of {@code withClause} ({@code WITH (key = 'value', …)}, or empty for none).
   */
  static TableDefinition definition(TableName name, List<Column> columns, String withClause) {
    TableDefinition.Builder builder = TableDefinition.builder(name);
    columns.forEach(builder::column);
    if (!withClause.isBlank()) {
      parseOptions(name, withClause, builder);
    }
    return builder.build();
  }

  /** The type DuckDB names {@code typeName} (a query's result column) as a table column's type. */
  static Column resultColumn(TableName table, String column, String typeName) {
    try {
      return Column.nullable(column, ColumnType.parse(typeName));
    } catch (IllegalArgumentException | TimelakeException e) {
      throw TimelakeException.validation(
          "Cannot create %s from the query: its column '%s' is of type %s, which a lake table does"
              + " not store; CAST it in the query (%s)",
          table, column, typeName, e.getMessage());
    }
  }

  /**
   * The columns an {@code ALTER TABLE … ADD [COLUMN] name TYPE} statement adds.
   *
   * @throws dev.timelake.ValidationException for any other change (Timelake changes a schema only
   *     by adding nullable columns; settings change with {@code timelake alter … --set})
   */
  static List<Column> addedColumns(TableName name, net.sf.jsqlparser.statement.alter.Alter alter) {
    List<Column> columns = new ArrayList<>();
    for (net.sf.jsqlparser.statement.alter.AlterExpression expression :
        alter.getAlterExpressions()) {
      if (expression.getOperation() != net.sf.jsqlparser.statement.alter.AlterOperation.ADD
          || expression.getColDataTypeList() == null
          || expression.getColDataTypeList().isEmpty()) {
        throw TimelakeException.validation(
            "Cannot alter %s: supported: ADD COLUMN name TYPE, RENAME COLUMN a TO b, DROP COLUMN c"
                + " and RENAME TO t2 (one change a statement), not %s (settings change with"
                + " timelake alter %s --set key=value)",
            name, expression, name);
      }
      for (var definition : expression.getColDataTypeList()) {
        String column = SyntaxNames.unquote(definition.getColumnName());
        List<String> specs = definition.getColumnSpecs();
        String joined = specs == null ? "" : String.join(" ", specs).toUpperCase(Locale.ROOT);
        Column parsed;
        try {
          parsed = Column.nullable(column, typeOf(definition.getColDataType()));
        } catch (IllegalArgumentException e) {
          throw TimelakeException.validation(
              "Cannot add column '%s' to %s: %s", column, name, e.getMessage());
        }
        columns.add(joined.contains("NOT NULL") ? parsed.asRequired() : parsed);
      }
    }
    return columns;
  }

  private static Column column(ColumnDefinition definition) {
    String name = SyntaxNames.unquote(definition.getColumnName());
    ColumnType type;
    try {
      type = typeOf(definition.getColDataType());
    } catch (dev.timelake.ValidationException e) {
      throw TimelakeException.validation("Column '%s': %s", name, e.getMessage());
    }
    Column column = Column.nullable(name, type);
    List<String> specs = definition.getColumnSpecs();
    String joined = specs == null ? "" : String.join(" ", specs).toUpperCase(Locale.ROOT);
    return joined.contains("NOT NULL") ? column.asRequired() : column;
  }

  /**
   * The type as written, nested lists ({@code INTEGER[]}, {@code VARCHAR[][]}), structs and {@code
   * BIGINT UNSIGNED} included; a fixed-size array ({@code INTEGER[3]}) is refused by name, never
   * stored as something else.
   */
  private static ColumnType typeOf(net.sf.jsqlparser.statement.create.table.ColDataType type) {
    List<Integer> dimensions = type.getArrayData();
    if (dimensions != null && dimensions.stream().anyMatch(java.util.Objects::nonNull)) {
      throw TimelakeException.validation(
          "fixed-size arrays such as %s are not supported; use a list, %s",
          type, type.toString().replaceAll("\\[\\d+\\]", "[]"));
    }
    return ColumnType.parse(type.toString().replaceAll("\\s+\\(", "("));
  }

  private static void parseOptions(TableName name, String text, TableDefinition.Builder builder) {
    Matcher clause = WITH_CLAUSE.matcher(text);
    if (!clause.matches()) {
      throw TimelakeException.validation(
          "Cannot create %s: unexpected table options '%s' (expected WITH (key = 'value', …))",
          name, text);
    }
    try {
      TableOptions.parse(clause.group(1)).forEach(builder::option);
    } catch (IllegalArgumentException e) {
      throw TimelakeException.validation(
          "Cannot create %s: cannot read table option '%s' (expected key = 'value')",
          name, e.getMessage());
    }
  }
}
