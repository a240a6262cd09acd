package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.util.List;

/** Names and parentheses in a statement's tokens: {@code t}, {@code ns.t}, {@code "Ns"."T"}. */
final class TokenNames {
  private TokenNames() {}

  /**
   * The index after the table name starting at {@code at} ({@code name} or {@code ns . name}), or
   * -1 when no name starts there.
   */
  static int tableNameEnd(List<Token> tokens, int at) {
    if (at >= tokens.size() || !isIdentifier(tokens.get(at))) {
      return -1;
    }
    if (at + 2 < tokens.size()
        && tokens.get(at + 1).text().equals(".")
        && isIdentifier(tokens.get(at + 2))) {
      return at + 3;
    }
    return at + 1;
  }

  /** The table the tokens from {@code at} to {@code end} ({@link #tableNameEnd}) name. */
  static TableName tableName(List<Token> tokens, int at, int end) {
    return end - at == 1
        ? TableName.parse(name(tokens.get(at)))
        : new TableName(name(tokens.get(at)), name(tokens.get(at + 2)));
  }

  /** True for a word or a quoted identifier. */
  static boolean isIdentifier(Token token) {
    return token.kind() == Kind.WORD || token.kind() == Kind.QUOTED_IDENTIFIER;
  }

  /** A word as written (DuckDB keeps the case of names), a quoted identifier without quotes. */
  static String name(Token token) {
    return token.kind() == Kind.WORD ? token.text() : token.value();
  }

  /** The index of the parenthesis closing the one at {@code open}, or -1 when there is none. */
  static int closingParenthesis(List<Token> tokens, int open) {
    if (open >= tokens.size() || !tokens.get(open).text().equals("(")) {
      return -1;
    }
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      String text = tokens.get(i).text();
      if (text.equals("(")) {
        depth++;
      } else if (text.equals(")") && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** True when the tokens at {@code at} are {@code IF NOT EXISTS}. */
  static boolean isIfNotExists(List<Token> tokens, int at) {
    return at + 2 < tokens.size()
        && tokens.get(at).is("IF")
        && tokens.get(at + 1).is("NOT")
        && tokens.get(at + 2).is("EXISTS");
  }
}
