package dev.timelake.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * The column references of an expression, for the checks that a term reads only certain columns.
 */
public final class ColumnReferences {
  private ColumnReferences() {}

  /**
   * Every column reference in {@code expression}; empty when it holds a subquery or a window
   * function, whose columns may belong to other rows or tables.
   */
  public static Optional<List<Column>> of(Expression expression) {
    List<Column> columns = new ArrayList<>();
    boolean[] other = {false};
    expression.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Column column, S context) {
            columns.add(column);
            return null;
          }

          @Override
          public <S> Void visit(ParenthesedSelect select, S context) {
            other[0] = true;
            return null;
          }

          @Override
          public <S> Void visit(Select select, S context) {
            other[0] = true;
            return null;
          }

          @Override
          public <S> Void visit(AnalyticExpression analytic, S context) {
            other[0] = true;
            return null;
          }
        },
        null);
    return other[0] ? Optional.empty() : Optional.of(columns);
  }
}
