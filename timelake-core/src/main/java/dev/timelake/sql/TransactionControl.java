package dev.timelake.sql;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The transaction statements a PostgreSQL or DuckDB client sends, in the spellings both accept:
 * {@code BEGIN [TRANSACTION | WORK] [modes]}, {@code START TRANSACTION [modes]}, {@code COMMIT |
 * END [TRANSACTION | WORK]}, {@code ROLLBACK | ABORT [TRANSACTION | WORK]}; and the ones Timelake
 * refuses (savepoints, two-phase commit). Modes such as {@code ISOLATION LEVEL SERIALIZABLE} or
 * {@code READ ONLY} are accepted and change nothing: a transaction reads each table at the snapshot
 * current when a statement runs.
 */
enum TransactionControl {
  BEGIN,
  COMMIT,
  ROLLBACK,
  /** SAVEPOINT, RELEASE, ROLLBACK TO, PREPARE TRANSACTION, COMMIT/ROLLBACK PREPARED. */
  UNSUPPORTED;

  private static final String WORK = "(?:\\s+(?:TRANSACTION|WORK))?";
  private static final String MODE =
      "(?:ISOLATION\\s+LEVEL\\s+(?:SERIALIZABLE|REPEATABLE\\s+READ|READ\\s+COMMITTED"
          + "|READ\\s+UNCOMMITTED)|READ\\s+ONLY|READ\\s+WRITE|NOT\\s+DEFERRABLE|DEFERRABLE)";
  private static final String MODES =
      "(?:\\s+" + MODE + "(?:\\s*,\\s*" + MODE + "|\\s+" + MODE + ")*)?";
  private static final String CHAIN = "(?:\\s+AND\\s+NO\\s+CHAIN)?";

  private static final Pattern BEGINS =
      Pattern.compile("(?is)(?:BEGIN" + WORK + "|START\\s+TRANSACTION)" + MODES);
  private static final Pattern COMMITS = Pattern.compile("(?is)(?:COMMIT|END)" + WORK + CHAIN);
  private static final Pattern ROLLBACKS =
      Pattern.compile("(?is)(?:ROLLBACK|ABORT)" + WORK + CHAIN);
  private static final Pattern OTHERS =
      Pattern.compile(
          "(?is)(?:SAVEPOINT|RELEASE|ROLLBACK"
              + WORK
              + "\\s+TO|PREPARE\\s+TRANSACTION"
              + "|(?:COMMIT|ROLLBACK)\\s+PREPARED|(?:COMMIT|ROLLBACK)"
              + WORK
              + "\\s+AND\\s+CHAIN)\\b.*");

  /** The transaction statement {@code sql} is (comments and a final semicolon ignored), if any. */
  static Optional<TransactionControl> of(String sql) {
    String text = withoutLeadingComments(sql).strip();
    while (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1).strip();
    }
    if (BEGINS.matcher(text).matches()) {
      return Optional.of(BEGIN);
    }
    if (COMMITS.matcher(text).matches()) {
      return Optional.of(COMMIT);
    }
    if (ROLLBACKS.matcher(text).matches()) {
      return Optional.of(ROLLBACK);
    }
    if (OTHERS.matcher(text).matches()) {
      return Optional.of(UNSUPPORTED);
    }
    return Optional.empty();
  }

  private static String withoutLeadingComments(String sql) {
    int i = 0;
    while (i < sql.length()) {
      if (Character.isWhitespace(sql.charAt(i))) {
        i++;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end + 1;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 2;
      } else {
        break;
      }
    }
    return sql.substring(i);
  }
}
