package dev.timelake.engine;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits SQL text into tokens the way DuckDB's and PostgreSQL's parsers see it: words, quoted
 * identifiers ({@code "…"}, doubled quotes inside), strings ({@code '…'} with doubled quotes,
 * {@code E'…'} with backslash escapes, {@code $tag$…$tag$}), numbers, parameters ({@code $1}), the
 * statement separator and other symbols; whitespace and comments ({@code -- …}, nested {@code /* …
 * *}{@code /}) are skipped. Every decision Timelake takes from SQL text before parsing it (which
 * statement, where statements end) reads these tokens, so that no two places disagree about what is
 * a string or a comment.
 */
public final class SqlLexer {
  /** What a token is. */
  public enum Kind {
    WORD,
    QUOTED_IDENTIFIER,
    STRING,
    NUMBER,
    PARAMETER,
    SEMICOLON,
    SYMBOL,
    /** A run of whitespace; only from {@link #tokensWithSpace}. */
    SPACE,
    /** A comment; only from {@link #tokensWithSpace}. */
    COMMENT
  }

  /**
   * One token: its kind, its text as written (quotes included) and where it lies in the input.
   *
   * @param start index of the first character
   * @param end index after the last character
   */
  public record Token(Kind kind, String text, int start, int end) {
    public Token {
      requireNonNull(kind, "kind is null");
      requireNonNull(text, "text is null");
    }

    /** True for a word equal to {@code keyword}, ignoring case. */
    public boolean is(String keyword) {
      return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    /** A word in upper case, a quoted identifier without its quotes; other tokens as written. */
    public String value() {
      return switch (kind) {
        case WORD -> text.toUpperCase(Locale.ROOT);
        case QUOTED_IDENTIFIER -> text.substring(1, text.length() - 1).replace("\"\"", "\"");
        default -> text;
      };
    }
  }

  /** The tokens of {@code sql}, and whether it ends inside a string, identifier or comment. */
  public record Tokens(List<Token> tokens, boolean unterminated) {
    public Tokens {
      tokens = List.copyOf(tokens);
    }
  }

  private final String sql;
  private final boolean keepSpace;
  private final List<Token> tokens = new ArrayList<>();
  private boolean unterminated;
  private int i;

  private SqlLexer(String sql, boolean keepSpace) {
    this.sql = requireNonNull(sql, "sql is null");
    this.keepSpace = keepSpace;
  }

  /** Every token of {@code sql}. */
  public static Tokens tokens(String sql) {
    SqlLexer lexer = new SqlLexer(sql, false);
    lexer.scan();
    return new Tokens(lexer.tokens, lexer.unterminated);
  }

  /**
   * Every token of {@code sql} and the whitespace and comments between them ({@link Kind#SPACE},
   * {@link Kind#COMMENT}): their texts joined are {@code sql}, for rewrites that keep the rest of
   * the text as it was.
   */
  public static Tokens tokensWithSpace(String sql) {
    SqlLexer lexer = new SqlLexer(sql, true);
    lexer.scan();
    return new Tokens(lexer.tokens, lexer.unterminated);
  }

  private void scan() {
    int length = sql.length();
    while (i < length) {
      char c = sql.charAt(i);
      char next = i + 1 < length ? sql.charAt(i + 1) : '\0';
      int start = i;
      if (Character.isWhitespace(c)) {
        while (i < length && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
        trivia(Kind.SPACE, start);
      } else if (c == '-' && next == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? length : end;
        trivia(Kind.COMMENT, start);
      } else if (c == '/' && next == '*') {
        blockComment();
        trivia(Kind.COMMENT, start);
      } else if ((c == 'E' || c == 'e') && next == '\'') {
        i++;
        quoted('\'', true);
        add(Kind.STRING, start);
      } else if (c == '\'') {
        quoted('\'', false);
        add(Kind.STRING, start);
      } else if (c == '"') {
        quoted('"', false);
        add(Kind.QUOTED_IDENTIFIER, start);
      } else if (c == '$' && Character.isDigit(next)) {
        i++;
        while (i < length && Character.isDigit(sql.charAt(i))) {
          i++;
        }
        add(Kind.PARAMETER, start);
      } else if (c == '$' && dollarQuote()) {
        add(Kind.STRING, start);
      } else if (Character.isLetter(c) || c == '_') {
        while (i < length && isWordPart(sql.charAt(i))) {
          i++;
        }
        add(Kind.WORD, start);
      } else if (Character.isDigit(c) || (c == '.' && Character.isDigit(next))) {
        while (i < length && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
          i++;
        }
        add(Kind.NUMBER, start);
      } else if (c == ';') {
        i++;
        add(Kind.SEMICOLON, start);
      } else {
        i++;
        add(Kind.SYMBOL, start);
      }
    }
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private void trivia(Kind kind, int start) {
    if (keepSpace) {
      add(kind, start);
    }
  }

  private void add(Kind kind, int start) {
    tokens.add(new Token(kind, sql.substring(start, i), start, i));
  }

  /** A quoted run from the quote at {@code i}: doubled quotes, and with escapes backslashes. */
  private void quoted(char quote, boolean backslashEscapes) {
    int length = sql.length();
    i++;
    while (i < length) {
      char c = sql.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
      } else if (c == quote && i + 1 < length && sql.charAt(i + 1) == quote) {
        i += 2;
      } else if (c == quote) {
        i++;
        return;
      } else {
        i++;
      }
    }
    i = length;
    unterminated = true;
  }

  /** Block comments nest, as in PostgreSQL and DuckDB. */
  private void blockComment() {
    int depth = 0;
    int length = sql.length();
    while (i < length) {
      if (sql.startsWith("/*", i)) {
        depth++;
        i += 2;
      } else if (sql.startsWith("*/", i)) {
        depth--;
        i += 2;
        if (depth == 0) {
          return;
        }
      } else {
        i++;
      }
    }
    unterminated = true;
  }

  /** A {@code $tag$…$tag$} string from the {@code $} at {@code i}; false when it is not one. */
  private boolean dollarQuote() {
    int close = sql.indexOf('$', i + 1);
    if (close < 0) {
      return false;
    }
    String tag = sql.substring(i, close + 1);
    for (int k = 1; k < tag.length() - 1; k++) {
      char c = tag.charAt(k);
      if (!(Character.isLetterOrDigit(c) || c == '_') || (k == 1 && Character.isDigit(c))) {
        return false;
      }
    }
    int end = sql.indexOf(tag, close + 1);
    if (end < 0) {
      i = sql.length();
      unterminated = true;
      return true;
    }
    i = end + tag.length();
    return true;
  }
}
