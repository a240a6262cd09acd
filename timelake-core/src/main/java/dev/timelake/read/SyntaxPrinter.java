package dev.timelake.read;

import java.util.Map;
import java.util.function.Predicate;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.schema.Table;
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

  /**
   * Prints {@code statement}, offering each function call to {@code rewrite} first, and each table
   * node that {@code relations} holds (by identity) as its relation in parentheses, with the node's
   * alias.
   */
  static String print(
      Statement statement, Predicate<Function> rewrite, Map<Table, String> relations) {
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
    Map<Table, String> byIdentity = new java.util.IdentityHashMap<>(relations);
    SelectDeParser selects =
        new SelectDeParser(expressions, buffer) {
          @Override
          public <S> StringBuilder visit(Table table, S context) {
            String relation = byIdentity.get(table);
            if (relation == null) {
              return super.visit(table, context);
            }
            // A stand-in node carries the relation as its name and everything else the node has
            // (alias, sample, …), so the tree itself is never changed by printing.
            Table stand = new Table("(" + relation + ")");
            stand.setAlias(table.getAlias());
            stand.setPivot(table.getPivot());
            stand.setUnPivot(table.getUnPivot());
            stand.setSampleClause(table.getSampleClause());
            stand.setHint(table.getIndexHint());
            stand.setSqlServerHints(table.getSqlServerHints());
            stand.setTimeTravel(table.getTimeTravel());
            stand.setTimeTravelStrAfterAlias(table.getTimeTravelStrAfterAlias());
            return super.visit(stand, context);
          }
        };
    expressions.setSelectVisitor(selects);
    expressions.setBuilder(buffer);
    StatementDeParser printer = new StatementDeParser(expressions, selects, buffer);
    statement.accept(printer);
    return buffer.toString();
  }
}
