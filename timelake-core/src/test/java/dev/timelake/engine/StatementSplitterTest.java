package dev.timelake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementSplitterTest {
  @Test
  void splitsAtSemicolonsOutsideQuotesAndComments() {
    assertThat(
            StatementSplitter.statements(
                "SELECT 'a;b', \"c;d\" FROM t; -- x; y\nSELECT 'it''s;'; /* ; */ SELECT 3"))
        .containsExactly(
            "SELECT 'a;b', \"c;d\" FROM t", "-- x; y\nSELECT 'it''s;'", "/* ; */ SELECT 3");
  }

  @Test
  void dropsEmptyAndCommentOnlyPieces() {
    assertThat(StatementSplitter.statements(" ;; SELECT 1;\n-- done\n"))
        .containsExactly("SELECT 1");
    assertThat(StatementSplitter.statements("  ")).isEmpty();
  }

  @Test
  void aStatementIsCompleteWhenItEndsWithASemicolon() {
    assertThat(StatementSplitter.isComplete("SELECT 1;")).isTrue();
    assertThat(StatementSplitter.isComplete("SELECT 1; -- comment")).isTrue();
    assertThat(StatementSplitter.isComplete("SELECT 1; SELECT")).isFalse();
    assertThat(StatementSplitter.isComplete("SELECT ';")).isFalse();
    assertThat(StatementSplitter.isComplete("SELECT 1 /* ; */")).isFalse();
    assertThat(StatementSplitter.isComplete("SELECT 1; /* open")).isFalse();
    assertThat(StatementSplitter.isComplete("")).isFalse();
  }
}
