package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
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

  /** The change {@code sql} asks for, if it is one of the three forms; empty otherwise. */
  static Optional<SchemaChange> parse(String sql) {
    List<Token> tokens =
        SqlLexer.tokens(sql).tokens().stream().filter(t -> t.kind() != Kind.SEMICOLON).toList();
    if (tokens.size() < 5 || !tokens.get(0).is("ALTER") || !tokens.get(1).is("TABLE")) {
      return Optional.empty();
    }
    int at = 2;
    int nameEnd = at + 1;
    if (tokens.size() > at + 2 && tokens.get(at + 1).text().equals(".")) {
      nameEnd = at + 3;
    }
    if (!tokens.subList(at, nameEnd).stream().allMatch(SchemaChange::isNamePart)) {
      return Optional.empty();
    }
    TableName table = tableName(tokens.subList(at, nameEnd));
    List<Token> rest = tokens.subList(nameEnd, tokens.size());
    if (rest.isEmpty()) {
      return Optional.empty();
    }
    if (rest.get(0).is("RENAME")) {
      if (rest.size() == 3 && rest.get(1).is("TO") && isIdentifier(rest.get(2))) {
        return Optional.of(
            new SchemaChange(Operation.RENAME_TABLE, table, table.name(), name(rest.get(2))));
      }
      int column = rest.size() > 1 && rest.get(1).is("COLUMN") ? 2 : 1;
      if (rest.size() == column + 3
          && isIdentifier(rest.get(column))
          && rest.get(column + 1).is("TO")
          && isIdentifier(rest.get(column + 2))) {
        return Optional.of(
            new SchemaChange(
                Operation.RENAME_COLUMN,
                table,
                name(rest.get(column)),
                name(rest.get(column + 2))));
      }
    } else if (rest.get(0).is("DROP")) {
      int column = rest.size() > 1 && rest.get(1).is("COLUMN") ? 2 : 1;
      if (rest.size() == column + 1 && isIdentifier(rest.get(column))) {
        return Optional.of(
            new SchemaChange(Operation.DROP_COLUMN, table, name(rest.get(column)), ""));
      }
    }
    return Optional.empty();
  }

  private static boolean isNamePart(Token token) {
    return isIdentifier(token) || token.text().equals(".");
  }

  private static boolean isIdentifier(Token token) {
    return token.kind() == Kind.WORD || token.kind() == Kind.QUOTED_IDENTIFIER;
  }

  /** A word as written (DuckDB keeps the case of names), a quoted identifier without quotes. */
  private static String name(Token token) {
    return token.kind() == Kind.WORD ? token.text() : token.value();
  }

  private static TableName tableName(List<Token> parts) {
    return parts.size() == 1
        ? TableName.parse(name(parts.get(0)))
        : new TableName(name(parts.get(0)), name(parts.get(2)));
  }
}
