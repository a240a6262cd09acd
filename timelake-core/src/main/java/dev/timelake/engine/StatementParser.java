package dev.timelake.engine;

import java.util.List;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.statement.Statement;

/**
 * Parses one SQL statement with JSqlParser, on the calling thread. A pathological statement can
 * keep the parser busy for long (its grammar backtracks), so a watchdog stops a parse that runs
 * past {@link #TIME_OUT} through the flag the parser checks. The library's own timeout runs every
 * parse on another thread instead, and waiting for that thread cost about 0.7 ms of a 0.05 ms parse
 * here (two cores, a virtual machine).
 */
public final class StatementParser {
  /** How long a parse may run: the library's default timeout. */
  static final java.time.Duration TIME_OUT = java.time.Duration.ofSeconds(6);

  private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
      Watchdogs.named("timelake-sql-parser-watchdog");

  private StatementParser() {}

  /** The statement's syntax tree. */
  public static Statement parse(String sql) throws JSQLParserException {
    return parse(sql, TIME_OUT);
  }

  static Statement parse(String sql, java.time.Duration timeOut) throws JSQLParserException {
    CCJSqlParser parser = CCJSqlParserUtil.newParser(sql);
    java.util.concurrent.ScheduledFuture<?> watchdog =
        WATCHDOG.schedule(
            () -> {
              parser.interrupted = true;
            },
            timeOut.toMillis(),
            java.util.concurrent.TimeUnit.MILLISECONDS);
    try {
      return parser.Statement();
    } catch (ParseException | RuntimeException e) {
      if (parser.interrupted) {
        throw new JSQLParserException(
            "Time out occurred: the statement took longer than "
                + timeOut.toSeconds()
                + " s to parse",
            e);
      }
      throw new JSQLParserException(e);
    } catch (StackOverflowError e) {
      // A statement nested deeper than the parser's recursion: answered, like any unreadable one.
      throw new JSQLParserException("The statement is nested too deeply to parse", e);
    } finally {
      watchdog.cancel(false);
    }
  }

  /**
   * {@code sql} with DuckDB's integer division {@code //} (outside strings and comments) spelled
   * {@code DIV}, which the parser reads as integer division (it takes {@code //} for the start of a
   * comment); printing through {@code SyntaxPrinter} spells it {@code //} again.
   */
  public static String withDivKeyword(String sql) {
    StringBuilder text = new StringBuilder();
    int at = 0;
    List<SqlLexer.Token> tokens = SqlLexer.tokens(sql).tokens();
    for (int i = 0; i + 1 < tokens.size(); i++) {
      SqlLexer.Token first = tokens.get(i);
      SqlLexer.Token second = tokens.get(i + 1);
      if (first.text().equals("/") && second.text().equals("/") && first.end() == second.start()) {
        text.append(sql, at, first.start()).append(" DIV ");
        at = second.end();
        i++;
      }
    }
    return text.append(sql.substring(at)).toString();
  }
}
