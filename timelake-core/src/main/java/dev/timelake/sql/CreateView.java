package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.engine.SqlLexer.Token;
import java.util.List;
import java.util.Optional;

/**
 * {@code CREATE [OR REPLACE] [TEMP|TEMPORARY] VIEW [IF NOT EXISTS] name AS <query>}, read from its
 * tokens: the query is kept as the user wrote it.
 */
record CreateView(
    TableName name,
    String simpleName,
    boolean qualified,
    boolean orReplace,
    boolean temporary,
    boolean ifNotExists,
    String query) {

  /** The statement, if {@code sql} (lexed as {@code tokens}) is a CREATE VIEW; else empty. */
  static Optional<CreateView> parse(String sql, List<Token> tokens) {
    int at = 0;
    if (tokens.size() < 5 || !tokens.get(at++).is("CREATE")) {
      return Optional.empty();
    }
    boolean orReplace = false;
    if (tokens.get(at).is("OR") && tokens.get(at + 1).is("REPLACE")) {
      orReplace = true;
      at += 2;
    }
    boolean temporary = false;
    if (tokens.get(at).is("TEMP") || tokens.get(at).is("TEMPORARY")) {
      temporary = true;
      at++;
    }
    if (at >= tokens.size() || !tokens.get(at++).is("VIEW")) {
      return Optional.empty();
    }
    boolean ifNotExists = TokenNames.isIfNotExists(tokens, at);
    if (ifNotExists) {
      at += 3;
    }
    int nameEnd = TokenNames.tableNameEnd(tokens, at);
    if (nameEnd < 0 || nameEnd + 1 >= tokens.size() || !tokens.get(nameEnd).is("AS")) {
      return Optional.empty();
    }
    boolean qualified = nameEnd - at == 3;
    String simpleName = TokenNames.name(tokens.get(nameEnd - 1));
    String query = sql.substring(tokens.get(nameEnd + 1).start()).trim();
    return Optional.of(
        new CreateView(
            TokenNames.tableName(tokens, at, nameEnd),
            simpleName,
            qualified,
            orReplace,
            temporary,
            ifNotExists,
            query));
  }
}
