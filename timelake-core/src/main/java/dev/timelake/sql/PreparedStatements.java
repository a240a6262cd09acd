package dev.timelake.sql;

import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A session's SQL-level prepared statements, as PostgreSQL has them: {@code PREPARE name [(type,
 * …)] AS statement}, {@code EXECUTE name [(value, …)]} and {@code DEALLOCATE [PREPARE] name | ALL}.
 * EXECUTE gives back the statement with each {@code $n} replaced by its value, cast to the declared
 * type; that statement then runs like any other the client sends (classified, checked against the
 * session's role, planned), so a prepared statement can do nothing its text could not.
 */
final class PreparedStatements {
  /** One prepared statement: its parameter types (empty: untyped) and its text. */
  private record Prepared(List<String> types, String statement) {}

  private final Map<String, Prepared> prepared = new LinkedHashMap<>();

  /** What a PREPARE, EXECUTE or DEALLOCATE asks; empty for any other statement. */
  sealed interface Command permits Prepare, Execute, Deallocate {}

  record Prepare(String name, List<String> types, String statement) implements Command {}

  record Execute(String name, List<String> values) implements Command {}

  record Deallocate(Optional<String> name) implements Command {}

  /** The command {@code sql} (lexed as {@code tokens}) is, if it is one of the three. */
  static Optional<Command> parse(String sql, List<Token> tokens) {
    if (tokens.size() < 2 || !TokenNames.isIdentifier(tokens.get(1))) {
      return Optional.empty();
    }
    Token first = tokens.get(0);
    if (first.is("DEALLOCATE")) {
      int at = tokens.get(1).is("PREPARE") && tokens.size() > 2 ? 2 : 1;
      String name = TokenNames.name(tokens.get(at)).toLowerCase(Locale.ROOT);
      return Optional.of(new Deallocate(name.equals("all") ? Optional.empty() : Optional.of(name)));
    }
    String name = TokenNames.name(tokens.get(1)).toLowerCase(Locale.ROOT);
    if (first.is("EXECUTE")) {
      return Optional.of(new Execute(name, listAfter(sql, tokens, 2)));
    }
    if (!first.is("PREPARE")) {
      return Optional.empty();
    }
    int as = 2;
    List<String> types = List.of();
    if (tokens.size() > 2 && tokens.get(2).text().equals("(")) {
      types = listAfter(sql, tokens, 2);
      as = closing(tokens, 2) + 1;
    }
    if (as >= tokens.size() - 1 || !tokens.get(as).is("AS")) {
      throw TimelakeException.validation(
          "Cannot prepare %s: write PREPARE %s [(type, …)] AS <statement>", name, name);
    }
    return Optional.of(new Prepare(name, types, sql.substring(tokens.get(as + 1).start()).trim()));
  }

  /** Runs a PREPARE or DEALLOCATE; for EXECUTE returns the statement to run. */
  Optional<String> apply(Command command) {
    if (command instanceof Execute execute) {
      return Optional.of(bound(execute));
    }
    if (command instanceof Prepare prepare) {
      if (prepared.containsKey(prepare.name())) {
        throw TimelakeException.validation(
            "Cannot prepare %s: this session has a prepared statement of that name; DEALLOCATE %s"
                + " first",
            prepare.name(), prepare.name());
      }
      prepared.put(prepare.name(), new Prepared(prepare.types(), prepare.statement()));
    } else if (command instanceof Deallocate deallocate) {
      if (deallocate.name().isEmpty()) {
        prepared.clear();
      } else if (prepared.remove(deallocate.name().get()) == null) {
        throw missing(deallocate.name().get());
      }
    }
    return Optional.empty();
  }

  /** The prepared statement's text with each {@code $n} replaced by its (cast) value. */
  private String bound(Execute execute) {
    Prepared statement = prepared.get(execute.name());
    if (statement == null) {
      throw missing(execute.name());
    }
    List<Token> tokens = SqlLexer.tokens(statement.statement()).tokens();
    int needed =
        tokens.stream()
            .filter(t -> t.kind() == Kind.PARAMETER && t.text().matches("\\$\\d+"))
            .mapToInt(t -> Integer.parseInt(t.text().substring(1)))
            .max()
            .orElse(0);
    int expected = statement.types().isEmpty() ? needed : statement.types().size();
    if (execute.values().size() != expected || needed > expected) {
      throw TimelakeException.validation(
          "Cannot execute %s: it takes %d %s, given %d",
          execute.name(),
          expected,
          expected == 1 ? "parameter" : "parameters",
          execute.values().size());
    }
    StringBuilder text = new StringBuilder();
    int at = 0;
    for (Token token : tokens) {
      if (token.kind() == Kind.PARAMETER && token.text().matches("\\$\\d+")) {
        int index = Integer.parseInt(token.text().substring(1)) - 1;
        String value = "(" + execute.values().get(index) + ")";
        if (!statement.types().isEmpty()) {
          value = "CAST(" + value + " AS " + statement.types().get(index) + ")";
        }
        text.append(statement.statement(), at, token.start()).append(value);
        at = token.end();
      }
    }
    return text.append(statement.statement().substring(at)).toString();
  }

  private static int closing(List<Token> tokens, int open) {
    int close = TokenNames.closingParenthesis(tokens, open);
    if (close < 0) {
      throw TimelakeException.validation("A parenthesis is not closed");
    }
    return close;
  }

  private static TimelakeException missing(String name) {
    return TimelakeException.validation(
        "Prepared statement %s does not exist in this session (PREPARE %s AS … first)", name, name);
  }

  /** The comma-separated items of the parenthesized list at {@code open}, as written. */
  private static List<String> listAfter(String sql, List<Token> tokens, int open) {
    if (open >= tokens.size()) {
      return List.of();
    }
    if (!tokens.get(open).text().equals("(")) {
      throw TimelakeException.validation("Expected ( after the prepared statement's name");
    }
    int close = closing(tokens, open);
    List<String> items = new ArrayList<>();
    int depth = 0;
    int start = tokens.get(open).end();
    for (int i = open + 1; i < close; i++) {
      String text = tokens.get(i).text();
      if (text.equals("(") || text.equals("[")) {
        depth++;
      } else if (text.equals(")") || text.equals("]")) {
        depth--;
      } else if (text.equals(",") && depth == 0) {
        items.add(sql.substring(start, tokens.get(i).start()).trim());
        start = tokens.get(i).end();
      }
    }
    String last = sql.substring(start, tokens.get(close).start()).trim();
    if (!last.isEmpty() || !items.isEmpty()) {
      items.add(last);
    }
    return items;
  }
}
