package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code CALL timelake.rollback('ns.t', 123)} (to a snapshot) or {@code CALL
 * timelake.rollback('ns.t', '2026-12-03 07:00:00+00')} (to the newest snapshot at or before that
 * time), read from its tokens.
 */
record RollbackCall(TableName table, OptionalLong snapshot, Optional<String> before) {

  /** The call, if the tokens are one; empty for any other statement. */
  static Optional<RollbackCall> parse(List<Token> tokens) {
    if (tokens.size() < 4
        || !tokens.get(0).is("CALL")
        || !tokens.get(1).is("timelake")
        || !tokens.get(2).text().equals(".")
        || !tokens.get(3).is("rollback")) {
      return Optional.empty();
    }
    if (tokens.size() != 9
        || !tokens.get(4).text().equals("(")
        || tokens.get(5).kind() != Kind.STRING
        || !tokens.get(6).text().equals(",")
        || !tokens.get(8).text().equals(")")
        || (tokens.get(7).kind() != Kind.NUMBER && tokens.get(7).kind() != Kind.STRING)) {
      throw TimelakeException.validation(
          "Cannot read the rollback: write CALL timelake.rollback('namespace.table', SNAPSHOT_ID)"
              + " or CALL timelake.rollback('namespace.table', 'TIME') (the newest snapshot at or"
              + " before TIME)");
    }
    TableName table = TableName.parse(unquoted(tokens.get(5)));
    Token target = tokens.get(7);
    if (target.kind() == Kind.NUMBER) {
      try {
        return Optional.of(
            new RollbackCall(
                table, OptionalLong.of(Long.parseLong(target.text())), Optional.empty()));
      } catch (NumberFormatException e) {
        throw TimelakeException.validation(
            "Cannot roll back %s: '%s' is not a snapshot id", table, target.text());
      }
    }
    return Optional.of(
        new RollbackCall(table, OptionalLong.empty(), Optional.of(unquoted(target))));
  }

  private static String unquoted(Token string) {
    String text = string.text();
    return text.substring(1, text.length() - 1).replace("''", "'");
  }
}
