package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;

/**
 * Which WHERE conjuncts may run before copies are removed (the dedup differential test checks that
 * doing so keeps every answer).
 */
class KeyFilterTest {
  private static Optional<String> pushed(String where) throws Exception {
    Expression expression = CCJSqlParserUtil.parseCondExpression(where);
    return KeyFilter.of(expression, Set.of("tag", "time"), Set.of("r", "readings"))
        .map(KeyFilter::text);
  }

  @Test
  void pushesKeyComparisonsWithConstantsWithoutTheirQualifier() throws Exception {
    assertThat(
            pushed(
                "r.tag IN ('a', 'b') AND value > 3 AND time >= TIMESTAMPTZ '2026-01-01 00:00:00+00'"))
        .contains("tag IN ('a', 'b') AND time >= TIMESTAMPTZ '2026-01-01 00:00:00+00'");
    assertThat(pushed("(tag = 'a' OR time < TIMESTAMPTZ '2026-01-02')"))
        .contains("(tag = 'a' OR time < TIMESTAMPTZ '2026-01-02')");
  }

  @Test
  void aConjunctThatIsAnOrKeepsItsParenthesesBesideTheOthers() throws Exception {
    // Printed bare, "tag = 'a' OR tag = 'b' AND time < …" would read tag 'a' at any time.
    assertThat(
            pushed(
                "((tag = 'a' OR tag = 'b')) AND value > 1 AND (time < TIMESTAMPTZ '2026-01-02')"))
        .contains("(tag = 'a' OR tag = 'b') AND time < TIMESTAMPTZ '2026-01-02'");
  }

  @Test
  void printsWithoutQualifiersOutsideSubqueriesAndLeavesTheStatementAsItWas() throws Exception {
    Expression where =
        CCJSqlParserUtil.parseCondExpression(
            "r.tag IN (SELECT t.tag FROM tags t WHERE t.line = 'L1') AND r.time >= TIMESTAMPTZ"
                + " '2026-01-01 00:00:00+00'");
    assertThat(KeyFilter.text(where))
        .isEqualTo(
            "tag IN (SELECT t.tag FROM tags t WHERE t.line = 'L1') AND time >= TIMESTAMPTZ"
                + " '2026-01-01 00:00:00+00'");
    // Printing strips nothing from the tree the statement still prints from.
    assertThat(where.toString()).startsWith("r.tag IN (SELECT t.tag").contains("r.time >=");
    assertThat(
            KeyFilter.text(CCJSqlParserUtil.parseCondExpression("(r.tag, r.time) IN (('a', 1))")))
        .isEqualTo("(tag, time) IN (('a', 1))");
  }

  @Test
  void keepsEverythingElseOutside() throws Exception {
    assertThat(pushed("value > 3")).isEmpty();
    assertThat(pushed("tag = 'a' OR value > 3")).isEmpty(); // reads a non-key column
    assertThat(pushed("other.tag = 'a'")).isEmpty(); // another table's column
    assertThat(pushed("time_bucket(INTERVAL '1 hour', time) = TIMESTAMPTZ '2026-01-01'"))
        .isEmpty(); // functions stay where the statement's rewrites apply
    assertThat(pushed("time > now() - INTERVAL 1 HOUR")).isEmpty();
    assertThat(pushed("tag IN (SELECT tag FROM tags)")).isEmpty();
    assertThat(pushed("tag IS NULL")).isEmpty();
    assertThat(pushed("1 = 1")).isEmpty(); // reads no column at all
  }
}
