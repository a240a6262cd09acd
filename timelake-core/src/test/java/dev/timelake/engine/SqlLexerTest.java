package dev.timelake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tokens as DuckDB's and PostgreSQL's parsers see them: what is a string, a comment, a name. */
class SqlLexerTest {
  @Test
  void stringsQuotedNamesAndCommentsHideWhatLooksLikeSql() {
    String sql =
        "SELECT 'a;b''c', E'x\\'; y', $$d;e$$, $t$f'g$t$, \"h;\"\"i\" /* j /* k */ ; l */ -- m;\n;";

    List<Token> tokens = SqlLexer.tokens(sql).tokens();

    assertThat(tokens.stream().map(Token::kind).toList())
        .containsExactly(
            Kind.WORD,
            Kind.STRING,
            Kind.SYMBOL,
            Kind.STRING,
            Kind.SYMBOL,
            Kind.STRING,
            Kind.SYMBOL,
            Kind.STRING,
            Kind.SYMBOL,
            Kind.QUOTED_IDENTIFIER,
            Kind.SEMICOLON);
    assertThat(tokens.get(9).value()).isEqualTo("h;\"i");
    assertThat(SqlLexer.tokens(sql).unterminated()).isFalse();
  }

  @Test
  void readsParametersNumbersAndSymbols() {
    List<Token> tokens = SqlLexer.tokens("x = $12 AND y > 1.5e3 OR z = ?").tokens();

    assertThat(tokens.stream().map(Token::text).toList())
        .containsExactly("x", "=", "$12", "AND", "y", ">", "1.5e3", "OR", "z", "=", "?");
    assertThat(tokens.get(2).kind()).isEqualTo(Kind.PARAMETER);
  }

  @Test
  void tellsWhenTheTextEndsInsideAStringOrComment() {
    for (String open : List.of("SELECT 'a", "SELECT \"a", "SELECT /* a", "SELECT $$a", "E'\\'")) {
      assertThat(SqlLexer.tokens(open).unterminated()).as(open).isTrue();
    }
  }

  @Test
  void tokensWithSpaceJoinToTheText() {
    String sql = "  SELECT /* c */ a,\n\t'b' -- d\nFROM t ;";

    String joined =
        String.join("", SqlLexer.tokensWithSpace(sql).tokens().stream().map(Token::text).toList());

    assertThat(joined).isEqualTo(sql);
  }
}
