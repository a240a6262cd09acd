package dev.timelake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.statement.select.PlainSelect;
import org.junit.jupiter.api.Test;

/**
 * Statements are parsed on the calling thread; a parse that runs past its time is stopped and
 * answered as unreadable, as is one nested deeper than the parser can follow.
 */
class StatementParserTest {

  @Test
  void parsesOnTheCallingThread() throws Exception {
    assertThat(StatementParser.parse("SELECT a FROM t WHERE b = 1"))
        .isInstanceOf(PlainSelect.class);
  }

  @Test
  void aParseThatRunsPastItsTimeIsStopped() {
    String sql = "SELECT " + "1 + ".repeat(200_000) + "1";

    assertThatThrownBy(() -> StatementParser.parse(sql, Duration.ofMillis(1)))
        .isInstanceOf(JSQLParserException.class)
        .hasMessageContaining("Time out occurred");
  }

  @Test
  void anUnreadableStatementIsAParseError() {
    assertThatThrownBy(() -> StatementParser.parse("SELECT FROM WHERE ((("))
        .isInstanceOf(JSQLParserException.class);
  }

  @Test
  void aStatementNestedTooDeeplyIsAParseErrorNotACrash() {
    // The parser's recursion runs out of a default 1 MB stack at about 600 parentheses, and ten
    // thousand still overflow an 8 MB one; fifty thousand only took 2-3 s longer to answer.
    String sql = "SELECT " + "(".repeat(10_000) + "1" + ")".repeat(10_000);

    // Whichever comes first, the parser's recursion running out of stack or its time: answered.
    assertThatThrownBy(() -> StatementParser.parse(sql, Duration.ofSeconds(1)))
        .isInstanceOf(JSQLParserException.class);
  }
}
