package dev.timelake.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into statements at semicolons outside string literals ({@code '…'}), quoted
 * identifiers ({@code "…"}) and comments (line comments after {@code --}, block comments). Pieces
 * holding only whitespace and comments are dropped.
 */
public final class StatementSplitter {
  private final List<String> statements = new ArrayList<>();
  private boolean pendingCode;
  private boolean insideLiteralOrComment;

  private StatementSplitter(String text) {
    scan(text);
  }

  /** Every statement of {@code text}, trimmed, without the semicolon; the last may lack one. */
  public static List<String> statements(String text) {
    StatementSplitter splitter = new StatementSplitter(text);
    return splitter.statements;
  }

  /**
   * True when {@code text} holds at least one statement and every statement ends with a semicolon
   * (only whitespace and comments follow the last one): the shell can run it.
   */
  public static boolean isComplete(String text) {
    StatementSplitter splitter = new StatementSplitter(text);
    return !splitter.pendingCode
        && !splitter.insideLiteralOrComment
        && !splitter.statements.isEmpty();
  }

  private void scan(String text) {
    int start = 0;
    int i = 0;
    int length = text.length();
    boolean code = false;
    while (i < length) {
      char c = text.charAt(i);
      char next = i + 1 < length ? text.charAt(i + 1) : '\0';
      if (c == '\'' || c == '"') {
        int end = text.indexOf(c, i + 1);
        // A doubled quote inside a literal is an escaped quote: keep scanning past it.
        while (end >= 0 && end + 1 < length && text.charAt(end + 1) == c) {
          end = text.indexOf(c, end + 2);
        }
        code = true;
        if (end < 0) {
          insideLiteralOrComment = true;
          break;
        }
        i = end + 1;
      } else if (c == '-' && next == '-') {
        int end = text.indexOf('\n', i);
        i = end < 0 ? length : end + 1;
      } else if (c == '/' && next == '*') {
        int end = text.indexOf("*/", i + 2);
        if (end < 0) {
          insideLiteralOrComment = true;
          break;
        }
        i = end + 2;
      } else if (c == ';') {
        if (code) {
          statements.add(text.substring(start, i).strip());
        }
        code = false;
        start = ++i;
      } else {
        code |= !Character.isWhitespace(c);
        i++;
      }
    }
    if (code) {
      statements.add(text.substring(start).strip());
      pendingCode = true;
    }
  }
}
