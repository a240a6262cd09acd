package dev.timelake.server;

import dev.timelake.QueryFailedException;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where in the user's statement a failure points, for a client to mark it (the console's editor,
 * psql's {@code LINE 1: …} caret): a 0-based character offset with its 1-based line and column.
 *
 * <p>DuckDB's own pointer is used when the statement it ran is the user's text unchanged; when
 * Timelake rewrote it (the pointer is into the rewrite), the name the message gives — the column,
 * table or function that is unknown, the token a syntax error is near — is looked up in the user's
 * text's tokens (not inside string literals or comments).
 */
record StatementPosition(int offset, int line, int column) {
  /** DuckDB's excerpt of the statement: {@code LINE n: text} and a caret under the place. */
  private static final Pattern EXCERPT = Pattern.compile("\\nLINE (\\d+): ([^\\n]*)\\n( *)\\^");

  /** Messages that name what was not found or not expected, by DuckDB's and Timelake's words. */
  private static final List<Pattern> NAMES =
      List.of(
          Pattern.compile("at or near \"([^\"]+)\""),
          Pattern.compile("[Cc]olumn (?:with name )?\"([^\"]+)\""),
          Pattern.compile("[Ff]unction with name \"?([\\w.]+)\"? does not exist"),
          Pattern.compile("[Tt]able with name \"?([\\w.]+)\"? does not exist"),
          Pattern.compile("^Table ([\\w.]+) does not exist"),
          Pattern.compile("argument types '(\\w+)\\("));

  /** The position {@code failure} points at in {@code sql}, when it can be found. */
  static Optional<StatementPosition> of(String sql, Throwable failure) {
    List<String> messages = messages(failure);
    for (String message : messages) {
      Optional<Integer> offset = fromExcerpt(sql, failure, message);
      if (offset.isPresent()) {
        return Optional.of(at(sql, offset.get()));
      }
    }
    for (String message : messages) {
      Optional<Integer> offset = fromName(sql, message);
      if (offset.isPresent()) {
        return Optional.of(at(sql, offset.get()));
      }
    }
    return Optional.empty();
  }

  /** Offset, line and column, in that order, for a JSON answer. */
  java.util.Map<String, Integer> asMap() {
    java.util.Map<String, Integer> map = new java.util.LinkedHashMap<>();
    map.put("offset", offset);
    map.put("line", line);
    map.put("column", column);
    return map;
  }

  /** {@code sql}'s line and column of {@code offset}. */
  static StatementPosition at(String sql, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      if (sql.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new StatementPosition(offset, line, offset - lineStart + 1);
  }

  private static List<String> messages(Throwable failure) {
    List<String> messages = new ArrayList<>();
    for (Throwable t = failure; t != null && messages.size() < 8; t = t.getCause()) {
      if (t.getMessage() != null) {
        messages.add(t.getMessage());
      }
    }
    return messages;
  }

  /** DuckDB's caret, when the statement it ran is the user's own text. */
  private static Optional<Integer> fromExcerpt(String sql, Throwable failure, String message) {
    boolean ranAsWritten =
        failure instanceof QueryFailedException failed
            && failed.statement().map(ran -> ran.strip().equals(sql.strip())).orElse(false);
    Matcher excerpt = EXCERPT.matcher(message);
    if (!ranAsWritten || !excerpt.find()) {
      return Optional.empty();
    }
    int line = Integer.parseInt(excerpt.group(1));
    String text = excerpt.group(2);
    int caret = excerpt.group(3).length() - ("LINE " + line + ": ").length();
    // DuckDB shortens long lines to a window around the place, marked with "...".
    String shown = text.startsWith("...") ? text.substring(3) : text;
    caret -= text.length() - shown.length();
    if (shown.endsWith("...")) {
      shown = shown.substring(0, shown.length() - 3);
    }
    int lineStart = 0;
    int leading = sql.length() - sql.stripLeading().length();
    String[] lines = sql.substring(leading).split("\n", -1);
    if (line > lines.length || caret < 0) {
      return Optional.empty();
    }
    for (int i = 0; i < line - 1; i++) {
      lineStart += lines[i].length() + 1;
    }
    int within = lines[line - 1].indexOf(shown);
    if (within < 0) {
      return Optional.empty();
    }
    int offset = leading + lineStart + within + caret;
    return offset <= sql.length() ? Optional.of(offset) : Optional.empty();
  }

  /** The first token of {@code sql} that spells the name the message gives. */
  private static Optional<Integer> fromName(String sql, String message) {
    List<Token> tokens = SqlLexer.tokens(sql).tokens();
    for (Pattern pattern : NAMES) {
      Matcher named = pattern.matcher(message);
      if (!named.find()) {
        continue;
      }
      String name = named.group(1);
      String last = name.substring(name.lastIndexOf('.') + 1);
      for (int i = 0; i < tokens.size(); i++) {
        Token token = tokens.get(i);
        boolean spells =
            token.kind() == Kind.QUOTED_IDENTIFIER
                ? token.value().equals(last) || token.value().equals(name)
                : token.text().equalsIgnoreCase(last) || token.text().equalsIgnoreCase(name);
        if (spells && token.kind() != Kind.STRING) {
          // A qualified name is marked from its first part: iot.nope, not nope.
          int first = i;
          while (first >= 2
              && tokens.get(first - 1).text().equals(".")
              && tokens.get(first - 1).start() == tokens.get(first - 2).end()) {
            first -= 2;
          }
          return Optional.of(tokens.get(first).start());
        }
      }
    }
    return Optional.empty();
  }
}
