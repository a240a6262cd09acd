package dev.timelake.engine;

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
}
