package dev.timelake.sql;

import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.Values;

/**
 * An {@code INSERT INTO ns.t [(columns)] VALUES (…), …} whose values are all constants, read from
 * its tokens into the nodes JSqlParser would give — what a driver sends for each row of a loop of
 * one-row inserts, where JSqlParser's parse would cost more than the rest of the statement. Any
 * other shape, or a token not read here, gives nothing and the statement is parsed as usual.
 *
 * @param table the table as written (quotes kept, as JSqlParser keeps them)
 * @param columns the column list; empty when the statement has none
 * @param values the rows
 */
record ConstantInsert(Table table, List<Column> columns, Values values) {
  private static final Pattern INTEGER = Pattern.compile("[0-9]+");
  private static final Pattern DECIMAL = Pattern.compile("[0-9]+\\.[0-9]*|\\.[0-9]+");
  private static final Pattern TYPE = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

  /** The statement read, or empty for anything but such an INSERT. */
  static Optional<ConstantInsert> read(String sql) {
    List<Token> tokens = SqlLexer.tokens(sql).tokens();
    if (!tokens.isEmpty() && tokens.get(tokens.size() - 1).kind() == Kind.SEMICOLON) {
      tokens = tokens.subList(0, tokens.size() - 1);
    }
    return new Reader(tokens).insert();
  }

  /** A cursor over the tokens; each method reads one part or says it cannot. */
  private static final class Reader {
    private final List<Token> tokens;
    private int at;

    Reader(List<Token> tokens) {
      this.tokens = tokens;
    }

    Optional<ConstantInsert> insert() {
      if (!word("INSERT") || !word("INTO")) {
        return Optional.empty();
      }
      Optional<String> namespace = name();
      if (namespace.isEmpty() || !symbol(".")) {
        return Optional.empty();
      }
      Optional<String> name = name();
      if (name.isEmpty()) {
        return Optional.empty();
      }
      List<Column> columns = new ArrayList<>();
      if (symbol("(")) {
        do {
          Optional<String> column = name();
          if (column.isEmpty()) {
            return Optional.empty();
          }
          columns.add(new Column(column.get()));
        } while (symbol(","));
        if (!symbol(")")) {
          return Optional.empty();
        }
      }
      if (!word("VALUES")) {
        return Optional.empty();
      }
      List<ParenthesedExpressionList<Expression>> rows = new ArrayList<>();
      do {
        Optional<ParenthesedExpressionList<Expression>> row = row();
        if (row.isEmpty()) {
          return Optional.empty();
        }
        rows.add(row.get());
      } while (symbol(","));
      if (at != tokens.size()) {
        return Optional.empty();
      }
      ExpressionList<Expression> list;
      if (rows.size() == 1) {
        list = rows.get(0); // JSqlParser's one-row VALUES: the row itself
      } else {
        list = new ExpressionList<>();
        list.addAll(rows);
      }
      return Optional.of(
          new ConstantInsert(new Table(namespace.get(), name.get()), columns, new Values(list)));
    }

    private Optional<ParenthesedExpressionList<Expression>> row() {
      if (!symbol("(")) {
        return Optional.empty();
      }
      ParenthesedExpressionList<Expression> row = new ParenthesedExpressionList<>();
      do {
        Optional<Expression> value = constant();
        if (value.isEmpty()) {
          return Optional.empty();
        }
        row.add(value.get());
      } while (symbol(","));
      return symbol(")") ? Optional.of(row) : Optional.empty();
    }

    /**
     * A number (signed), a '…' string (cast with ::), NULL, TRUE, FALSE, CAST or a typed string.
     */
    private Optional<Expression> constant() {
      Token token = next();
      if (token == null) {
        return Optional.empty();
      }
      if (token.kind() == Kind.SYMBOL && (token.text().equals("-") || token.text().equals("+"))) {
        return number(next()).map(n -> new SignedExpression(token.text().charAt(0), n));
      }
      if (token.kind() == Kind.NUMBER) {
        return number(token);
      }
      if (isPlainString(token)) {
        StringValue text = new StringValue(token.text());
        if (symbol(":")) {
          return symbol(":")
              ? type().map(type -> (Expression) castOf(text, type, false))
              : Optional.empty();
        }
        return Optional.of(text);
      }
      if (token.is("NULL")) {
        return Optional.of(new NullValue());
      }
      if (token.is("TRUE") || token.is("FALSE")) {
        return Optional.of(new BooleanValue(token.is("TRUE")));
      }
      if (token.is("CAST")) {
        if (!symbol("(")) {
          return Optional.empty();
        }
        Token inner = next();
        Expression value;
        if (inner != null && isPlainString(inner)) {
          value = new StringValue(inner.text());
        } else if (inner != null && inner.is("NULL")) {
          value = new NullValue();
        } else {
          return Optional.empty();
        }
        if (!word("AS")) {
          return Optional.empty();
        }
        Optional<String> type = type();
        return type.isPresent() && symbol(")")
            ? Optional.of(castOf(value, type.get(), true))
            : Optional.empty();
      }
      for (DateTimeLiteralExpression.DateTime kind :
          List.of(
              DateTimeLiteralExpression.DateTime.TIMESTAMPTZ,
              DateTimeLiteralExpression.DateTime.TIMESTAMP,
              DateTimeLiteralExpression.DateTime.DATE)) {
        if (token.is(kind.name())) {
          Token literal = next();
          return literal != null && isPlainString(literal)
              ? Optional.of(
                  new DateTimeLiteralExpression().withType(kind).withValue(literal.text()))
              : Optional.empty();
        }
      }
      return Optional.empty();
    }

    private static CastExpression castOf(Expression value, String type, boolean keyword) {
      CastExpression cast = new CastExpression();
      cast.setLeftExpression(value);
      cast.setColDataType(new ColDataType(type));
      cast.setUseCastKeyword(keyword);
      cast.keyword = keyword ? "CAST" : null;
      return cast;
    }

    /** A type of one word (DOUBLE, TIMESTAMPTZ, VARCHAR…), not followed by arguments. */
    private Optional<String> type() {
      Token token = next();
      return token != null && token.kind() == Kind.WORD && TYPE.matcher(token.text()).matches()
          ? Optional.of(token.text())
          : Optional.empty();
    }

    private static Optional<Expression> number(Token token) {
      if (token == null || token.kind() != Kind.NUMBER) {
        return Optional.empty();
      }
      if (INTEGER.matcher(token.text()).matches()) {
        return Optional.of(new LongValue(token.text()));
      }
      return DECIMAL.matcher(token.text()).matches()
          ? Optional.of(new DoubleValue(token.text()))
          : Optional.empty();
    }

    private static boolean isPlainString(Token token) {
      return token.kind() == Kind.STRING && token.text().startsWith("'");
    }

    /** A name: an unquoted word or a quoted identifier, as written. */
    private Optional<String> name() {
      Token token = next();
      return token != null && (token.kind() == Kind.WORD || token.kind() == Kind.QUOTED_IDENTIFIER)
          ? Optional.of(token.text())
          : Optional.empty();
    }

    private boolean word(String keyword) {
      if (at < tokens.size() && tokens.get(at).is(keyword)) {
        at++;
        return true;
      }
      return false;
    }

    private boolean symbol(String text) {
      if (at < tokens.size()
          && tokens.get(at).kind() == Kind.SYMBOL
          && tokens.get(at).text().equals(text)) {
        at++;
        return true;
      }
      return false;
    }

    private Token next() {
      return at < tokens.size() ? tokens.get(at++) : null;
    }
  }
}
