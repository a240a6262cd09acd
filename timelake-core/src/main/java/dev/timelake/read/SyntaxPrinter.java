package dev.timelake.read;

import java.util.function.Predicate;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.deparser.ExpressionDeParser;
import net.sf.jsqlparser.util.deparser.SelectDeParser;
import net.sf.jsqlparser.util.deparser.StatementDeParser;

/**
 * Prints a syntax tree back to SQL, letting a rewrite change each function call just before it is
 * printed. Printing visits every expression of every clause (SELECT, WHERE, GROUP BY, HAVING,
 * QUALIFY, ORDER BY, subqueries), so a rewrite applied here is applied everywhere consistently.
 */
final class SyntaxPrinter {
  private SyntaxPrinter() {}

  /** Prints {@code statement}, offering each function call to {@code rewrite} first. */
  static String print(Statement statement, Predicate<Function> rewrite) {
    StringBuilder buffer = new StringBuilder();
    ExpressionDeParser expressions =
        new ExpressionDeParser() {
          @Override
          public <S> StringBuilder visit(Function function, S context) {
            rewrite.test(function);
            return super.visit(function, context);
          }

          /** DuckDB's integer division, which the parser reads as MySQL's DIV. */
          @Override
          public <S> StringBuilder visit(IntegerDivision division, S context) {
            deparse(division, " // ", context);
            return getBuilder();
          }
        };
    SelectDeParser selects = new SelectDeParser(expressions, buffer);
    expressions.setSelectVisitor(selects);
    expressions.setBuilder(buffer);
    StatementDeParser printer = new StatementDeParser(expressions, selects, buffer);
    statement.accept(printer);
    return buffer.toString();
  }
}
