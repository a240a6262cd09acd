package dev.timelake.engine;

import dev.timelake.TableName;
import java.util.Locale;
import java.util.Optional;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;

/** Reads table and column names from the syntax tree, removing SQL quotes. */
public final class SyntaxNames {
  private SyntaxNames() {}

  /** The Timelake name of a table node: {@code ns.t}, or {@code t} in namespace default. */
  public static TableName tableName(Table table) {
    String name = unquote(table.getName());
    String schema = table.getSchemaName();
    return schema == null
        ? new TableName(TableName.DEFAULT_NAMESPACE, name)
        : new TableName(unquote(schema), name);
  }

  /**
   * The column a bare name refers to. JSqlParser 5.4 parses {@code day}, {@code hour} and the other
   * date units as {@link DateUnitExpression} wherever they stand, while DuckDB reads them as column
   * or alias names ({@code GROUP BY tag, day}); both are columns here.
   */
  public static Optional<Column> column(Expression expression) {
    if (expression instanceof Column column) {
      return Optional.of(column);
    }
    if (expression instanceof DateUnitExpression unit) {
      return Optional.of(new Column(unit.toString().toLowerCase(Locale.ROOT)));
    }
    return Optional.empty();
  }

  /**
   * Removes surrounding double quotes or backticks (or the single quotes DuckDB also accepts around
   * an alias) and undoubles inner quotes.
   */
  public static String unquote(String identifier) {
    if (identifier == null || identifier.length() < 2) {
      return identifier;
    }
    char first = identifier.charAt(0);
    char last = identifier.charAt(identifier.length() - 1);
    if ((first == '"' && last == '"') || (first == '`' && last == '`')) {
      return identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"");
    }
    if (first == '\'' && last == '\'') {
      return identifier.substring(1, identifier.length() - 1).replace("''", "'");
    }
    return identifier;
  }
}
