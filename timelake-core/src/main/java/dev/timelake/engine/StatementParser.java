package dev.timelake.engine;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;

/**
 * Parses one SQL statement with JSqlParser. The library runs each parse on another thread so that a
 * pathological statement times out; by default it starts a new thread per statement, which cost
 * about 4 ms of a 1 ms parse. The parser threads are kept here instead.
 */
public final class StatementParser {
  private static final ExecutorService PARSERS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "timelake-sql-parser");
            thread.setDaemon(true);
            return thread;
          });

  private StatementParser() {}

  /** The statement's syntax tree. */
  public static Statement parse(String sql) throws JSQLParserException {
    return CCJSqlParserUtil.parse(sql, PARSERS, null);
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
