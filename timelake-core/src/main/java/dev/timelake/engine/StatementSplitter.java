package dev.timelake.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into statements at semicolons outside strings, quoted identifiers and comments,
 * as {@link SqlLexer} reads them. Pieces holding only whitespace and comments are dropped.
 */
public final class StatementSplitter {
  private StatementSplitter() {}

  /** Every statement of {@code text}, trimmed, without the semicolon; the last may lack one. */
  public static List<String> statements(String text) {
    List<String> statements = new ArrayList<>();
    int start = 0;
    boolean code = false;
    for (SqlLexer.Token token : SqlLexer.tokens(text).tokens()) {
      if (token.kind() == SqlLexer.Kind.SEMICOLON) {
        if (code) {
          statements.add(text.substring(start, token.start()).strip());
        }
        code = false;
        start = token.end();
      } else {
        code = true;
      }
    }
    if (code) {
      statements.add(text.substring(start).strip());
    }
    return statements;
  }

  /**
   * True when {@code text} holds at least one statement and every statement ends with a semicolon
   * (only whitespace and comments follow the last one): the shell can run it.
   */
  public static boolean isComplete(String text) {
    SqlLexer.Tokens lexed = SqlLexer.tokens(text);
    List<SqlLexer.Token> tokens = lexed.tokens();
    return !lexed.unterminated()
        && !tokens.isEmpty()
        && tokens.get(tokens.size() - 1).kind() == SqlLexer.Kind.SEMICOLON
        && !statements(text).isEmpty();
  }
}
