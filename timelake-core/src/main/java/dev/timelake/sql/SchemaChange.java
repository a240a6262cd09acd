package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.engine.SqlLexer.Token;
import java.util.List;
import java.util.Optional;

/**
 * {@code ALTER TABLE t RENAME [COLUMN] a TO b}, {@code ALTER TABLE t DROP [COLUMN] a} and {@code
 * ALTER TABLE t RENAME TO t2}, read from the statement's tokens: column names such as {@code time}
 * or {@code value} are keywords to the SQL parser, not to DuckDB or PostgreSQL.
 */
record SchemaChange(Operation operation, TableName table, String name, String newName) {
  enum Operation {
    RENAME_COLUMN,
    DROP_COLUMN,
    RENAME_TABLE
  }

  /** The change the tokens ask for, if it is one of the three forms; empty otherwise. */
  static Optional<SchemaChange> parse(List<Token> tokens) {
    if (tokens.size() < 5 || !tokens.get(0).is("ALTER") || !tokens.get(1).is("TABLE")) {
      return Optional.empty();
    }
    int nameEnd = TokenNames.tableNameEnd(tokens, 2);
    if (nameEnd < 0) {
      return Optional.empty();
    }
    TableName table = TokenNames.tableName(tokens, 2, nameEnd);
    List<Token> rest = tokens.subList(nameEnd, tokens.size());
    if (rest.isEmpty()) {
      return Optional.empty();
    }
    if (rest.get(0).is("RENAME")) {
      if (rest.size() == 3 && rest.get(1).is("TO") && TokenNames.isIdentifier(rest.get(2))) {
        return Optional.of(
            new SchemaChange(
                Operation.RENAME_TABLE, table, table.name(), TokenNames.name(rest.get(2))));
      }
      int column = rest.size() > 1 && rest.get(1).is("COLUMN") ? 2 : 1;
      if (rest.size() == column + 3
          && TokenNames.isIdentifier(rest.get(column))
          && rest.get(column + 1).is("TO")
          && TokenNames.isIdentifier(rest.get(column + 2))) {
        return Optional.of(
            new SchemaChange(
                Operation.RENAME_COLUMN,
                table,
                TokenNames.name(rest.get(column)),
                TokenNames.name(rest.get(column + 2))));
      }
    } else if (rest.get(0).is("DROP")) {
      int column = rest.size() > 1 && rest.get(1).is("COLUMN") ? 2 : 1;
      if (rest.size() == column + 1 && TokenNames.isIdentifier(rest.get(column))) {
        return Optional.of(
            new SchemaChange(Operation.DROP_COLUMN, table, TokenNames.name(rest.get(column)), ""));
      }
    }
    return Optional.empty();
  }
}
