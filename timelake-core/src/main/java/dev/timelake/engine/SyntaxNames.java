package dev.timelake.engine;

import dev.timelake.TableName;
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

  /** Removes surrounding double quotes or backticks and undoubles inner quotes. */
  public static String unquote(String identifier) {
    if (identifier == null || identifier.length() < 2) {
      return identifier;
    }
    char first = identifier.charAt(0);
    char last = identifier.charAt(identifier.length() - 1);
    if ((first == '"' && last == '"') || (first == '`' && last == '`')) {
      return identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"");
    }
    return identifier;
  }
}
