package dev.timelake.sql;

import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The transaction statements a PostgreSQL or DuckDB client sends, in the spellings both accept:
 * {@code BEGIN [TRANSACTION | WORK] [modes]}, {@code START TRANSACTION [modes]}, {@code COMMIT |
 * END [TRANSACTION | WORK]}, {@code ROLLBACK | ABORT [TRANSACTION | WORK]}; and the ones Timelake
 * refuses (savepoints, two-phase commit, chained transactions). Modes such as {@code ISOLATION
 * LEVEL SERIALIZABLE} or {@code READ ONLY} are accepted and change nothing: a transaction reads
 * each table at the snapshot current when a statement runs. Read from {@link SqlLexer}'s tokens.
 */
enum TransactionControl {
  BEGIN,
  COMMIT,
  ROLLBACK,
  /** SAVEPOINT, RELEASE, ROLLBACK TO, PREPARE TRANSACTION, COMMIT/ROLLBACK PREPARED, AND CHAIN. */
  UNSUPPORTED;

  /** The words of transaction modes, in any order PostgreSQL's grammar allows. */
  private static final Set<String> MODE_WORDS =
      Set.of(
          "ISOLATION",
          "LEVEL",
          "SERIALIZABLE",
          "REPEATABLE",
          "READ",
          "COMMITTED",
          "UNCOMMITTED",
          "ONLY",
          "WRITE",
          "NOT",
          "DEFERRABLE");

  /** The transaction statement {@code sql} is (comments and final semicolons ignored), if any. */
  static Optional<TransactionControl> of(String sql) {
    SqlLexer.Tokens lexed = SqlLexer.tokens(sql);
    List<Token> tokens = lexed.tokens();
    int end = tokens.size();
    while (end > 0 && tokens.get(end - 1).kind() == Kind.SEMICOLON) {
      end--;
    }
    return lexed.unterminated() ? Optional.empty() : of(tokens.subList(0, end));
  }

  /** The transaction statement of {@code tokens} (without final semicolons), if any. */
  static Optional<TransactionControl> of(List<Token> tokens) {
    if (tokens.isEmpty()
        || tokens.get(0).kind() != Kind.WORD
        || tokens.stream().anyMatch(token -> token.kind() == Kind.SEMICOLON)) {
      return Optional.empty();
    }
    String first = tokens.get(0).value();
    switch (first) {
      case "SAVEPOINT", "RELEASE" -> {
        return Optional.of(UNSUPPORTED);
      }
      case "PREPARE" -> {
        return tokens.size() > 1 && tokens.get(1).is("TRANSACTION")
            ? Optional.of(UNSUPPORTED)
            : Optional.empty();
      }
      case "BEGIN", "START" -> {
        int index = afterWork(tokens, 1);
        if (first.equals("START") && !(tokens.size() > 1 && tokens.get(1).is("TRANSACTION"))) {
          return Optional.empty();
        }
        return onlyModes(tokens, index) ? Optional.of(BEGIN) : Optional.empty();
      }
      case "COMMIT", "END", "ROLLBACK", "ABORT" -> {
        if (tokens.size() > 1 && (tokens.get(1).is("PREPARED") || tokens.get(1).is("TO"))) {
          return Optional.of(UNSUPPORTED);
        }
        int index = afterWork(tokens, 1);
        if (index < tokens.size() && tokens.get(index).is("TO")) {
          return Optional.of(UNSUPPORTED);
        }
        if (index + 1 < tokens.size() && tokens.get(index).is("AND")) {
          boolean noChain =
              index + 2 < tokens.size()
                  && tokens.get(index + 1).is("NO")
                  && tokens.get(index + 2).is("CHAIN");
          if (!noChain) {
            return tokens.get(index + 1).is("CHAIN") ? Optional.of(UNSUPPORTED) : Optional.empty();
          }
          index += 3;
        }
        if (index != tokens.size()) {
          return Optional.empty();
        }
        return Optional.of(first.equals("COMMIT") || first.equals("END") ? COMMIT : ROLLBACK);
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  /** The index after an optional {@code TRANSACTION} or {@code WORK} at {@code index}. */
  private static int afterWork(List<Token> tokens, int index) {
    return index < tokens.size()
            && (tokens.get(index).is("TRANSACTION") || tokens.get(index).is("WORK"))
        ? index + 1
        : index;
  }

  private static boolean onlyModes(List<Token> tokens, int from) {
    for (Token token : tokens.subList(Math.min(from, tokens.size()), tokens.size())) {
      boolean mode = token.kind() == Kind.WORD && MODE_WORDS.contains(token.value());
      if (!mode && !token.text().equals(",")) {
        return false;
      }
    }
    return true;
  }
}
