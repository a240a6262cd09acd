package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.engine.SqlLexer.Token;
import java.util.List;
import java.util.Optional;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] ns.t [WITH (key = 'value', …)] AS <query>}, read from its
 * tokens: the query is kept as the user wrote it (DuckDB spellings such as {@code //} included) and
 * the WITH clause as its text for the table options.
 */
record CreateTableAs(TableName name, boolean ifNotExists, String options, String query) {

  /** The statement, if {@code sql} (lexed as {@code tokens}) is a CREATE TABLE … AS; else empty. */
  static Optional<CreateTableAs> parse(String sql, List<Token> tokens) {
    if (tokens.size() < 5 || !tokens.get(0).is("CREATE") || !tokens.get(1).is("TABLE")) {
      return Optional.empty();
    }
    int at = 2;
    boolean ifNotExists = TokenNames.isIfNotExists(tokens, at);
    if (ifNotExists) {
      at += 3;
    }
    int nameEnd = TokenNames.tableNameEnd(tokens, at);
    if (nameEnd < 0 || nameEnd >= tokens.size()) {
      return Optional.empty();
    }
    TableName name = TokenNames.tableName(tokens, at, nameEnd);
    int next = nameEnd;
    String options = "";
    if (tokens.get(next).is("WITH")) {
      int close = TokenNames.closingParenthesis(tokens, next + 1);
      if (close < 0) {
        return Optional.empty();
      }
      options = sql.substring(tokens.get(next).start(), tokens.get(close).end());
      next = close + 1;
    }
    if (next + 1 >= tokens.size() || !tokens.get(next).is("AS")) {
      return Optional.empty();
    }
    String query = sql.substring(tokens.get(next + 1).start()).trim();
    return Optional.of(new CreateTableAs(name, ifNotExists, options, query));
  }
}
